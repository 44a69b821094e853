"""The paper's table as LaTeX that fits the page: `\\linewidth` of a one-column 10pt article, or
with the twocolumn layout one column of a two-column paper. No text is scaled to get there.

Markdown and CSV keep every column; a page does not have the room. So the LaTeX table is the
paper's view of the same rows (docs/folders.md):

- short row labels: method (policy, a harness arm, else the file's name) and checkpoint (or a
  named read's key). Where two rows would read the same, the shortest tail of their paths that
  tells them apart: in parentheses, or as a heading over the rows of one file. The folder they
  came from is the last line under the table; the CSV and JSON keep every path.
- numbers in dcolumn `D` columns, aligned on the decimal point (successes / selected on the
  slash); a column no row fills is left out.
- the labels and the "why no score" text as numbered notes under the table, each text once.
- the table is a `tabularx` of `\\linewidth`: the label columns wrap, the numbers never do.
  `--per-task` splits the task x read matrix into tables of as many reads as the line holds.

Only packages of texlive-latex-base and -recommended: booktabs, tabularx, dcolumn.
"""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from evalview.fmt import pct
from evalview.folder.cells import latex_escape, note_parts, task_matrix, value_tasks
from evalview.folder.reads import ReadRow, TaskCell, TaskValue

#: onecolumn: for a page's width; twocolumn: for one column of a two-column paper
Layout = Literal["onecolumn", "twocolumn"]
LAYOUTS: tuple[Layout, ...] = ("onecolumn", "twocolumn")

#: The \linewidth each layout is sized for, in pt: the standard `article` at 10pt, one column
#: (letter or A4 alike; 11pt: 360, 12pt: 390) and one column of a two-column A4 article (letter:
#: 229.5; IEEEtran 252, ACM 241, CVPR 237, ICML 235). The main table is a tabularx of
#: \linewidth, so it is always that wide; the sizes decide what still fits beside its labels.
LINEWIDTH_PT: dict[Layout, float] = {"onecolumn": 345.0, "twocolumn": 221.0}

# Computer Modern at 10pt, in pt: enough to size the per-task blocks, which have fixed widths.
_DIGIT = 5.0
_POINT = 2.78
_SLASH = 5.0
_ENDASH = 5.0
_TABCOLSEP = 6.0
#: what an estimate of a text's width may miss by (the character widths are rounded)
_SLACK = 6.0
#: the per-task table's task column: its longest name's width, within these bounds (it wraps)
_TASK_COLUMN = (40.0, 110.0)
#: the widths of the per-task headers `$k/n$` and `95\,\% CI`, which may exceed their numbers
_KN_HEADER = 17.0
_CI_HEADER = 35.0
#: task rows per per-task table: with its caption and headings it stays within a page's height
_MAX_TASK_ROWS = 30

_STEM_SUFFIXES = (".json", ".jsonl")


# -- labels ---------------------------------------------------------------------------------


def _parts(path: str) -> list[str]:
    return [p for p in re.split(r"[/\\]+", path) if p not in ("", ".")] or [path]


def _tail(path: str, k: int) -> str:
    """The last `k` components of `path`, the file's extension dropped: `h/v1` for
    `runs/h/v1.json`, k = 2."""
    parts = _parts(path)[-k:]
    last = parts[-1]
    for suffix in _STEM_SUFFIXES:
        if last.endswith(suffix) and len(last) > len(suffix):
            parts[-1] = last[: -len(suffix)]
    return "/".join(parts)


@dataclass(frozen=True)
class Label:
    """How the LaTeX table names a row: method and checkpoint, and `source`, the tail of its path,
    where another row would otherwise read the same."""

    method: str
    checkpoint: str
    source: str | None = None

    @property
    def text(self) -> str:
        """The method with its source, `pi-test (faulty)`: the row's name where no heading above
        it names the file (and in the per-task headings)."""
        return self.method if self.source is None else f"{self.method} ({self.source})"


def _base_label(row: ReadRow) -> tuple[str, str]:
    method = row.arm or row.policy or _tail(row.path, 1) or "read"
    return method, row.checkpoint or row.read or ""


