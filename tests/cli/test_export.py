"""`evalview export`: exit codes 0/1/2, messages that name the file and what to do."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evalview.cli import main
from helpers.paths import EXAMPLE


def _flat(text: str) -> str:
    """Rich wraps at the console width; compare words, not line breaks."""
    return " ".join(text.split())


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return Path(shutil.copytree(EXAMPLE, tmp_path / "run"))


def test_exports_and_reports_caveats(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["export", str(run), "--output-dir", str(tmp_path / "out"), "--metric", "score",
                 "--bootstrap", "0"])
    out = _flat(capsys.readouterr().out)
    assert code == 0
    assert "4/12 successes / selected (33.3 %)" in out
    assert "1 infrastructure error(s) pending" in out
    assert "--metric score: 4 of 12 episode(s)" in out
    doc = json.loads((tmp_path / "out" / "result.json").read_text())
    assert doc["rates"]["selected_success_rate"] == pytest.approx(1 / 3)
    assert (tmp_path / "out" / "index.html").stat().st_size > 0


def test_existing_destination_is_refused(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    assert main(["export", str(run), "--output-dir", str(tmp_path / "out")]) == 1
    err = _flat(capsys.readouterr().err)
    assert "already exists" in err and "Choose a new --output-dir" in err
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["keep.txt"]


def test_destination_inside_the_run_is_refused(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(run), "--output-dir", str(run / "episodes" / "x")]) == 1
    assert "inside the run" in _flat(capsys.readouterr().err)
    assert not (run / "episodes" / "x").exists()


def test_inconsistent_record_is_refused_with_its_findings(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (run / "episodes.jsonl").read_text().splitlines()
    rec = json.loads(lines[1])
    rec["success"] = True  # disagrees with metrics.success and with its result.json
    lines[1] = json.dumps(rec)
    (run / "episodes.jsonl").write_text("\n".join(lines) + "\n")
    assert main(["export", str(run), "--output-dir", str(tmp_path / "out")]) == 1
    err = _flat(capsys.readouterr().err)
    assert "refused" in err and "evalview check" in err
    assert "episodes.jsonl:2" in err  # the finding names the line
    assert not (tmp_path / "out").exists()


def test_unreadable_input_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(tmp_path / "nope"), "--output-dir", str(tmp_path / "out")]) == 2
    assert "no such file or directory" in _flat(capsys.readouterr().err)
    assert not (tmp_path / "out").exists()


def test_unwritable_parent_is_a_refusal(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("not a directory")
    assert main(["export", str(run), "--output-dir", str(tmp_path / "file" / "out")]) == 1
    assert "is not a directory" in _flat(capsys.readouterr().err)


def test_help_documents_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["export", "--help"])
    assert info.value.code == 0
    out = _flat(capsys.readouterr().out)
    assert "--output-dir" in out and "--metric" in out and "exit codes" in out


@pytest.mark.parametrize("value", ["-1", "ten"])
def test_bad_bootstrap_is_a_usage_error_like_score(
    value: str, run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["export", str(run), "--output-dir", str(tmp_path / "out"), "--bootstrap", value])
    assert exc.value.code == 2
    assert "argument --bootstrap: " in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
