"""Real Inspect AI logs (tests/fixtures/inspect_ai, from Inspect's own test suite): evalview's
numbers against an independent computation and against what each log records.

The independent side reads the files with the standard library only (zipfile, json with NaN as
Python reads it) and computes the metrics with `statistics` and scipy, never with evalview's
reader or its value_to_float."""

from __future__ import annotations

import json
import math
import statistics
import zipfile
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from helpers.inspect_logs import run_cli
from helpers.paths import REPO

FIXTURES = REPO / "tests" / "fixtures" / "inspect_ai"
#: The letter values of Inspect's scorers as the docs define them (C 1, I 0).
LETTER = {"C": 1.0, "I": 0.0}


def _load(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, samples) read with the standard library."""
    if path.suffix == ".eval":
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            header = json.loads(z.read("header.json"))
            samples = [json.loads(z.read(n)) for n in names if n.startswith("samples/")]
        return header, samples
    doc = json.loads(path.read_text(encoding="utf-8"))
    return doc, doc.get("samples") or []


def _independent(path: Path) -> dict[str, Any]:
    header, samples = _load(path)
    scorer = header["results"]["scores"][0]["name"]
    outcomes = [s["scores"][scorer]["value"] for s in samples if s.get("scores")]
    floats = [LETTER[v] if isinstance(v, str) else float(v) for v in outcomes]
    by_sample: dict[str, list[float]] = {}
    for s, x in zip([s for s in samples if s.get("scores")], floats, strict=True):
        by_sample.setdefault(str(s["id"]), []).append(x)
    reduced = [statistics.mean(v) for v in by_sample.values()]
    return {
        "selected": len(header["eval"]["dataset"]["sample_ids"]) * max(
            s["epoch"] for s in samples),
        "successes": sum(1 for x in floats if x == 1.0),
        "accuracy": statistics.mean(reduced),
        "stderr": float(stats.sem(reduced)) if len(reduced) > 1 else 0.0,
        "recorded": {k: m["value"] for k, m in header["results"]["scores"][0]["metrics"].items()},
    }


SCORED = [
    "2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval",
    "log_streaming.eval",
    "log_read_sample.eval",
    "log_read_sample.json",
    "log_message_deduplication.eval",
    "mmlu-summary-choices.eval",
    "2025-05-12T20-28-13-04-00_popularity.json",
]


@pytest.mark.parametrize("name", SCORED)
def test_numbers_match_an_independent_computation(name: str) -> None:
    path = FIXTURES / name
    want = _independent(path)
    done = run_cli(["score", path, "--json", "--bootstrap", "0", "--allow-errors"])
    assert done.code == 0, done.text
    card = done.json
    assert card["denominators"]["selected"] == want["selected"]
    assert card["denominators"]["successes"] == want["successes"]
    assert card["rates"]["selected_success_rate"] == pytest.approx(
        want["successes"] / want["selected"])
    native = card["source"]["native"]
    # the log's own accuracy and stderr: recorded, recomputed by evalview, and independently
    assert native["metrics"]["accuracy"]["recorded"] == pytest.approx(want["accuracy"])
    assert native["metrics"]["accuracy"]["recomputed"] == pytest.approx(want["accuracy"])
    assert native["metrics"]["stderr"]["recomputed"] == pytest.approx(want["stderr"])
    assert native["metrics"]["stderr"]["recorded"] == pytest.approx(want["stderr"])


def test_the_ten_sample_log_in_numbers() -> None:
    """Inspect's scorer test log: 8 of 10 correct, accuracy 0.8, stderr sqrt(0.16 * 10/9)/sqrt(10)
    = 0.1333 (the sample SD of eight 1s and two 0s, over sqrt(10))."""
    path = FIXTURES / "2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval"
    card = run_cli(["score", path, "--json", "--bootstrap", "0"]).json
    assert card["denominators"]["successes"] == 8 and card["denominators"]["selected"] == 10
    assert card["aggregate"]["mean"] == pytest.approx(0.8)
    assert card["source"]["native"]["metrics"]["stderr"]["recorded"] == pytest.approx(
        math.sqrt(0.8 * 0.2 * 10 / 9) / math.sqrt(10))
    assert card["tasks"][0]["wilson95"] == pytest.approx(
        [float(x) for x in stats.binomtest(8, 10).proportion_ci(method="wilson")], abs=1e-6)


def test_epochs_log_pairs_and_reductions() -> None:
    """log_streaming.eval: 2 samples x 2 epochs (C C, I C): Inspect's mean reducer gives 1.0 and
    0.5, accuracy 0.75, and reductions.json says so (no EV012)."""
    check = run_cli(["check", FIXTURES / "log_streaming.eval", "--json"]).json
    codes = {f["code"] for f in check["findings"]}
    assert codes == {"EV005", "EV006", "EV016"}
    assert check["ok"] is True


EXPECTED_CODES = {
    "2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval": {"EV005", "EV016"},
    "log_read_sample.eval": {"EV005", "EV016"},
    "log_read_sample.json": {"EV005", "EV016"},
    "log_message_deduplication.eval": {"EV016"},
    "mmlu-summary-choices.eval": {"EV005", "EV016"},
    "2025-05-12T20-28-13-04-00_popularity.json": {"EV002", "EV005", "EV016"},
    "2025-05-12T20-28-13-04-00_no-samples.json": {"EV002", "EV005", "EV019"},
    "log_with_nan.json": {"EV005", "EV019"},
}


@pytest.mark.parametrize("name", sorted(EXPECTED_CODES))
def test_what_the_audit_says(name: str) -> None:
    check = run_cli(["check", FIXTURES / name, "--json"])
    assert check.code == (1 if "EV019" in EXPECTED_CODES[name] else 0), check.text
    assert {f["code"] for f in check.json["findings"]} == EXPECTED_CODES[name]


def test_both_formats_of_one_log_read_alike() -> None:
    a = run_cli(["score", FIXTURES / "log_read_sample.eval", "--json", "--bootstrap", "0"]).json
    b = run_cli(["score", FIXTURES / "log_read_sample.json", "--json", "--bootstrap", "0"]).json
    for key in ("denominators", "rates", "tasks"):
        assert a[key] == b[key]


def test_a_version_the_reader_does_not_know_is_refused(tmp_path: Path) -> None:
    doc = (FIXTURES / "log_with_nan.json").read_text(encoding="utf-8").replace(
        '"version": 1', '"version": 4', 1)
    path = tmp_path / "log.json"
    path.write_text(doc, encoding="utf-8")
    done = run_cli(["check", path])
    assert done.code == 2
    assert "version 4 of Inspect's log format" in done.text and "log.json" in done.text


def test_fixtures_are_the_readme_s() -> None:
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    import hashlib

    for path in FIXTURES.iterdir():
        if path.name == "README.md":
            continue
        sha = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        assert f"| `{path.name}` | `{sha}` |" in readme, path.name