def row_labels(rows: Sequence[ReadRow]) -> list[Label]:
    """The label of each row; (text, checkpoint) is unique over `rows`.

    Method is the policy (a harness arm; else the file's name), checkpoint the policy version
    (else a named read's key). Rows whose pair would repeat get as source the shortest tail of
    their path that tells theirs apart, `pi-test (faulty)`; then every row of such a path gets it
    too, so the arms of one harness file read alike. A repeat left after that (the same read
    given twice) is numbered `#2`."""
    base = [_base_label(r) for r in rows]
    groups: dict[tuple[str, str], set[str]] = defaultdict(set)
    for row, pair in zip(rows, base, strict=True):
        groups[pair].add(row.path)
    repeats = Counter(base)
    depth: dict[str, int] = {}
    for pair, paths in groups.items():
        if repeats[pair] < 2:
            continue
        most = max(len(_parts(p)) for p in paths)
        k = 1
        while k < most and len({_tail(p, k) for p in paths}) < len(paths):
            k += 1
        for p in paths:
            depth[p] = max(depth.get(p, 0), k)
    labels = [
        Label(m, c, _tail(r.path, depth[r.path]) if r.path in depth else None)
        for r, (m, c) in zip(rows, base, strict=True)
    ]
    counts = Counter((lb.text, lb.checkpoint) for lb in labels)
    labels = [
        Label(f"{lb.method} [{r.read}]", lb.checkpoint, lb.source)
        if counts[(lb.text, lb.checkpoint)] > 1 and r.read and r.read != lb.checkpoint
        else lb
        for r, lb in zip(rows, labels, strict=True)
    ]
    taken = {(lb.text, lb.checkpoint) for lb in labels}
    seen: set[tuple[str, str]] = set()
    out = []
    for lb in labels:
        label, n = lb, 1
        while (label.text, label.checkpoint) in seen or (
            n > 1 and (label.text, label.checkpoint) in taken
        ):
            n += 1
            label = Label(f"{lb.method} #{n}", lb.checkpoint, lb.source)
        seen.add((label.text, label.checkpoint))
        out.append(label)
    return out


def number_notes(rows: Sequence[ReadRow]) -> tuple[list[list[int]], list[str]]:
    """The note numbers of each row (1-based) and the notes' texts: each row's labels and why it
    has no score (`note_parts`), each distinct text numbered once, in order of first use."""
    texts: list[str] = []
    index: dict[str, int] = {}
    marks = []
    for row in rows:
        mine = []
        for text in note_parts(row):
            if text not in index:
                texts.append(text)
                index[text] = len(texts)
            if index[text] not in mine:
                mine.append(index[text])
        marks.append(mine)
    return marks, texts


# -- text -----------------------------------------------------------------------------------

#: a word longer than this, with nowhere to break, may break every `_CHUNK` characters
_LONG_WORD = 16
_CHUNK = 6
_WORDS = re.compile(r"[^ /_\-.]+|.", re.S)


def _prose(text: str, *, code: bool = False) -> str:
    """Escaped text that can wrap in a narrow column: a break allowed after `/` and `_` (and in
    code after `-` and `.`, which TeX does not break there), and inside a long unbroken word."""
    out = []
    for m in _WORDS.finditer(text):
        word = m.group()
        if len(word) > _LONG_WORD:
            pieces = [word[i : i + _CHUNK] for i in range(0, len(word), _CHUNK)]
            out.append(r"\allowbreak{}".join(latex_escape(p) for p in pieces))
            continue
        out.append(latex_escape(word))
        if word in "/_" or (code and word in "-."):
            out.append(r"\allowbreak{}")
    return "".join(out)


def _note_text(text: str) -> str:
    """A note: prose, with `backquoted` spans (commands to run) set in typewriter."""
    spans = text.split("`")
    if len(spans) % 2 == 0:  # an unmatched backquote: all prose
        return _prose(text)
    return "".join(
        _prose(s) if i % 2 == 0 else r"\texttt{" + _prose(s, code=True) + "}"
        for i, s in enumerate(spans)
    )


def _pct(x: float) -> str:
    return pct(x, unit="")


def _int_digits(values: Sequence[float]) -> int:
    return max((len(_pct(v).partition(".")[0]) for v in values), default=1)


def _count_digits(values: Sequence[int | None]) -> int:
    return max((len(str(v)) for v in values if v is not None), default=1)


