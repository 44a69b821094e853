"""What every format of the folder's table takes from a row, shared by the table's plain
formats (folder/table.py) and its LaTeX layout (folder/latex.py): the labels and refusals, the
task matrix, the value columns, and text made safe for a LaTeX cell."""

from __future__ import annotations

from collections.abc import Sequence

from evalview.folder.reads import ReadRow, TaskCell


def note_parts(row: ReadRow) -> list[str]:
    """The labels a reader must see, and for a row without a score, why: the pieces of the
    labels cell (Markdown) and of the numbered notes under the LaTeX table."""
    parts = list(row.labels)
    if row.status == "unreadable":
        parts.append(f"unreadable: {row.reason}")
    elif row.refusals:
        parts.append("refused: " + "; ".join(_first_sentence(m, row.path) for m in row.refusals))
    return parts


def _first_sentence(message: str, path: str) -> str:
    """A refusal, short enough for a table cell (the JSON row keeps the whole message)."""
    for prefix in (f"{path}: ",):
        message = message.removeprefix(prefix)
    head, sep, _rest = message.partition(". ")
    return head if sep else message.rstrip(".")


def task_matrix(rows: Sequence[ReadRow]) -> tuple[list[str], list[list[TaskCell | None]]]:
    """(tasks, cells[task][read]): every task of any read, in order of first appearance."""
    tasks: list[str] = []
    index: dict[str, int] = {}
    for row in rows:
        for t in row.tasks:
            if t.task not in index:
                index[t.task] = len(tasks)
                tasks.append(t.task)
    grid: list[list[TaskCell | None]] = [[None] * len(rows) for _ in tasks]
    for j, row in enumerate(rows):
        for t in row.tasks:
            grid[index[t.task]][j] = t
    return tasks, grid


def value_tasks(rows: Sequence[ReadRow]) -> list[str]:
    """The tasks (and groups) any row records a value for (lm-eval), in first-seen order: the
    paper's columns, one per task."""
    return list(dict.fromkeys(t.task for r in rows for t in r.task_values))


_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # a cell starting with [ after \\ would be read as \\[length]
    "[": "{[}",
    "]": "{]}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    '"': r"\textquotedbl{}",
    "±": r"$\pm$",
    "—": "---",
    "–": "--",
    "·": r"$\cdot$",
    "×": r"$\times$",
    "Δ": r"$\Delta$",
    "−": r"$-$",
    "≤": r"$\leq$",
    "≥": r"$\geq$",
    "→": r"$\to$",
    "…": r"\ldots{}",
}


def latex_escape(value: str) -> str:
    """Text safe in a LaTeX cell under pdflatex: the ten specials and brackets escaped, a few
    typographic characters spelled in LaTeX, other characters outside Latin-1 (which pdflatex's
    default fonts cannot set) written as their code point, control characters dropped."""
    out = []
    for ch in str(value):
        if ch in _LATEX:
            out.append(_LATEX[ch])
        elif ch in "\n\r\t":
            out.append(" ")
        elif ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            continue
        elif ord(ch) > 0xFF:
            out.append(f"{{[}}U+{ord(ch):04X}{{]}}")
        else:
            out.append(ch)
    return "".join(out)
