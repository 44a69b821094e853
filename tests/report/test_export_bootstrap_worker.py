"""`export` draws the seed bootstrap in a child process forked before the run is read, while it
builds and scrubs the document (issue 25): the files are byte for byte those of the export done
in one process, and a child that fails leaves the work to this process."""

from __future__ import annotations

from pathlib import Path

import pytest

import evalview.folder.forked as forked
import evalview.report.export as export
import evalview.stats
from evalview.report.export import export_run
from evalview.session import EXPORT_SCORING, ScoreOptions, open_run, score_session
from evalview.stats.published import published_numbers
from helpers.paths import SAMPLE_RUNS

ROBO = SAMPLE_RUNS / "robobench-24x50"


def _files(dest: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(dest.iterdir())}


def _in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "fork_waiting", lambda fn: None)


@pytest.mark.parametrize("bootstrap", [None, 400])
def test_bootstrap_drawn_in_the_child_same_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bootstrap: int | None
) -> None:
    drawn: list[int] = []
    real = evalview.stats.with_bootstrap

    def spy(card: evalview.stats.Scorecard, resamples: int = 10_000) -> object:
        drawn.append(resamples)  # the child's calls land in the child's copy of this list
        return real(card, resamples)

    monkeypatch.setattr(evalview.stats, "with_bootstrap", spy)
    export_run(ROBO, tmp_path / "forked", bootstrap=bootstrap)
    assert drawn == []  # not drawn here
    forked = _files(tmp_path / "forked")
    _in_one_process(monkeypatch)
    export_run(ROBO, tmp_path / "here", bootstrap=bootstrap)
    assert drawn == [10_000 if bootstrap is None else bootstrap]
    assert _files(tmp_path / "here") == forked


def test_a_failed_child_leaves_the_bootstrap_to_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(job: object) -> object:
        raise MemoryError("in the child")

    monkeypatch.setattr(export, "_bootstrapped", boom)  # the forked child runs this copy
    export_run(ROBO, tmp_path / "fallback", bootstrap=300)
    _in_one_process(monkeypatch)
    export_run(ROBO, tmp_path / "here", bootstrap=300)
    assert _files(tmp_path / "fallback") == _files(tmp_path / "here")


def test_no_child_without_a_bootstrap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(fn: object) -> None:
        raise AssertionError("forked for a bootstrap of 0 resamples")

    monkeypatch.setattr(forked, "fork_waiting", refuse)
    export_run(ROBO, tmp_path / "out", bootstrap=0)


def test_the_bootstrap_changes_only_numbers_of_the_aggregate() -> None:
    """What `build_result(complete=...)` relies on: the document built from the card without
    the bootstrap differs from the full one only in the aggregate's interval and resamples."""
    session = open_run(ROBO)
    bare = score_session(session, ScoreOptions(bootstrap=0, allow_errors=True,
                                               allow_off_protocol=True))
    full = score_session(session, EXPORT_SCORING)
    a, b = published_numbers(bare), published_numbers(full)
    assert {k for k in a if a[k] != b[k]} == {"aggregate"}
    changed = {k for k in a["aggregate"] if a["aggregate"][k] != b["aggregate"][k]}
    assert changed == {"bootstrap", "bootstrap_resamples"}