#: Computer Modern roman at 10pt, pt per character (others: 5 pt): to share the room between
#: the two label columns in proportion to their text (tabularx keeps the total exact).
_CHAR_PT = {
    **dict.fromkeys("ilj.,:;'!|", 2.8),
    **dict.fromkeys("ftr-()[]/ ", 3.6),
    **dict.fromkeys("cesz", 4.3),
    **dict.fromkeys("abdghknopquvxy0123456789", 5.3),
    "_": 7.0,
    **dict.fromkeys("mwMW", 8.5),
}


def _width_pt(text: str) -> float:
    return sum(_CHAR_PT.get(ch, 7.0 if ch.isupper() else 5.0) for ch in text)


def _dash(span: int, *, last: bool = False) -> str:
    """No number (refused, unreadable, not measured): an em dash across `span` columns."""
    return _head(span, "---", last=last)


def _head(span: int, text: str, *, last: bool = False) -> str:
    r"""A centred heading over `span` columns; `last`: the table's last, which keeps its @{}
    edge (a plain c would add \tabcolsep there and widen the table)."""
    edge = "c@{}" if last else "c"
    return rf"\multicolumn{{{span}}}{{{edge}}}{{{text}}}"


# -- the main table -------------------------------------------------------------------------


def _marks(numbers: Sequence[int]) -> str:
    return r"\textsuperscript{" + ",".join(str(n) for n in numbers) + "}" if numbers else ""


@dataclass(frozen=True)
class _Numbers:
    """What the rows' numbers need: which optional columns they fill, and the digits before the
    decimal point each `D` column reserves."""

    se: bool
    bootstrap: bool
    mean_digits: int
    se_digits: int
    boot_digits: int
    k_digits: int
    n_digits: int

    @classmethod
    def of(cls, rows: Sequence[ReadRow]) -> _Numbers:
        boots = [b for r in rows if r.bootstrap is not None for b in r.bootstrap]
        return cls(
            se=any(r.se is not None for r in rows),
            bootstrap=bool(boots),
            mean_digits=_int_digits([r.mean for r in rows if r.mean is not None]),
            # room for "\pm" (7.8 pt) beside the digits: two digits' width
            se_digits=_int_digits([r.se for r in rows if r.se is not None]) + 2,
            boot_digits=_int_digits(boots),
            k_digits=_count_digits([r.successes for r in rows if r.selected is not None]),
            n_digits=_count_digits([r.selected for r in rows]),
        )

    @property
    def kn_spec(self) -> str:
        return f"D{{/}}{{/}}{{{self.k_digits}.{self.n_digits}}}"

    @staticmethod
    def kn(row: ReadRow) -> str:
        """Successes / selected, the table's last column."""
        return _dash(1, last=True) if row.selected is None else f"{row.successes}/{row.selected}"


