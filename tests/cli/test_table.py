"""`evalview table PATH...`: the paper's table in four formats, always the numbers of
`evalview score --json`, a refused read kept as a row that says why, LaTeX that compiles."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from evalview.folder.cells import latex_escape
from evalview.folder.table import md_escape
from helpers.closed_runs import outcomes_for, write_run
from helpers.paths import SAMPLE_RUNS

B = "300"  # resamples: small for speed; the same B goes to `score`

ROW_KEYS = {"path", "run_id", "benchmark", "policy", "checkpoint", "mean", "se", "bootstrap",
            "successes", "selected", "labels", "refused"}


def _table(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["table", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _score(capsys: pytest.CaptureFixture[str], path: str, *args: str) -> dict[str, Any]:
    main(["score", path, "--json", "--per-task", "--bootstrap", B, *args])
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def _rows(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    code, out, _ = _table(capsys, *args, "--format", "json", "--bootstrap", B)
    return code, json.loads(out)["rows"]


@pytest.mark.parametrize("extra", [(), ("--allow-errors",)])
def test_rows_are_the_numbers_of_score_json(
    capsys: pytest.CaptureFixture[str], extra: tuple[str, ...]
) -> None:
    paths = [str(SAMPLE_RUNS / name) for name in ("replicates", "fail-fast", "faulty")]
    code, rows = _rows(capsys, *paths, *extra)
    assert code == (0 if extra else 1)
    assert len(rows) == 8
    for row in rows:
        assert set(row) >= ROW_KEYS
        score = _score(capsys, row["path"], *extra)
        assert row["successes"] == score["denominators"]["successes"]
        assert row["selected"] == score["denominators"]["selected"]
        assert row["labels"] == score["labels"]
        if score["refused"]:  # a refused score keeps only its counts (and the contract keys)
            assert row["mean"] is None and row["se"] is None and row["bootstrap"] is None
            assert row["refused"] == " ".join(r["message"] for r in score["refusals"])
        else:
            agg = score["aggregate"]
            assert row["run_id"] == score["run_id"] and row["policy"] == score["policy"]
            assert row["refused"] is None
            assert (row["mean"], row["se"], row["bootstrap"]) == (
                agg["mean"], agg["se"], agg["bootstrap"])


def test_a_refused_read_is_a_row_that_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _table(capsys, str(SAMPLE_RUNS / "replicates"), str(SAMPLE_RUNS / "fail-fast"),
                            "--bootstrap", "0")
    assert code == 1
    ff = [line for line in out.splitlines() if "fail-fast" in line]
    assert len(ff) == 1 and "refused: 1 errored rollout(s)" in ff[0]
    assert "1 of 7 reads has no score" in " ".join(err.split())


def test_csv_one_header_row_fractions_equal_to_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = (str(SAMPLE_RUNS / "replicates"), str(SAMPLE_RUNS / "fail-fast"))
    _code, rows = _rows(capsys, *args)
    code, out, _ = _table(capsys, *args, "--format", "csv", "--bootstrap", B)
    assert code == 1
    parsed = list(csv.DictReader(io.StringIO(out)))
    assert len(parsed) == len(rows) == 7
    assert out.count("path,run_id,") == 1
    assert "%" not in out
    for line, row in zip(parsed, rows, strict=True):
        assert line["path"] == row["path"]
        if row["mean"] is None:
            assert line["mean"] == "" and line["refused"] == row["refused"]
        else:
            assert float(line["mean"]) == row["mean"] and 0 <= float(line["mean"]) <= 1
            assert float(line["se"]) == row["se"]
            assert [float(line["bootstrap_lo"]), float(line["bootstrap_hi"])] == row["bootstrap"]
        assert int(line["successes"]) == row["successes"]


def test_per_task_matrix_is_score_per_task(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _table(capsys, str(SAMPLE_RUNS / "replicates"), "--per-task", "--format", "json",
                          "--bootstrap", "0")
    assert code == 0
    matrix = json.loads(out)["per_task"]
    assert len(matrix["reads"]) == 6 and len(matrix["tasks"]) == 6
    for j, path in enumerate(matrix["reads"]):
        tasks = {t["task"]: t for t in _score(capsys, path)["tasks"]}
        for line in matrix["tasks"]:
            cell, want = line["cells"][j], tasks[line["task"]]
            assert (cell["successes"], cell["selected"]) == (want["successes"], want["selected"])
            assert cell["wilson95"] == want["wilson95"] and cell["rate"] == want["rate"]
    replicates = str(SAMPLE_RUNS / "replicates")
    code, text, _ = _table(capsys, replicates, "--per-task", "--bootstrap", "0")
    assert "| pick-red-cube | 8/8 (67.6–100.0) |" in text


def _hostile(tmp_path: Path) -> Path:
    name = 'pol_1 & 50% $x #2 {a} ~b ^c \\d [e] <f> |g| "h" ✓ é'
    return write_run(
        tmp_path / "hostile",
        outcomes_for({"t_a": (1, 2), "t|b": (2, 2)}, 2),
        manifest={"policy": {"name": name}, "run_id": "run|1_[x]"},
    )


def test_markdown_cells_keep_their_pipes_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _table(capsys, str(_hostile(tmp_path)), "--per-task", "--bootstrap", "0")
    assert code == 0
    table_lines = [line for line in out.splitlines() if line.startswith("|")]
    for block in (table_lines[:3], table_lines[3:]):
        widths = {len(re.findall(r"(?<!\\)\|", line)) for line in block}
        assert len(widths) == 1, block  # every line has the header's column count
    assert "pol\\_1 & 50% $x #2 {a} \\~b ^c \\\\d \\[e\\] \\<f\\> \\|g\\|" in out
    assert md_escape("a|b*c") == "a\\|b\\*c"


def test_latex_escaping_of_every_special_character() -> None:
    cases = {
        "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
        "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}",
        "[": "{[}", "]": "{]}", "<": r"\textless{}", ">": r"\textgreater{}",
        "|": r"\textbar{}", "±": r"$\pm$", "—": "---", "✓": "{[}U+2713{]}", "é": "é",
        "\x1b": "", "a\nb": "a b",
    }
    for raw, want in cases.items():
        assert latex_escape(raw) == want, raw


def test_latex_compiles_with_pdflatex(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert shutil.which("pdflatex"), (
        "pdflatex is needed: apt-get install texlive-latex-base texlive-latex-recommended "
        "(.ci/run does)"
    )
    out_file = tmp_path / "table.tex"
    code, _out, _ = _table(capsys, str(_hostile(tmp_path)), str(SAMPLE_RUNS / "replicates"),
                           str(SAMPLE_RUNS / "fail-fast"), "--format", "latex", "--per-task",
                           "--bootstrap", "0", "--output", str(out_file))
    assert code == 1  # fail-fast is refused, and its row is in the table
    body = out_file.read_text(encoding="utf-8")
    assert r"\toprule" in body and r"\bottomrule" in body and "refused: 1 errored" in body
    doc = tmp_path / "paper.tex"
    doc.write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs,tabularx,dcolumn}\n"
        "\\usepackage[margin=5mm,paperwidth=60cm,paperheight=40cm]{geometry}\n"
        "\\begin{document}\n\\input{table.tex}\n\\end{document}\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    log = result.stdout
    assert result.returncode == 0, log[-2000:]
    assert (tmp_path / "paper.pdf").stat().st_size > 1000
    assert "! " not in log and "Undefined control sequence" not in log


def test_output_file_and_exit_2_for_a_missing_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "t.md"
    code, out, _ = _table(capsys, str(SAMPLE_RUNS / "replicates"), "--output", str(target),
                          "--bootstrap", "0")
    assert code == 0 and out == "" and target.read_text().startswith("| read |")
    code, _out, err = _table(capsys, str(tmp_path / "nope"))
    assert code == 2 and "no such file" in err
    code, _out, err = _table(capsys, str(SAMPLE_RUNS / "psr" / "catalog.json"))
    assert code == 2 and "catalog.json" in err
