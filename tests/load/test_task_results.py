"""RecoveryBench task-level results, read from the published files (tests/fixtures/
miniverl-recoverybench/README.md): the numbers are checked against the published report's tables
(docs/recoverybench/recoverybench-v1.md) and paired analysis (recoverybench-v1-analysis.json),
not against our own generator. Also: bad lines are findings, the analysis beside the file is
verified (EV115 hash mismatch, EV116 absent, EV117 recorded numbers), detection is bounded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from evalview.load import task_results as T
from evalview.load.registry import NotARead, read_input, select_run
from evalview.model.address import Address
from evalview.session import compare_sessions, open_reads, open_run
from helpers.paths import REPO

FIXTURES = REPO / "tests" / "fixtures" / "miniverl-recoverybench"
TASKS = FIXTURES / "recoverybench-v1-task-results.jsonl"
ANALYSIS = FIXTURES / "recoverybench-v1-analysis.json"
EQUAL_UPDATES = FIXTURES / "recoverybench-v1-equal-updates.json"
VIEW = "equal_optimizer_updates"
SEEDS = (1234, 20_260_727, 20_260_801)

#: The report's equal-update table (recoverybench-v1.md, "strict success, mean (seed range)" and
#: "recovery after error, mean"), in percent as printed there.
REPORT = {
    "cold-start-only": (10.7, 5.5, 21.1, 13.6),
    "continued-sft": (4.9, 0.0, 9.4, 1.8),
    "offline-kd-oracle": (33.1, 0.0, 54.7, 31.9),
    "offline-kd-frozen-student": (23.2, 9.4, 36.7, 22.8),
    "strict-opd-fresh": (10.9, 0.0, 26.6, 9.1),
    "strict-opd-fresh-budget50": (27.3, 10.9, 49.2, 20.7),
}


def _rate(run: Any) -> float:
    t = run.scheduled()
    return float(t.success.sum()) / len(t)


def _pct(x: float) -> float:
    return round(100 * x, 1)


@pytest.fixture(scope="module")
def reading() -> Any:
    return read_input(TASKS)


def test_the_published_file_is_one_read_per_arm_with_its_seeds_and_recovery(reading: Any) -> None:
    assert reading.format == T.FORMAT
    arms = [n for n in reading.names if n.count("/") == 1]
    assert len(arms) == 12 and arms[0] == "equal_gpu_wall_time/continued-sft"
    assert f"{VIEW}/strict-opd-fresh" in arms
    run = select_run(reading, f"{VIEW}/strict-opd-fresh")
    assert len(run.schedule) == 384 and run.schedule[0] == "seed1234/sql-recovery-test-2000000"
    assert len(run.tasks) == 128 and set(run.scheduled().seed.tolist()) == set(SEEDS)
    for seed in SEEDS:
        assert len(select_run(reading, f"{VIEW}/strict-opd-fresh/seed{seed}").schedule) == 128
    assert not any(f for nr in reading.runs for f in nr.run.reading_findings)


@pytest.mark.parametrize("arm", sorted(REPORT))
def test_the_reports_equal_update_table(reading: Any, arm: str) -> None:
    mean, low, high, recovery = REPORT[arm]
    per_seed = [_rate(select_run(reading, f"{VIEW}/{arm}/seed{s}")) for s in SEEDS]
    assert _pct(sum(per_seed) / 3) == mean
    assert (_pct(min(per_seed)), _pct(max(per_seed))) == (low, high)
    # 128 tasks per seed: the pooled read is the seed mean
    assert _pct(_rate(select_run(reading, f"{VIEW}/{arm}"))) == mean
    # the report's recovery column is the mean of the per-seed rates over errored trajectories
    errored = select_run(reading, f"{VIEW}/{arm}/{T.RECOVERY}").scheduled()
    rates = []
    for s in SEEDS:
        mine = errored.seed == s
        rates.append(float(errored.success[mine].sum()) / int(mine.sum()))
    assert _pct(sum(rates) / 3) == recovery


@pytest.mark.parametrize(
    ("suffix", "key"), [("", "strict_task_success"), (f"/{T.RECOVERY}", "recovery_after_error")]
)
def test_compare_pairs_by_seed_and_task_as_the_published_analysis(suffix: str, key: str) -> None:
    recorded = json.loads(ANALYSIS.read_text())[key]
    a = open_run(Address(TASKS, f"{VIEW}/offline-kd-frozen-student{suffix}"))
    b = open_run(Address(TASKS, f"{VIEW}/strict-opd-fresh{suffix}"))
    overall = compare_sessions(a, b).overall
    assert overall.pairs == recorded["pairs"]  # 384, and 116 where both had a tool error
    assert overall.difference == pytest.approx(recorded["mean_difference"], abs=1e-12)
    ci = overall.difference_interval()
    assert ci is not None
    low, high = ci.interval
    # Newcombe's paired interval and the report's paired bootstrap agree within a point
    assert low == pytest.approx(recorded["lower_95"], abs=0.01)
    assert high == pytest.approx(recorded["upper_95"], abs=0.01)
    assert overall.mcnemar_p < 0.001


def test_detection_looks_at_the_first_line_only(tmp_path: Path) -> None:
    from evalview.load.source import Source

    first = TASKS.read_bytes().split(b"\n", 1)[0]
    ours = tmp_path / "x.jsonl"
    ours.write_bytes(first + b"\n" + b"not json at all\n")
    assert T.READER.detect(Source(ours))
    for other in (
        b'{"episode_id": "a", "task": "t", "seed": 1}\n',  # an episodes.jsonl
        first[1:],  # a broken first line
        b"\xff\xfe" + first,
        b'{"arm":"x","budget_view":"v","task_id":"t","strict_task_success":true',
        b"",
    ):
        path = tmp_path / "other.jsonl"
        path.write_bytes(other)
        assert not T.READER.detect(Source(path)), other
    assert not T.READER.detect(Source(tmp_path))


def _lines() -> list[dict[str, Any]]:
    return [json.loads(line) for line in TASKS.read_text().splitlines()[:6]]


def _write(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join(r if isinstance(r, str) else json.dumps(r, sort_keys=True) + "\n"
                            for r in rows))
    return path


def test_bad_lines_are_findings_with_file_and_line(tmp_path: Path) -> None:
    rows: list[Any] = _lines()
    rows[1]["seed"] = "1234"  # EV113 on its arm
    rows[2]["strict_task_success"] = 1  # EV113, the episode invalid for the metric
    rows[3] = dict(rows[0])  # EV114: the same (view, arm, seed, task) again
    rows.insert(4, "{broken\n")  # EV104 on every read
    path = _write(tmp_path / "r-task-results.jsonl", rows)
    reading = read_input(path)
    run = select_run(reading, "equal_gpu_wall_time/continued-sft")
    found = {(f.code, f.line) for f in run.reading_findings}
    assert {("EV113", 2), ("EV113", 3), ("EV114", 4), ("EV104", 5)} <= found
    assert all(f.file == path.name for f in run.reading_findings)
    table = run.scheduled()
    assert len(table) == 4 and list(table.status).count("invalid") == 1
    assert main(["check", str(path), "--read", "equal_gpu_wall_time/continued-sft"]) == 1


def test_a_file_with_no_readable_line_is_refused_naming_it(tmp_path: Path) -> None:
    first = TASKS.read_text().splitlines()[0]
    path = tmp_path / "t.jsonl"
    path.write_text(first.replace('"seed":1234', '"seed":null') + "\n")
    assert main(["check", str(path)]) == 2


def _bundle(tmp_path: Path, *, results: bool = True) -> Path:
    folder = tmp_path / "results"
    folder.mkdir()
    shutil.copyfile(TASKS, folder / TASKS.name)
    shutil.copyfile(ANALYSIS, folder / ANALYSIS.name)
    if results:
        for name in ("equal-updates", "equal-selected-tokens", "equal-wall-time"):
            f = f"recoverybench-v1-{name}.json"
            shutil.copyfile(FIXTURES / f, folder / f)
    return folder


def _codes(path: Path, read: str) -> dict[str, list[Any]]:
    (session,) = open_reads(path, name=read)
    out: dict[str, list[Any]] = {}
    for f in session.findings:
        out.setdefault(f.code, []).append(f)
    return out


def test_the_published_bundle_verifies(tmp_path: Path) -> None:
    folder = _bundle(tmp_path)
    codes = _codes(folder / TASKS.name, f"{VIEW}/strict-opd-fresh")
    assert not {"EV115", "EV116", "EV117"} & set(codes)


def test_a_changed_result_beside_the_analysis_is_an_error_naming_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _bundle(tmp_path)
    changed = folder / EQUAL_UPDATES.name
    changed.write_bytes(changed.read_bytes().replace(b'"schema_version": 3', b'"schema_version":3'))
    codes = _codes(folder / TASKS.name, f"{VIEW}/strict-opd-fresh")
    (finding,) = codes["EV115"]
    assert ANALYSIS.name in finding.message and EQUAL_UPDATES.name in finding.message
    assert finding.file == EQUAL_UPDATES.name
    # only the reads of that budget view carry it
    assert "EV115" not in _codes(folder / TASKS.name, "equal_gpu_wall_time/continued-sft")
    assert main(["check", str(folder / TASKS.name), "--read", f"{VIEW}/continued-sft"]) == 1
    capsys.readouterr()
    assert main(["check", str(folder), "--json"]) == 1
    assert "EV115" in capsys.readouterr().out


def test_results_not_beside_the_analysis_are_info(tmp_path: Path) -> None:
    folder = _bundle(tmp_path, results=False)
    codes = _codes(folder / TASKS.name, f"{VIEW}/strict-opd-fresh")
    (absent,) = codes["EV116"]
    assert absent.severity.value == "info" and EQUAL_UPDATES.name in absent.message
    assert main(["check", str(folder / TASKS.name), "--read", f"{VIEW}/strict-opd-fresh"]) == 0


def test_an_analysis_whose_numbers_the_lines_do_not_give_is_an_error(tmp_path: Path) -> None:
    folder = _bundle(tmp_path)
    doc = json.loads(ANALYSIS.read_text())
    doc["recovery_after_error"]["pairs"] = 117
    (folder / ANALYSIS.name).write_text(json.dumps(doc, indent=2, sort_keys=True))
    codes = _codes(folder / TASKS.name, f"{VIEW}/strict-opd-fresh")
    (finding,) = codes["EV117"]
    assert "117" in finding.message and "116" in finding.message
    assert "EV117" not in _codes(folder / TASKS.name, f"{VIEW}/continued-sft")


def test_the_analysis_alone_points_at_its_task_results(tmp_path: Path) -> None:
    with pytest.raises(NotARead, match=r"recoverybench-v1-task-results\.jsonl"):
        read_input(ANALYSIS)


def test_the_fixtures_are_the_published_bytes() -> None:
    """The README's hashes are the report's "Immutable artifacts" table: the files are unedited."""
    import hashlib
    import re

    table = re.findall(r"^\| `([^`]+)` \| `([0-9a-f]{64})` \|$",
                       (FIXTURES / "README.md").read_text(), flags=re.MULTILINE)
    assert len(table) == 5
    for name, sha in table:
        assert hashlib.sha256((FIXTURES / name).read_bytes()).hexdigest() == sha, name


def test_the_replicate_contrast_over_the_three_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    """`contrast` takes one read of a file of named reads as KEY=PATH [READ]; reads of one file
    are distinct replicates when their names differ (one read twice is still refused)."""

    def side(arm: str) -> list[str]:
        return [f"{s}={TASKS} [{VIEW}/{arm}/seed{s}]" for s in SEEDS]

    code = main(["contrast", "--a", *side("strict-opd-fresh"),
                 "--b", *side("offline-kd-frozen-student"), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0, doc
    # the report's per-seed strict success: fresh 26.6/0.0/6.2 %, frozen 36.7/9.4/23.4 %
    diffs = [round(r["difference_points"], 2) for r in doc["replicates"]]
    assert diffs == [-10.16, -9.38, -17.19]
    assert doc["pairs"] == 3 and round(doc["mean_points"], 2) == -12.24
    twice = [f"1={TASKS} [{VIEW}/strict-opd-fresh/seed1234]",
             f"2={TASKS} [{VIEW}/strict-opd-fresh/seed1234]"]
    assert main(["contrast", "--a", *twice, "--b", *side("continued-sft")[:2]]) == 1
    assert "the same read" in " ".join(capsys.readouterr().err.split())


def test_the_docs_page_shows_these_numbers(reading: Any) -> None:
    """docs/recoverybench.md's per-seed cells (k/n = rate (Wilson 95 %)) are what the reads give."""
    from evalview.stats.intervals import wilson_interval

    doc = (REPO / "docs" / "recoverybench.md").read_text(encoding="utf-8")
    for arm in REPORT:
        row = next(line for line in doc.splitlines() if line.startswith(f"| `{arm}` ("))
        for s in SEEDS:
            t = select_run(reading, f"{VIEW}/{arm}/seed{s}").scheduled()
            k, n = int(t.success.sum()), len(t)
            low, high = wilson_interval(k, n)
            cell = f"{k}/{n} = {100 * k / n:.1f} % ({100 * low:.1f}–{100 * high:.1f})"
            assert cell in row, (arm, s, cell)