@dataclass(frozen=True)
class _Wide:
    """The one-column layout: method, checkpoint, mean, SE, bootstrap low and high, successes /
    selected, side by side. The two label columns share what the numbers leave (`hsize`): the
    checkpoint its text's width, up to half."""

    n: _Numbers
    checkpoint: bool
    method_share: float = 1.0

    @classmethod
    def of(cls, rows: Sequence[ReadRow], checkpoints: Sequence[str]) -> _Wide:
        cols = cls(_Numbers.of(rows), any(checkpoints))
        if not cols.checkpoint:
            return cols
        room = LINEWIDTH_PT["onecolumn"] - cols.numbers_pt - 3 * _TABCOLSEP
        wide = min(max(map(_width_pt, [*checkpoints, "Checkpoint"])) + _SLACK, room / 2)
        share = 2 * (room - wide) / room if room > 0 else 1.0
        return replace(cols, method_share=min(max(share, 0.5), 1.5))

    @property
    def numbers_pt(self) -> float:
        """What the number columns take of the line (their headings included)."""
        n = self.n
        mean = n.mean_digits * _DIGIT + _POINT + _DIGIT
        if n.se:
            mean += 2 * _TABCOLSEP + n.se_digits * _DIGIT + _POINT + _DIGIT
        width = max(mean, 50.0) + 2 * _TABCOLSEP  # "All-$T$ mean"
        if n.bootstrap:
            boot = 2 * (n.boot_digits * _DIGIT + _POINT + _DIGIT) + _ENDASH
            width += max(boot, 42.0) + 2 * _TABCOLSEP  # "Bootstrap"
        kn = (n.k_digits + n.n_digits) * _DIGIT + _SLASH
        return width + max(kn, 42.0) + _TABCOLSEP  # "/ selected"

    def spec(self) -> str:
        ragged = r"\raggedright\arraybackslash}X"
        if self.checkpoint:
            m, c = self.method_share, 2 - self.method_share
            labels = rf">{{\hsize={m:.2f}\hsize{ragged} >{{\hsize={c:.2f}\hsize{ragged}"
        else:
            labels = ">{" + ragged
        n = self.n
        cols = [labels, f"D{{.}}{{.}}{{{n.mean_digits}.1}}"]
        if n.se:
            cols.append(f"D{{.}}{{.}}{{{n.se_digits}.1}}")
        if n.bootstrap:
            d = f"D{{.}}{{.}}{{{n.boot_digits}.1}}"
            cols.append(f"{d}@{{--}}{d}")
        cols.append(n.kn_spec)
        return "@{}" + " ".join(cols) + "@{}"

    @property
    def count(self) -> int:
        """How many tabular columns (for a full-width \\multicolumn)."""
        return 2 + self.checkpoint + self.n.se + 2 * self.n.bootstrap + 1

    def headers(self) -> list[str]:
        mean = 1 + self.n.se
        top = ["", *([""] if self.checkpoint else []), _head(mean, r"All-$T$ mean")]
        bottom = [
            "Method",
            *(["Checkpoint"] if self.checkpoint else []),
            _head(mean, r"$\pm$ SE" if self.n.se else ""),
        ]
        if self.n.bootstrap:
            top.append(_head(2, "Bootstrap"))
            bottom.append(_head(2, r"95\,\% CI"))
        top.append(_head(1, "Successes", last=True))
        bottom.append(_head(1, "/ selected", last=True))
        return [" & ".join(top) + r" \\", " & ".join(bottom) + r" \\"]

    def lines(self, row: ReadRow, label: str, checkpoint: str) -> list[str]:
        """The row's line of the tabular (`label`: the method, escaped, with its note marks)."""
        out = [label]
        if self.checkpoint:
            out.append(_prose(checkpoint) if checkpoint else "---")
        if row.mean is None:
            out.append(_dash(1 + self.n.se))
        else:
            out.append(_pct(row.mean))
            if self.n.se:
                out.append("" if row.se is None else rf"\pm {_pct(row.se)}")
        if self.n.bootstrap:
            b = row.bootstrap
            out += [_dash(2)] if b is None else [_pct(b[0]), _pct(b[1])]
        out.append(self.n.kn(row))
        return [" & ".join(out) + r" \\"]


@dataclass(frozen=True)
class _Narrow:
    """The two-column layout: three columns fewer. Under each read's method line, a second line
    holds its checkpoint (indented) and the bootstrap interval, low under the mean and high under
    the SE, each still on its decimal point."""

    n: _Numbers
    checkpoint: bool

    @classmethod
    def of(cls, rows: Sequence[ReadRow], checkpoints: Sequence[str]) -> _Narrow:
        return cls(_Numbers.of(rows), any(checkpoints))

    @property
    def second(self) -> bool:
        """Whether the SE column is there (it holds the interval's high end too)."""
        return self.n.se or self.n.bootstrap

    def spec(self) -> str:
        n = self.n
        # the mean column also holds the interval's low end; the SE column "\pm SE" and "--high"
        mean = max(n.mean_digits, n.boot_digits if n.bootstrap else 1)
        cols = [r">{\raggedright\arraybackslash}X", f"D{{.}}{{.}}{{{mean}.1}}"]
        if self.second:
            se = max(n.se_digits if n.se else 1, n.boot_digits + 1 if n.bootstrap else 1)
            cols.append(f"D{{.}}{{.}}{{{se}.1}}")
        cols.append(n.kn_spec)
        return "@{}" + " ".join(cols) + "@{}"

    @property
    def count(self) -> int:
        return 3 + self.second

    def headers(self) -> list[str]:
        span = 1 + self.second
        top = ["", _head(span, r"All-$T$ mean"), _head(1, "Successes", last=True)]
        middle = [
            "Method",
            _head(span, r"$\pm$ SE" if self.n.se else ""),
            _head(1, "/ selected", last=True),
        ]
        lines = [" & ".join(top) + r" \\", " & ".join(middle) + r" \\"]
        if self.checkpoint or self.n.bootstrap:
            bottom = [
                r"\quad Checkpoint" if self.checkpoint else "",
                _head(span, r"95\,\% CI" if self.n.bootstrap else ""),
                "",
            ]
            lines.append(" & ".join(bottom) + r" \\")
        return lines

    def lines(self, row: ReadRow, label: str, checkpoint: str) -> list[str]:
        first = [label]
        if row.mean is None:
            first.append(_dash(1 + self.second))
        else:
            first.append(_pct(row.mean))
            if self.second:
                first.append("" if row.se is None else rf"\pm {_pct(row.se)}")
        first.append(self.n.kn(row))
        out = [" & ".join(first) + r" \\"]
        b = row.bootstrap
        if checkpoint or b is not None:
            second = [r"\quad " + _prose(checkpoint) if checkpoint else ""]
            second += ["", ""] if b is None else [_pct(b[0]), rf"\mbox{{--}}{_pct(b[1])}"]
            if not self.second:  # no SE column: no interval either
                second = second[:2]
            out.append(" & ".join([*second, ""]) + r" \\")
        return out


