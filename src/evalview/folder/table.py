"""The paper's table: one row per read, as Markdown, CSV, LaTeX or JSON.

Only formatting lives here; every number is `score_run`'s (through `ReadRow`), so the table says
what `evalview score --json` says. JSON and CSV carry the fractions as computed (no rounding);
Markdown and LaTeX show percent with one decimal, as the text output does. Markdown and CSV keep
every column; the LaTeX layout, which must fit a page, is in `evalview.folder.latex`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from evalview.fmt import pct, ratio
from evalview.folder.cells import (
    note_parts,
    task_matrix,
    value_tasks,
)
from evalview.folder.reads import ReadRow, TaskCell
from evalview.textsafe import clean, json_text

if TYPE_CHECKING:
    from evalview.folder.latex import Layout

FORMATS = ("md", "csv", "latex", "json")

HEADERS = (
    "read",
    "benchmark",
    "policy",
    "checkpoint",
    "all-T mean ± SE (%)",
    "95 % seed bootstrap (%)",
    "successes / selected",
    "labels / why no score",
)


def notes(row: ReadRow) -> str:
    """The labels cell: `note_parts` on one line."""
    return "; ".join(note_parts(row))


def _pct(x: float) -> str:
    return pct(x, unit="")


def cells(row: ReadRow, pm: str = "±", dash: str = "—", en: str = "–") -> list[str]:
    """The human cells of one row (percent, one decimal), in HEADERS order."""
    if row.mean is None:
        mean = dash
    elif row.se is None:  # a harness arm: the mean over seeds (its spread is in the notes)
        mean = _pct(row.mean)
    else:
        mean = f"{_pct(row.mean)} {pm} {_pct(row.se)}"
    boot = (
        dash if row.bootstrap is None else f"{_pct(row.bootstrap[0])}{en}{_pct(row.bootstrap[1])}"
    )
    frac = dash if row.selected is None else ratio(row.successes, row.selected)
    return [
        row.label,
        row.benchmark_label or dash,
        row.policy or dash,
        row.checkpoint or dash,
        mean,
        boot,
        frac,
        notes(row) or dash,
    ]


def _cell_text(c: TaskCell | None, dash: str = "—", en: str = "–") -> str:
    if c is None:
        return dash
    lo, hi = c.wilson95
    return f"{c.successes}/{c.selected} ({_pct(lo)}{en}{_pct(hi)})"


# -- JSON -----------------------------------------------------------------------------------


def to_json(
    rows: Sequence[ReadRow], *, per_task: bool, skipped: Sequence[dict[str, Any]] = ()
) -> str:
    doc: dict[str, Any] = {"rows": [r.to_json() for r in rows], "skipped": list(skipped)}
    if per_task:
        tasks, grid = task_matrix(rows)
        doc["per_task"] = {
            "reads": [r.label for r in rows],
            "tasks": [
                {
                    "task": task,
                    "cells": [
                        None
                        if c is None
                        else {
                            "successes": c.successes,
                            "selected": c.selected,
                            "rate": c.rate,
                            "wilson95": list(c.wilson95),
                        }
                        for c in line
                    ],
                }
                for task, line in zip(tasks, grid, strict=True)
            ],
        }
    return json_text(doc).decode() + "\n"


# -- CSV ------------------------------------------------------------------------------------

CSV_COLUMNS = (
    "path",
    "run_id",
    "benchmark",
    "policy",
    "checkpoint",
    "mean",
    "se",
    "bootstrap_lo",
    "bootstrap_hi",
    "successes",
    "selected",
    "labels",
    "refused",
)
CSV_TASK_COLUMNS = ("task", "path", "successes", "selected", "rate", "wilson_lo", "wilson_hi")


def _num(x: float | int | None) -> str:
    """A number as Python writes it (shortest round-trip form: the same float as JSON)."""
    return "" if x is None else repr(x)


def value_cell(r: ReadRow, task: str) -> str:
    """`0.7500 ± 0.0564`: the value `r` records for `task` ± its stderr (— when none); the
    markdown table's cell, and the Runs screen's."""
    v = next((t for t in r.task_values if t.task == task), None)
    if v is None:
        return "—"
    se = "" if v.stderr is None else f" ± {v.stderr:.4f}"
    return f"{v.value:.4f}{se}"


def value_table(rows: Sequence[ReadRow]) -> list[list[str]]:
    """One row per read, a column per task: the value its tool records, ± its stderr."""
    tasks = value_tasks(rows)
    return [[r.label, *(value_cell(r, t) for t in tasks)] for r in rows if r.task_values]


def to_csv(rows: Sequence[ReadRow], *, per_task: bool) -> str:
    """One header row. Fractions in [0, 1], never percent strings; empty where there is none.
    `--per-task` gives the matrix in long form (one line per task and read)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if per_task:
        w.writerow(CSV_TASK_COLUMNS)
        tasks, grid = task_matrix(rows)
        for task, line in zip(tasks, grid, strict=True):
            for row, c in zip(rows, line, strict=True):
                if c is not None:
                    w.writerow(
                        [
                            _safe(task),
                            _safe(row.path),
                            c.successes,
                            c.selected,
                            _num(c.rate),
                            _num(c.wilson95[0]),
                            _num(c.wilson95[1]),
                        ]
                    )
        return buf.getvalue()
    tasks = value_tasks(rows)
    w.writerow([*CSV_COLUMNS, *(f"{k}:{_safe(t)}" for t in tasks for k in ("value", "stderr"))])
    for r in rows:
        boot = r.bootstrap or (None, None)
        by = {t.task: t for t in r.task_values}
        extra = [_num(getattr(by.get(t), k, None)) for t in tasks for k in ("value", "stderr")]
        w.writerow(
            [
                _safe(r.path),
                _safe(r.run_id),
                _safe(r.benchmark_label),
                _safe(r.policy),
                _safe(r.checkpoint),
                _num(r.mean),
                _num(r.se),
                _num(boot[0]),
                _num(boot[1]),
                _num(r.successes),
                _num(r.selected),
                _safe("; ".join(r.labels)),
                _safe(r.refused),
                *extra,
            ]
        )
    return buf.getvalue()


