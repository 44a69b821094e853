"""`check`, `score` and `compare` on benchmark-harness results, as a script uses them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from evalview.harness.audit import SINGLE_SEED_LABEL
from helpers.paths import SAMPLE_RUNS

SAMPLES = SAMPLE_RUNS / "harness"
SHIPPED = SAMPLES / "cpu-toy-calc-equal-update-v2.json"
SINGLE = SAMPLES / "gpu-calc-hard-single-seed.json"
THREE = SAMPLES / "gpu-calc-hard-equal-update-3seeds.json"
UNDECLARED = SAMPLES / "gpu-calc-hard-undeclared-difference.json"
V1 = SAMPLES / "cpu-toy-calc-equal-update-v1.json"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code, out, _err = _run(capsys, *argv)
    return code, json.loads(out)


@pytest.mark.parametrize(
    ("path", "code", "errors"),
    [(SHIPPED, 0, set()), (SINGLE, 0, set()), (THREE, 0, set()),
     (UNDECLARED, 1, {"EV802", "EV803"}), (V1, 1, {"EV809"})],
)
def test_check_exit_codes_and_json(
    capsys: pytest.CaptureFixture[str], path: Path, code: int, errors: set[str]
) -> None:
    got, doc = _json(capsys, "check", str(path), "--json")
    assert got == code and doc["ok"] is (code == 0)
    assert {f["code"] for f in doc["findings"] if f["severity"] == "error"} == errors
    assert all(f["file"] == path.name for f in doc["findings"])


def test_check_strict_fails_on_the_single_seed_warning(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(capsys, "check", str(SINGLE), "--strict")[0] == 1


def test_check_text_names_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "check", str(UNDECLARED))
    assert code == 1
    assert "EV802 undeclared-difference" in out and "EV803 unequal-budget" in out
    assert "train.rollouts_per_cycle" in out


def test_broken_harness_json_is_unreadable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "r.json"
    path.write_text('{"miniverl_version": "0.2", "schema_version": 2, "arms": [')
    code, doc = _json(capsys, "check", str(path), "--json")
    assert code == 2 and "benchmark-harness" in doc["error"]


def test_score_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _json(capsys, "score", str(THREE), "--json")
    assert code == 0 and doc["reference"] == "cold-start-only" and doc["single_seed"] is False
    names = [a["name"] for a in doc["arms"]]
    assert names[0] == "cold-start-only" and len(names) == 5
    for arm in doc["arms"]:
        assert arm["seeds"] == 3 and len(arm["reads"]) == 3
        for r in arm["reads"]:
            lo, hi = r["wilson95"]
            assert 0 <= lo <= r["rate"] <= hi <= 1 and r["solved"] / r["rollouts"] == r["rate"]
        if arm["name"] != "cold-start-only":
            assert arm["replicate_contrast"]["label"] == "paired, n_seeds=3"
            assert arm["replicate_contrast"]["claim"] is True


def test_score_refuses_audit_errors_unless_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _json(capsys, "score", str(UNDECLARED), "--json")
    assert code == 1 and doc["refused"] and doc["arms"] is None
    assert any(r.startswith("EV802") for r in doc["refusals"])
    code, doc = _json(capsys, "score", str(UNDECLARED), "--json", "--allow-errors")
    assert code == 0 and not doc["refused"]
    assert any("not a publishable result" in label for label in doc["labels"])


def test_score_refuses_episode_only_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(capsys, "score", str(SHIPPED), "--view", "usable_12")
    assert code == 1 and "--view" in err


def test_single_seed_label_beside_every_number(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "score", str(SINGLE))
    assert code == 0
    numeric = [line for line in out.splitlines() if re.search(r"\d", line)
               and line.strip().startswith(("cold-start", "sft", "opd"))]
    assert len(numeric) >= 5 * 5 + 4  # arm table, reads, three measured groups, contrasts
    assert all(SINGLE_SEED_LABEL in line for line in numeric), [
        line for line in numeric if SINGLE_SEED_LABEL not in line][:3]
    contrast_lines = [line for line in out.splitlines() if "n_seeds=" in line]
    assert len(contrast_lines) == 4 and all("no claim" in line for line in contrast_lines)


def test_score_text_shows_the_table_and_the_caveat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "score", str(SHIPPED))
    assert code == 0
    assert "Δ vs cold-start-only" in out and "never over zero" in out
    assert "measured, not matched" in out and "not equal compute" in out
    assert SINGLE_SEED_LABEL not in out
    assert "descriptive, n_seeds=2" in out


def test_compare_refuses_unmatched_machines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = _run(capsys, "compare", str(THREE), str(SHIPPED), "--json")
    doc = json.loads(out)
    assert code == 1 and doc["refused"]
    assert "hardware" in doc["error"] and "--allow-mismatch" in doc["error"]


def test_compare_allow_mismatch_labels_everything(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _json(capsys, "compare", str(THREE), str(SINGLE), "--json", "--allow-mismatch")
    assert code == 0 and doc["matched"] is False
    assert set(doc["mismatched_fields"]) == {"hardware", "git_commit"}
    assert any(label.startswith("NOT MATCHED") for label in doc["labels"])
    assert SINGLE_SEED_LABEL in doc["labels"]
    assert [f["code"] for f in doc["findings"]] == ["EV812"]
    assert all(not a["claim"] for a in doc["arms"])


def test_compare_matched_pairs_by_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _json(capsys, "compare", str(THREE), str(THREE), "--json")
    assert code == 0 and doc["matched"] is True
    arm = next(a for a in doc["arms"] if a["name"] == "opd-raw-teacher")
    assert arm["shared_seeds"] == [1234, 20260727, 31337] and arm["label"] == "paired, n_seeds=3"
    assert arm["difference"] == 0


def test_compare_refuses_a_result_with_audit_errors_as_for_episode_reads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Labelled before ("B has audit errors"), while two episode reads were refused."""
    code, doc = _json(capsys, "compare", str(THREE), str(UNDECLARED), "--json")
    assert code == 1 and doc["refused"] is True
    assert "the audit finds 2 error(s) (first: EV802" in doc["error"]