@dataclass
class _Group:
    """Consecutive rows under one heading: a file several rows came from, when their labels need
    its name, else a benchmark (when the table has several). Notes every row of the group shares
    are marked once, on the heading."""

    heading: str | None
    members: list[int] = field(default_factory=list)


def _groups(rows: Sequence[ReadRow], labels: Sequence[Label]) -> tuple[list[_Group], list[bool]]:
    """The groups in row order, and for each row whether its heading names its source (so the
    row's own label leaves it out)."""
    per_path = Counter(r.path for r in rows)
    by_file = [
        lb.source is not None and per_path[r.path] > 1
        for r, lb in zip(rows, labels, strict=True)
    ]
    benchmarks = {r.benchmark_label for r in rows}
    if len(benchmarks) < 2 and not any(by_file):
        return [_Group(None, list(range(len(rows))))], by_file
    groups: list[_Group] = []
    previous: tuple[str | None, str | None] | None = None
    for i, (row, label) in enumerate(zip(rows, labels, strict=True)):
        source = label.source if by_file[i] else None
        key = (row.benchmark_label, source)
        if key != previous:
            bench = row.benchmark_label or "benchmark not recorded"
            heading = bench if source is None else source
            if source is not None and len(benchmarks) > 1:
                heading += f" ({bench})"
            groups.append(_Group(heading))
            previous = key
        groups[-1].members.append(i)
    return groups, by_file


def _caption(rows: Sequence[ReadRow]) -> str:
    text = (
        r"All-$T$ mean of per-task success rates over selected cases, with its binomial SE and "
        r"the 95\,\% seed bootstrap interval (percent), and successes / selected."
    )
    benchmarks = {r.benchmark_label for r in rows}
    if len(benchmarks) == 1 and (only := benchmarks.pop()):
        text += " Benchmark: " + latex_escape(only) + "."
    return text


def _source(rows: Sequence[ReadRow]) -> str | None:
    """The folder the rows came from (the rows' paths are in the CSV and JSON)."""
    try:
        common = os.path.commonpath([r.path for r in rows])
    except ValueError:  # absolute and relative paths mixed
        return None
    if common in ("", ".", os.sep):
        return None
    return ("Read: " if len({r.path for r in rows}) == 1 else "Reads under ") + _prose(common)