def _safe(value: str | None) -> str:
    """Run data in a spreadsheet cell: control characters made visible, and a leading = + - @
    quoted so a spreadsheet does not run it as a formula."""
    if value is None:
        return ""
    text = clean(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# -- Markdown -------------------------------------------------------------------------------

_MD_SPECIAL = "\\`*_[]<>|~"


def md_escape(value: str) -> str:
    """A cell of a GitHub table: markup characters and the pipe backslash-escaped, one line."""
    text = clean(value).replace("\n", " ").replace("\r", " ")
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


def _md_table(headers: Sequence[str], body: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    lines = ["| " + " | ".join(md_escape(h) for h in headers) + " |"]
    lines.append(
        "| " + " | ".join("---:" if i in right else "---" for i in range(len(headers))) + " |"
    )
    for r in body:
        lines.append("| " + " | ".join(md_escape(c) for c in r) + " |")
    return lines


def to_markdown(rows: Sequence[ReadRow], *, per_task: bool) -> str:
    lines = _md_table(HEADERS, [cells(r) for r in rows], {4, 5, 6})
    lines += [
        "",
        "All-T mean: the mean of per-task success rates over selected cases; SE "
        "binomial; bootstrap B as `evalview score` (random.Random(7)).",
    ]
    values = value_table(rows)
    if values:
        lines += ["", "Per task, as the tool recorded it (lm-eval: each task's first metric, "
                  "value ± stderr; aggregates-only reads too)", ""]
        lines += _md_table(["read", *value_tasks(rows)], values,
                           set(range(1, len(values[0]))))
    if per_task:
        tasks, grid = task_matrix(rows)
        lines += ["", "Per task: successes / selected (Wilson 95 %, percent)", ""]
        lines += _md_table(
            ["task", *(r.label for r in rows)],
            [
                [task, *(_cell_text(c) for c in line)]
                for task, line in zip(tasks, grid, strict=True)
            ],
            set(range(1, len(rows) + 1)),
        )
    return "\n".join(lines) + "\n"


# -- LaTeX ----------------------------------------------------------------------------------

def to_latex(rows: Sequence[ReadRow], *, per_task: bool, layout: Layout = "onecolumn") -> str:
    """The paper's table in LaTeX, sized for a page or a column (`evalview.folder.latex`)."""
    from evalview.folder.latex import paper_table

    return paper_table(rows, per_task=per_task, layout=layout)


def render(
    fmt: str,
    rows: Sequence[ReadRow],
    *,
    per_task: bool,
    skipped: Sequence[dict[str, Any]] = (),
    layout: Layout = "onecolumn",
) -> str:
    if fmt == "json":
        return to_json(rows, per_task=per_task, skipped=skipped)
    if fmt == "csv":
        return to_csv(rows, per_task=per_task)
    if fmt == "latex":
        return to_latex(rows, per_task=per_task, layout=layout)
    return to_markdown(rows, per_task=per_task)
