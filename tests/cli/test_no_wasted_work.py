"""No work thrown away (issue 25): a refused read computes no bootstrap, `table` bootstraps only
the rows that show an interval (all of them in one pass over the draws), and `compare` audits
each side once (B in the child it reads B in, beside A's read), and in one process the second
side not at all when the first already refuses.

Behaviour, not timing: the expensive calls are counted (or made to fail) through monkeypatch.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import evalview.audit
import evalview.folder.forked as forked
import evalview.stats.bootstrap as bootstrap_module
from evalview.cli import main
from evalview.stats.bootstrap import bootstrap_interval, bootstrap_intervals
from helpers.paths import SAMPLE_RUNS


def _no_bootstrap(*_args: Any, **_kwargs: Any) -> Any:
    raise AssertionError("a bootstrap was computed for a read that reports none")


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("fmt", ["--json", None])
def test_score_of_a_refused_read_computes_no_bootstrap(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fmt: str | None
) -> None:
    monkeypatch.setattr(bootstrap_module, "bootstrap_distribution", _no_bootstrap)
    argv = ["score", str(SAMPLE_RUNS / "fail-fast"), *([fmt] if fmt else [])]
    assert main(argv) == 1  # refused: an errored rollout
    out = capsys.readouterr().out
    if fmt:
        assert json.loads(out)["refused"] is True


def test_score_of_a_scored_read_has_the_interval_of_score_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evalview.session import open_run

    path = SAMPLE_RUNS / "fail-fast"
    _, doc = _json(capsys, "score", str(path), "--json", "--allow-errors", "--bootstrap", "500")
    session = open_run(path)
    from evalview.stats import score_run

    card = score_run(session.run, findings=session.findings, bootstrap=500, allow_errors=True)
    assert doc["aggregate"]["bootstrap"] == list(card.aggregate.bootstrap or ())
    assert doc["aggregate"]["bootstrap_resamples"] == 500


def test_table_bootstraps_only_the_rows_it_shows_in_one_pass(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "reads"
    for name in ("replicates", "fail-fast"):
        shutil.copytree(SAMPLE_RUNS / name, folder / name)
    calls: list[int] = []
    real = bootstrap_module.bootstrap_intervals

    def counted(reads: Any, resamples: int = 10_000, seed: int = 7) -> Any:
        calls.append(len(reads))
        return real(reads, resamples, seed)

    monkeypatch.setattr(bootstrap_module, "bootstrap_intervals", counted)
    monkeypatch.setattr(bootstrap_module, "bootstrap_interval", _no_bootstrap)
    code, doc = _json(capsys, "table", str(folder), "--format", "json", "--bootstrap", "300",
                      "-j", "1")
    assert code == 1
    rows = doc["rows"]
    shown = [r for r in rows if r["refused"] is None]
    refused = [r for r in rows if r["refused"] is not None]
    assert shown and refused
    assert all(r["bootstrap"] is None for r in refused)
    assert calls == [len(shown)]  # one call, for the rows that show an interval only
    for row in shown:  # the numbers `score` prints
        main(["score", row["path"], "--json", "--bootstrap", "300"])
        score = json.loads(capsys.readouterr().out)
        assert row["bootstrap"] == score["aggregate"]["bootstrap"]


@pytest.mark.parametrize(
    "shape",
    [[50] * 24, [3, 7, 20, 1], [1], [2] * 130, [10] * 200],
)
def test_bootstrap_intervals_are_each_reads_bootstrap_interval_bit_for_bit(
    shape: list[int],
) -> None:
    rng = np.random.default_rng(len(shape))
    reads = [
        [(rng.random(n) < p).astype(np.int8) for n in shape] for p in (0.1, 0.5, 0.93, 0.5)
    ]
    reads.append([np.ones(n, dtype=np.int8) for n in shape])
    reads.append([(rng.random(n) < 0.5).astype(np.int8) for n in (4, 4)])  # another shape
    expected = [bootstrap_interval(r, 700) for r in reads]
    assert bootstrap_intervals(reads, 700) == expected


def _count_audits(monkeypatch: pytest.MonkeyPatch, log: Path) -> Callable[[], list[str]]:
    """Every audit, in this process or in the child `compare` reads B in (one line each, with
    the process id); returns a function reading them back as (where, path)."""
    real = evalview.audit.audit
    here = os.getpid()

    def counted(run: Any) -> Any:
        with log.open("a") as fh:
            fh.write(f"{'here' if os.getpid() == here else 'child'} {run.path}\n")
        return real(run)

    monkeypatch.setattr(evalview.audit, "audit", counted)
    return lambda: log.read_text().splitlines() if log.exists() else []


def _in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "fork_call", lambda fn: None)


@pytest.mark.parametrize("forked", [True, False])
def test_compare_audits_each_side_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    forked: bool,
) -> None:
    seen = _count_audits(monkeypatch, tmp_path / "audits")
    if not forked:
        _in_one_process(monkeypatch)
    a, b = (str(SAMPLE_RUNS / "replicates" / name / "ft-seed-1") for name in _two_replicates())
    code = main(["compare", a, b, "--json"])
    capsys.readouterr()
    assert code == 0
    where = "child" if forked else "here"
    assert sorted(seen()) == sorted([f"here {a}", f"{where} {b}"])


@pytest.mark.parametrize("forked", [True, False])
def test_compare_refused_by_side_a_never_audits_side_b_here(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    forked: bool,
) -> None:
    """In one process B is never audited; with a child, B's audit ran there, beside A's read
    (no wall time), and is not repeated here."""
    seen = _count_audits(monkeypatch, tmp_path / "audits")
    if not forked:
        _in_one_process(monkeypatch)
    a = SAMPLE_RUNS / "fail-fast"  # an errored rollout: refused without --allow-errors
    b = tmp_path / "copy"
    shutil.copytree(a, b)
    code, doc = _json(capsys, "compare", str(a), str(b), "--json")
    assert code == 1 and doc["refused"] is True
    assert sorted(seen()) == sorted([f"here {a}"] + ([f"child {b}"] if forked else []))


def _two_replicates() -> list[str]:
    names = sorted(p.name for p in (SAMPLE_RUNS / "replicates").iterdir() if p.is_dir())
    return names[:2]