def _main_table(rows: Sequence[ReadRow], labels: Sequence[Label], layout: Layout) -> list[str]:
    marks, texts = number_notes(rows)
    groups, by_file = _groups(rows, labels)
    methods = [lb.method if named else lb.text for lb, named in zip(labels, by_file, strict=True)]
    checkpoints = [lb.checkpoint for lb in labels]
    cols: _Wide | _Narrow = (
        _Wide.of(rows, checkpoints) if layout == "onecolumn" else _Narrow.of(rows, checkpoints)
    )
    lines = [
        r"\begin{table}[htbp]",
        r"\centering",
        r"\caption{" + _caption(rows) + "}",
        r"\begin{tabularx}{\linewidth}{" + cols.spec() + "}",
        r"\toprule",
        *cols.headers(),
        r"\midrule",
    ]
    for n, group in enumerate(groups):
        shared: list[int] = []
        if group.heading is not None:
            if len(group.members) > 1:
                first, *others = (marks[i] for i in group.members)
                shared = [m for m in first if all(m in o for o in others)]
            if n:
                lines.append(r"\addlinespace")
            heading = r"\textit{" + _prose(group.heading) + "}" + _marks(shared)
            lines.append(
                rf"\multicolumn{{{cols.count}}}{{@{{}}>{{\raggedright\arraybackslash}}"
                rf"p{{\linewidth}}@{{}}}}{{{heading}}} \\"
            )
        for i in group.members:
            label = _prose(methods[i]) + _marks([m for m in marks[i] if m not in shared])
            lines += cols.lines(rows[i], label, checkpoints[i])
    lines += [r"\bottomrule", r"\end{tabularx}"]
    notes = [rf"\textsuperscript{{{n}}}\,{_note_text(t)}\par" for n, t in enumerate(texts, 1)]
    if (source := _source(rows)) is not None:
        notes.append(source + r".\par")
    if notes:
        lines += [
            r"\par\smallskip",
            r"\begin{minipage}{\linewidth}\footnotesize\raggedright",
            *notes,
            r"\end{minipage}",
        ]
    lines.append(r"\end{table}")
    return lines


# -- the per-task matrix --------------------------------------------------------------------


@dataclass(frozen=True)
class _ReadBlock:
    """One read's columns in the per-task matrix: k/n on the slash, the Wilson interval on the
    decimal points, and the pt they take (fixed: digit counts are known)."""

    k_digits: int
    n_digits: int
    lo_digits: int
    hi_digits: int

    @classmethod
    def of(cls, cells: Sequence[TaskCell | None]) -> _ReadBlock:
        present = [c for c in cells if c is not None]
        return cls(
            _count_digits([c.successes for c in present]),
            _count_digits([c.selected for c in present]),
            _int_digits([c.wilson95[0] for c in present]),
            _int_digits([c.wilson95[1] for c in present]),
        )

    def spec(self) -> str:
        return (
            f"D{{/}}{{/}}{{{self.k_digits}.{self.n_digits}}} "
            f"D{{.}}{{.}}{{{self.lo_digits}.1}}@{{--}}D{{.}}{{.}}{{{self.hi_digits}.1}}"
        )

    @property
    def inner(self) -> float:
        """From the left of k/n to the right of the interval, in pt."""
        kn = max((self.k_digits + self.n_digits) * _DIGIT + _SLASH, _KN_HEADER)
        digits = self.lo_digits + self.hi_digits + 2
        ci = max(digits * _DIGIT + 2 * _POINT + _ENDASH, _CI_HEADER)
        return kn + 2 * _TABCOLSEP + ci

    @property
    def width(self) -> float:
        return self.inner + 2 * _TABCOLSEP

    @staticmethod
    def cells(c: TaskCell | None) -> list[str]:
        if c is None:
            return [_dash(3)]
        return [f"{c.successes}/{c.selected}", _pct(c.wilson95[0]), _pct(c.wilson95[1])]


def _chunks(widths: Sequence[float], tasks: Sequence[str], linewidth: float) -> list[range]:
    """Consecutive reads (each `widths[j]` pt wide), as many per table as fit beside the task
    column."""
    low, high = _TASK_COLUMN
    task_column = min(max([low, *map(_width_pt, tasks)]), high, linewidth / 3)
    room = linewidth - task_column - _TABCOLSEP
    out: list[range] = []
    start, used = 0, 0.0
    for j, width in enumerate(widths):
        if j > start and used + width > room:
            out.append(range(start, j))
            start, used = j, 0.0
        used += width
    out.append(range(start, len(widths)))
    return out


