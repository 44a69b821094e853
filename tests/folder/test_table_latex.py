"""`evalview table --format latex`: the paper's table fits the line it is for, no text scaled.

Short row labels (method, checkpoint; a path tail only where labels would collide), numbers in
decimal-aligned columns, and the labels and "why no score" text as numbered notes below the
tabular. The compile tests typeset the output with the packages its first line names, in a plain
10pt `article` (--latex-layout onecolumn: 345 pt) and an A4 two-column one (twocolumn: 221 pt),
and fail on any overfull box. Markdown, CSV and JSON keep every column (tests/cli/test_table.py).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalview.cli import main
from evalview.folder.cells import note_parts
from evalview.folder.latex import LINEWIDTH_PT, number_notes, paper_table, row_labels
from evalview.folder.reads import ReadRow, TaskCell
from helpers.closed_runs import outcomes_for, write_run
from helpers.paths import SAMPLE_RUNS

B = "200"  # resamples: small for speed, but not 0, so the bootstrap columns are there

PACKAGE = re.compile(r"\\usepackage(?:\[[^\]]*\])?\{[^}]*\}")


def _latex(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    out = tmp_path / "table.tex"
    code = main(["table", *args, "--format", "latex", "--bootstrap", B, "-j", "1",
                 "--output", str(out)])
    capsys.readouterr()
    assert code in (0, 1)
    return out.read_text(encoding="utf-8")


def _compile(tmp_path: Path, body: str, documentclass: str = r"\documentclass{article}") -> str:
    """Typeset `body` in a plain article with the packages its header comment names; the log."""
    assert shutil.which("pdflatex"), (
        "pdflatex is needed: apt-get install texlive-latex-base texlive-latex-recommended "
        "(.ci/run does)"
    )
    header = [line for line in body.splitlines() if line.startswith("%")]
    packages = [p for line in header for p in PACKAGE.findall(line)]
    assert packages, header  # the output says what the preamble needs
    (tmp_path / "table.tex").write_text(body, encoding="utf-8")
    doc = tmp_path / "paper.tex"
    doc.write_text(
        "\n".join([documentclass, *packages, r"\begin{document}", r"\input{table.tex}",
                   r"\end{document}", ""]),
        encoding="utf-8",
    )
    result = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
        cwd=tmp_path, capture_output=True, text=True, timeout=180,
    )
    log = (tmp_path / "paper.log").read_text(encoding="latin-1")
    assert result.returncode == 0, result.stdout[-3000:]
    assert (tmp_path / "paper.pdf").stat().st_size > 1000
    return log


def _overfull(log: str) -> list[str]:
    return re.findall(r"Overfull \\hbox \([0-9.]+pt too wide\)[^\n]*", log)


def _long_names(tmp_path: Path) -> Path:
    """A read whose names have nowhere to break, and every character LaTeX treats specially:
    the labels must still fit."""
    hostile = 'pol_1 & 50% $x #2 {a} ~b ^c \\d [e] <f> |g| "h" ✓ é Δ'
    return write_run(
        tmp_path / "runs" / ("a-rather-long-folder-name_" * 4) / "seed_1",
        outcomes_for({"a_task_name_without_spaces_that_goes_on": (3, 4), "t|b": (4, 4)}, 4),
        manifest={"policy": {"name": hostile + " Policy" + "X" * 60,
                             "version": "[step]_" + "9" * 40}},
    )


#: each layout in the narrowest standard document it is for (article, 10pt: 345 pt, A4 two-column:
#: 221 pt)
DOCUMENTS = {
    "onecolumn": r"\documentclass{article}",
    "twocolumn": r"\documentclass[twocolumn,a4paper]{article}",
}


def _lm_eval_many(tmp_path: Path) -> Path:
    """Six lm-eval model directories (the sample's two, three times) and lm-eval's real
    results files (an N/A stderr, groups, old v0 files): more reads than one table's width."""
    out = tmp_path / "lm-eval-many"
    for i in range(6):
        src = sorted((SAMPLE_RUNS / "lm-eval").iterdir())[i % 2]
        shutil.copytree(src, out / f"model-{i}")
    shutil.copytree(SAMPLE_RUNS.parent / "tests" / "fixtures" / "lm_eval", out / "real")
    return out


@pytest.mark.parametrize("layout", ["onecolumn", "twocolumn"])
@pytest.mark.parametrize("per_task", [False, True], ids=["table", "per-task"])
@pytest.mark.parametrize("where", ["sample_runs", "sample_runs/replicates", "long-names",
                                   "sample_runs/lm-eval", "lm-eval-many"])
def test_the_table_fits_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, per_task: bool, layout: str
) -> None:
    path = (
        _long_names(tmp_path) if where == "long-names"
        else _lm_eval_many(tmp_path) if where == "lm-eval-many"
        else SAMPLE_RUNS.parent / where
    )
    args = [str(path), "--latex-layout", layout, *(["--per-task"] if per_task else [])]
    body = _latex(tmp_path, capsys, *args)
    assert f"% layout {layout}: fits" in body
    log = _compile(tmp_path, body, DOCUMENTS[layout])
    assert _overfull(log) == []
    assert "X Columns too narrow" not in log


