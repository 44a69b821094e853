"""The export's closing summary: one builder for `evalview export` and the app's dialog."""

from __future__ import annotations

import shutil
from pathlib import Path

from evalview.report.export import export_run
from evalview.report.export_summary import export_summary
from helpers.paths import EXAMPLE


def test_summary_counts_and_warns_from_the_exported_result(tmp_path: Path) -> None:
    run = Path(shutil.copytree(EXAMPLE, tmp_path / "run"))
    done = export_run(run, tmp_path / "out", metrics=("score",), bootstrap=0)
    summary = export_summary(done)
    assert summary.destination == tmp_path / "out"
    assert summary.headline == "4/12 successes / selected (33.3 %)"
    assert {p.name for p in summary.files} == {"result.json", "index.html"}
    assert summary.warnings[0] == (
        "1 infrastructure error(s) pending a re-run are shown as a warning on the page."
    )
    assert any(w.startswith("--metric score: 4 of 12 episode(s)") for w in summary.warnings)


def test_no_metric_asked_no_metric_warning(tmp_path: Path) -> None:
    run = Path(shutil.copytree(EXAMPLE, tmp_path / "run"))
    summary = export_summary(export_run(run, tmp_path / "out", bootstrap=0))
    assert not any(w.startswith("--metric") for w in summary.warnings)