def _per_task_tables(
    rows: Sequence[ReadRow], labels: Sequence[Label], linewidth: float
) -> list[str]:
    """The task x read matrix, in tables of as many reads as fit the width and at most
    `_MAX_TASK_ROWS` tasks (a float must fit a page); a table leaves out the tasks none of its
    reads has."""
    tasks, grid = task_matrix(rows)
    if not tasks:
        return []
    blocks = [_ReadBlock.of([line[j] for line in grid]) for j in range(len(rows))]
    chunks = _chunks([b.width for b in blocks], tasks, linewidth)
    pieces = []
    for chunk in chunks:
        present = [t for t, line in enumerate(grid) if any(line[j] is not None for j in chunk)]
        for start in range(0, len(present), _MAX_TASK_ROWS):
            pieces.append((chunk, present[start : start + _MAX_TASK_ROWS], start > 0))
    lines: list[str] = []
    for chunk, task_rows, continued in pieces:
        caption = (
            r"Per task: successes / selected ($k/n$) and the Wilson 95\,\% interval (percent)."
        )
        if len(chunk) == 1 and len(chunks) > 1:
            caption += f" Read {chunk.start + 1} of {len(rows)}."
        elif len(chunks) > 1:
            caption += f" Reads {chunk.start + 1}--{chunk.stop} of {len(rows)}."
        if continued:
            caption += " (Continued.)"
        spec = (
            r"@{}>{\raggedright\arraybackslash}X "
            + " ".join(blocks[j].spec() for j in chunk)
            + "@{}"
        )
        names = []
        rules = []
        for i, j in enumerate(chunk):
            label = labels[j]
            name = _prose(label.text)
            if label.checkpoint:
                name += r"\\" + _prose(label.checkpoint)
            width = f"{blocks[j].inner:.1f}pt"
            last = j == chunk[-1]
            names.append(_head(3, rf"\parbox[b]{{{width}}}{{\centering {name}}}", last=last))
            rules.append(rf"\cmidrule(l{{2pt}}r{{2pt}}){{{2 + 3 * i}-{4 + 3 * i}}}")
        units = [
            _head(1, "$k/n$") + " & " + _head(2, r"95\,\% CI", last=j == chunk[-1]) for j in chunk
        ]
        lines += [
            "",
            r"\begin{table}[htbp]",
            r"\centering",
            r"\caption{" + caption + "}",
            r"\begin{tabularx}{\linewidth}{" + spec + "}",
            r"\toprule",
            " & ".join(["", *names]) + r" \\",
            "".join(rules),
            " & ".join(["Task", *units]) + r" \\",
            r"\midrule",
        ]
        for t in task_rows:
            cells = [c for j in chunk for c in _ReadBlock.cells(grid[t][j])]
            lines.append(" & ".join([_prose(tasks[t]), *cells]) + r" \\")
        lines += [r"\bottomrule", r"\end{tabularx}", r"\end{table}"]
    return lines


# -- the value per task, as the tool recorded it (lm-eval) -------------------------------------

#: the decimals of a recorded value and its stderr, as the markdown table prints them
_VALUE_DECIMALS = 4
#: the ± between a value and its stderr, with its thin spaces
_PM = 7.78 + 2 * 1.67


def _value_digits(values: Sequence[float | None]) -> int:
    return max((len(f"{v:.{_VALUE_DECIMALS}f}".partition(".")[0]) for v in values
                if v is not None), default=1)


@dataclass(frozen=True)
class _ValueBlock:
    """One read's columns in the table of recorded values: the value and its stderr, each on
    its decimal point, a ± between them (none where no stderr is recorded)."""

    value_digits: int
    se_digits: int

    @classmethod
    def of(cls, values: Sequence[TaskValue | None]) -> _ValueBlock:
        present = [v for v in values if v is not None]
        return cls(_value_digits([v.value for v in present]),
                   _value_digits([v.stderr for v in present]))

    def spec(self) -> str:
        d = _VALUE_DECIMALS
        return (rf"D{{.}}{{.}}{{{self.value_digits}.{d}}}@{{\,}}c@{{\,}}"
                f"D{{.}}{{.}}{{{self.se_digits}.{d}}}")

    @property
    def inner(self) -> float:
        number = _VALUE_DECIMALS * _DIGIT + _POINT
        return (self.value_digits * _DIGIT + number) + _PM + (self.se_digits * _DIGIT + number)

    @property
    def width(self) -> float:
        return self.inner + 2 * _TABCOLSEP

    @staticmethod
    def cells(v: TaskValue | None) -> list[str]:
        if v is None:
            return [_dash(3)]
        d = _VALUE_DECIMALS
        if v.stderr is None:
            return [f"{v.value:.{d}f}", "", ""]
        return [f"{v.value:.{d}f}", r"$\pm$", f"{v.stderr:.{d}f}"]