def test_latex_layout_is_for_latex_only(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["table", str(SAMPLE_RUNS / "replicates"), "--latex-layout", "twocolumn"])
    _out, err = capsys.readouterr()
    assert code == 2 and "--latex-layout applies to --format latex" in " ".join(err.split())


def _row(path: str, **kw: object) -> ReadRow:
    return ReadRow(path=path, status="read", **kw)  # type: ignore[arg-type]


def _pairs(rows: list[ReadRow]) -> list[tuple[str, str]]:
    return [(label.text, label.checkpoint) for label in row_labels(rows)]


def test_labels_are_method_and_checkpoint_without_the_path() -> None:
    rows = [
        _row(f"runs/replicates/planner-{m}/ft-seed-{s}", policy=f"planner-{m}",
             checkpoint=f"ft{s}-step-30000")
        for m in "ab" for s in (1, 2, 3)
    ]
    assert _pairs(rows) == [(r.policy, r.checkpoint) for r in rows]
    lerobot = [
        _row("lerobot/libero10-two-reads.json", read="eval_results_400"),
        _row("lerobot/libero10-two-reads.json", read="eval_results_800"),
        _row("lerobot/pusht-single-env.json"),
        ReadRow("broken/run", "unreadable", "cannot be read"),
    ]
    assert _pairs(lerobot) == [
        ("libero10-two-reads", "eval_results_400"),
        ("libero10-two-reads", "eval_results_800"),
        ("pusht-single-env", ""),
        ("run", ""),
    ]


def test_colliding_labels_take_the_shortest_path_tail_that_tells_them_apart() -> None:
    rows = [
        _row("s/faulty", policy="pi-test", checkpoint="ckpt-40000"),
        _row("s/robobench-24x50", policy="pi-test", checkpoint="ckpt-40000"),
        _row("s/h/v1.json", arm="cold-start-only", policy="cold-start-only"),
        _row("s/h/v1.json", arm="opd", policy="opd"),
        _row("s/h/v2.json", arm="cold-start-only", policy="cold-start-only"),
        _row("s/h/v2.json", arm="kd", policy="kd"),
        _row("a/seed-1", policy="p", checkpoint="c"),
        _row("b/seed-1", policy="p", checkpoint="c"),
        _row("x/only", policy="q", checkpoint="c"),
    ]
    assert _pairs(rows) == [
        ("pi-test (faulty)", "ckpt-40000"),
        ("pi-test (robobench-24x50)", "ckpt-40000"),
        ("cold-start-only (v1)", ""),
        ("opd (v1)", ""),  # every arm of a file that needs its name gets it
        ("cold-start-only (v2)", ""),
        ("kd (v2)", ""),
        ("p (a/seed-1)", "c"),
        ("p (b/seed-1)", "c"),
        ("q", "c"),
    ]


_names = st.sampled_from(["a", "b", "x.json", "seed-1", "p q", ""])