def test_compare_harness_with_episode_read_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    closed = SAMPLE_RUNS / "fail-fast"
    code, _out, err = _run(capsys, "compare", str(THREE), str(closed))
    assert code == 1 and "benchmark-harness result" in err


def test_closed_run_commands_never_load_the_harness_models() -> None:
    """Reading a closed run must not pay for the harness's pydantic models; a harness file's
    check must not import Textual."""
    import subprocess
    import sys

    closed = SAMPLE_RUNS / "fail-fast"
    script = (
        "import sys\n"
        "from evalview.cli import main\n"
        "main(['check', sys.argv[1], '--json'])\n"
        "assert 'evalview.model.harness' not in sys.modules, 'closed run loaded harness models'\n"
        "main(['check', sys.argv[2], '--json'])\n"
        "assert 'evalview.model.harness_plain' in sys.modules\n"
        # a valid file is read by the plain-Python check: pydantic only words a refused one
        "assert 'evalview.model.harness' not in sys.modules\n"
        "assert 'textual' not in sys.modules, 'check imported textual'\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, str(closed), str(SHIPPED)],
                          capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr.decode()


def test_hostile_arm_names_print_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = json.loads(SHIPPED.read_text())
    for a in doc["arms"]:
        if a["name"] == "opd-exact":
            a["name"] = "[bold red]opd\x1b[31m-exact[/]"
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(doc))
    code, out, _ = _run(capsys, "score", str(path))
    assert code == 0
    assert "\x1b" not in out and "[bold red]opd" in out


def test_invalid_harness_file_is_checked_and_refused_by_score(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = json.loads(SHIPPED.read_text())
    doc["arms"][2]["reviewer"] = "x"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc, indent=2))
    code, out, _ = _run(capsys, "check", str(path))
    assert code == 1 and "EV801 harness-schema" in out and "arms[2].reviewer" in out
    code, _out, err = _run(capsys, "score", str(path), "--allow-errors")
    assert code == 1 and "not a valid BenchmarkResult" in err