def _value_tables(
    rows: Sequence[ReadRow], labels: Sequence[Label], linewidth: float
) -> list[str]:
    """The markdown table's per-task values (lm-eval: each task's first metric ± its stderr, as
    recorded), transposed to a task per line and a block per read, in tables of as many reads
    as fit the width and at most `_MAX_TASK_ROWS` tasks: a column per task would not fit."""
    shown = [j for j, r in enumerate(rows) if r.task_values]
    if not shown:
        return []
    tasks = value_tasks(rows)
    by = [{v.task: v for v in rows[j].task_values} for j in shown]
    grid = [[b.get(t) for b in by] for t in tasks]
    blocks = [_ValueBlock.of([line[i] for line in grid]) for i in range(len(shown))]
    chunks = _chunks([b.width for b in blocks], tasks, linewidth)
    lines: list[str] = []
    for chunk in chunks:
        present = [t for t, line in enumerate(grid) if any(line[i] is not None for i in chunk)]
        for start in range(0, len(present), _MAX_TASK_ROWS):
            caption = (r"Per task, as the tool recorded it (lm-eval: each task's first metric, "
                       r"value $\pm$ stderr; aggregates-only reads too).")
            if len(chunks) > 1:
                caption += (f" Read {chunk.start + 1} of {len(shown)}." if len(chunk) == 1 else
                            f" Reads {chunk.start + 1}--{chunk.stop} of {len(shown)}.")
            if start:
                caption += " (Continued.)"
            spec = (r"@{}>{\raggedright\arraybackslash}X "
                    + " ".join(blocks[i].spec() for i in chunk) + "@{}")
            names = []
            for i in chunk:
                label = labels[shown[i]]
                name = _prose(label.text)
                if label.checkpoint:
                    name += r"\\" + _prose(label.checkpoint)
                width = f"{blocks[i].inner:.1f}pt"
                names.append(_head(3, rf"\parbox[b]{{{width}}}{{\centering {name}}}",
                                   last=i == chunk[-1]))
            lines += [
                "",
                r"\begin{table}[htbp]",
                r"\centering",
                r"\caption{" + caption + "}",
                r"\begin{tabularx}{\linewidth}{" + spec + "}",
                r"\toprule",
                " & ".join(["Task", *names]) + r" \\",
                r"\midrule",
            ]
            for t in present[start : start + _MAX_TASK_ROWS]:
                cells = [c for i in chunk for c in _ValueBlock.cells(grid[t][i])]
                lines.append(" & ".join([_prose(tasks[t]), *cells]) + r" \\")
            lines += [r"\bottomrule", r"\end{tabularx}", r"\end{table}"]
    return lines


def header(layout: Layout) -> list[str]:
    """The comment lines the LaTeX starts with: the preamble it needs, and what it fits."""
    fits = (
        r"\linewidth of a one-column paper (10pt article: 345 pt)"
        if layout == "onecolumn"
        else r"\linewidth of one column of a two-column paper (A4 article: 221 pt)"
    )
    return [
        r"% evalview table: needs \usepackage{booktabs,tabularx,dcolumn}"
        r" (and \usepackage[T1]{fontenc} for < > |)",
        f"% layout {layout}: fits {fits}",
    ]


def paper_table(
    rows: Sequence[ReadRow], *, per_task: bool, layout: Layout = "onecolumn"
) -> str:
    """The LaTeX of `evalview table --format latex`: the main table and, with `per_task`, the
    task x read matrix in blocks; the first lines say which packages the preamble needs."""
    labels = row_labels(rows)
    lines = [*header(layout), *_main_table(rows, labels, layout)]
    lines += _value_tables(rows, labels, LINEWIDTH_PT[layout])
    if per_task:
        lines += _per_task_tables(rows, labels, LINEWIDTH_PT[layout])
    return "\n".join(lines) + "\n"