@given(
    st.lists(
        st.tuples(
            st.lists(_names.filter(bool), min_size=1, max_size=3),
            st.one_of(st.none(), _names),
            st.one_of(st.none(), _names),
            st.one_of(st.none(), _names),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_labels_are_always_unique(
    specs: list[tuple[list[str], str | None, str | None, str | None]],
) -> None:
    rows = [
        _row("/".join(parts), policy=policy, checkpoint=ckpt, read=read)
        for parts, policy, ckpt, read in specs
    ]
    labels = _pairs(rows)
    assert len(set(labels)) == len(rows)
    assert all(method for method, _ in labels)


def test_every_reason_and_label_is_a_numbered_note_once() -> None:
    errored = ("s/fail-fast: 1 errored rollout(s) (1 infrastructure, pending a re-run). "
               "The reporting rules score only reads whose rollouts all completed.")
    rows = [
        _row("s/ok", policy="p", checkpoint="c1", mean=0.5, se=0.05, successes=24, selected=48),
        _row("s/fail-fast", policy="p", checkpoint="c2", refusals=(errored,), successes=17,
             selected=80),
        _row("h.json", arm="a", policy="a", labels=("schema 1", "min–max 1–2 %"),
             refusals=("1 audit error(s) (EV809): see `evalview check h.json`",)),
        _row("h.json", arm="b", policy="b", labels=("schema 1", "Δ vs a +9.4 pt"),
             refusals=("1 audit error(s) (EV809): see `evalview check h.json`",)),
        ReadRow("s/gone", "unreadable", "s/gone: cannot be read (Permission denied)."),
    ]
    marks, texts = number_notes(rows)
    assert marks[0] == []
    for row, numbers in zip(rows, marks, strict=True):
        assert sorted(texts[n - 1] for n in numbers) == sorted(note_parts(row))
    assert texts.count("schema 1") == 1 and len(texts) == len(set(texts))
    assert "refused: 1 errored rollout(s) (1 infrastructure, pending a re-run)" in texts
    assert any(t.startswith("unreadable: ") for t in texts)
    body = paper_table(rows, per_task=False)
    notes = body.split(r"\end{tabularx}", 1)[1].replace(r"\allowbreak{}", "")
    for n in range(1, len(texts) + 1):
        assert notes.count(rf"\textsuperscript{{{n}}}") == 1
    assert r"\texttt{evalview check h.json}" in notes  # a command, not backquotes
    assert r"$\Delta$ vs a" in notes  # not [U+0394]
    rows_part = body.split(r"\midrule", 1)[1].split(r"\bottomrule", 1)[0]
    assert r"p\textsuperscript{1} & c2" in rows_part
    assert "errored" not in rows_part  # the long text is below the table, not in a cell


def test_numbers_are_aligned_on_the_decimal_point() -> None:
    rows = [
        _row("r/1", policy="p", checkpoint="c1", mean=0.688, se=0.044,
             bootstrap=(0.604, 0.771), successes=33, selected=48),
        _row("r/2", policy="p", checkpoint="c2", mean=1.0, se=0.0, bootstrap=(1.0, 1.0),
             successes=1480, selected=2000),
        _row("r/3", policy="p", checkpoint="c3", refusals=("no.",), successes=3, selected=8),
    ]
    body = paper_table(rows, per_task=False)
    spec = re.search(r"\\begin\{tabularx\}\{\\linewidth\}\{(.*)\}\n", body)
    assert spec is not None
    assert spec.group(1).count("D{.}{.}{3.1}") == 4  # mean, SE, bootstrap low and high
    assert "D{/}{/}{4.4}" in spec.group(1)  # successes / selected, aligned on the slash
    lines = body.split(r"\midrule", 1)[1].split(r"\bottomrule", 1)[0].strip().splitlines()
    cells = [line.removesuffix(r" \\").split(" & ")[2:] for line in lines]
    assert cells[0] == ["68.8", r"\pm 4.4", "60.4", "77.1", "33/48"]
    assert cells[1] == ["100.0", r"\pm 0.0", "100.0", "100.0", "1480/2000"]
    assert cells[2] == [r"\multicolumn{2}{c}{---}", r"\multicolumn{2}{c}{---}", "3/8"]
    # a column that no row fills is left out (replicates without --bootstrap, harness arms)
    plain = [replace(r, bootstrap=None, se=None) for r in rows]
    spec2 = re.search(r"\\begin\{tabularx\}\{\\linewidth\}\{(.*)\}\n", paper_table(plain,
                                                                                  per_task=False))
    assert spec2 is not None and spec2.group(1).count("D{.}{.}") == 1


def test_per_task_blocks_fit_and_drop_tasks_no_read_of_the_block_has() -> None:
    def cell(task: str, k: int, n: int) -> TaskCell:
        return TaskCell(task, k, n, k / n, (max(0.0, k / n - 0.2), min(1.0, k / n + 0.1)))

    rows = [
        _row(f"r/{i}", policy=f"p{i}", checkpoint="c", mean=0.5, se=0.1, successes=1,
             selected=2, tasks=(cell(f"task-{i // 4}", 1, 2),))
        for i in range(8)
    ]
    body = paper_table(rows, per_task=True)
    blocks = body.split(r"\begin{table}")[2:]
    assert len(blocks) >= 2  # eight reads do not fit one block of 345 pt
    assert LINEWIDTH_PT["onecolumn"] == 345.0
    for block in blocks:
        reads = re.findall(r"\\parbox\[b\]\{[0-9.]+pt\}\{\\centering (p\d)", block)
        tasks = set(re.findall(r"\n(task-\d) &", block))
        assert tasks == {f"task-{int(r[1:]) // 4}" for r in reads}


def test_lm_eval_values_per_task_are_the_markdown_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27: the LaTeX carries the column per task the markdown table has (transposed: a
    task per line, a block per read), the same value ± stderr for every read and task as the
    JSON's task_values (and the markdown)."""
    import json

    where = _lm_eval_many(tmp_path)
    body = _latex(tmp_path, capsys, str(where))
    out = {}
    for fmt in ("json", "md"):
        path = tmp_path / f"table.{fmt}"
        code = main(["table", str(where), "--format", fmt, "--bootstrap", "0", "-j", "1",
                     "--output", str(path)])
        capsys.readouterr()
        assert code in (0, 1)
        out[fmt] = path.read_text(encoding="utf-8")
    rows = [r for r in json.loads(out["json"])["rows"] if r.get("task_values")]
    tasks = list(dict.fromkeys(t for r in rows for t in r["task_values"]))
    assert len(rows) >= 8 and len(tasks) >= 8

    def cell(r: dict[str, object], task: str) -> str:
        v = r["task_values"].get(task)  # type: ignore[attr-defined]
        if v is None:
            return "—"
        se = "" if v["stderr"] is None else f" ± {v['stderr']:.4f}"
        return f"{v['value']:.4f}{se}"

    want = {t: [cell(r, t) for r in rows] for t in tasks}
    tables = [t for t in body.split(r"\begin{table}") if "as the tool recorded it" in t]
    assert len(tables) >= 2  # eight reads and more do not fit one table
    got: dict[str, list[str]] = {}
    for table in tables:
        mine: dict[str, list[str]] = {}
        for line in table.splitlines():
            if not line.endswith(r" \\") or line.startswith("Task"):
                continue
            name, *cells = [c.strip() for c in line[:-3].split(" & ")]
            task = name.replace(r"\allowbreak{}", "").replace(r"\_", "_")
            values, i = [], 0
            while i < len(cells):
                if cells[i].startswith(r"\multicolumn{3}"):
                    values.append("—")
                    i += 1
                    continue
                v, _pm, se = cells[i : i + 3]
                values.append(v + (f" ± {se}" if se else ""))
                i += 3
            mine[task] = values
        width = max(len(v) for v in mine.values())
        for task in tasks:  # a table leaves out the tasks none of its reads has
            got.setdefault(task, []).extend(mine.get(task, ["—"] * width))
    assert got == want
    assert all(c in out["md"] for values in want.values() for c in values if c != "—")
