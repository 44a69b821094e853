"""Hostile input, round three (issue 24): the LeRobot, benchmark-harness and task-results readers,
folders, the table formats and export hold like the closed-run core.

One section per class of the issue: numbers at the edge, deep nesting, hangs, raw control bytes
on the terminal, published secrets, data loss, non-UTF-8 file names, a repeated key, one hostile
file in a folder. Every case ends in a finding at its JSON place, or exit 2 with a line naming
the file; never a traceback, a hang or a partial file. A hang is caught by a subprocess timeout
(a guard, never a speed assertion); the app's side is tests/tui/test_hostile_readers_app.py.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import re
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from evalview.load.bounds import MAX_NAME
from evalview.load.safe_json import MAX_DEPTH
from evalview.textsafe import json_text
from helpers.paths import SAMPLE_RUNS

LEROBOT = SAMPLE_RUNS / "lerobot"
SINGLE_ENV = LEROBOT / "pusht-single-env.json"
MULTI = LEROBOT / "smolvla-libero-20k.json"
TWO_READS = LEROBOT / "libero10-two-reads.json"
HARNESS = SAMPLE_RUNS / "harness" / "gpu-calc-hard-equal-update-3seeds.json"
TASK_RESULTS = (
    SAMPLE_RUNS.parent / "tests" / "fixtures" / "miniverl-recoverybench"
    / "recoverybench-v1-task-results.jsonl"
)
#: Generous: every command here answers in seconds; only a hang (or a quadratic) gets near it.
HANG_GUARD_S = 60

#: What must never reach a terminal or a --json document raw: C0 (but newline and tab), DEL, C1,
#: bidirectional overrides and isolates.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True)
class Done:
    code: int
    out: bytes
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)

    @property
    def text(self) -> str:
        return " ".join((self.out.decode("utf-8") + "\n" + self.err).split())


def cli(*args: object) -> Done:
    """`evalview ARGS` in this process, stdout as bytes (what a terminal or a pipe receives)."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
        out.flush()
    assert isinstance(out.buffer, io.BytesIO)
    done = Done(code, out.buffer.getvalue(), err.getvalue())
    assert "Traceback" not in done.err, done.err
    return done


def evalview(*args: object, timeout: float = HANG_GUARD_S) -> subprocess.CompletedProcess[bytes]:
    """The installed command in a fresh process, with the hang guard."""
    env = {**os.environ, "TERM": "dumb", "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-m", "evalview", *map(str, args)],
        capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL, env=env,
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")[-3000:]
    return done


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def write(path: Path, doc: Any) -> Path:
    """As Python writes JSON (lerobot-eval and the harness): NaN as the bare token, integers of
    any size as digits."""
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def errors(doc: dict[str, Any]) -> list[dict[str, Any]]:
    found = doc.get("findings") or [f for r in doc.get("reads", []) for f in r["findings"]]
    return [f for f in found if f["severity"] == "error"]


def nested(depth: int) -> Any:
    value: Any = 0
    for i in range(depth):
        value = {"k": value} if i % 2 else [value]
    return value


def inputs(tmp_path: Path) -> Path:
    """A folder for the inputs (an export's destination must lie outside an input's folder)."""
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    return folder


def harness_with(tmp_path: Path, edit: Any, name: str = "result.json") -> Path:
    doc = load(HARNESS)
    edit(doc)
    return write(inputs(tmp_path) / name, doc)


# --- 1. numbers at the edge ---------------------------------------------------------------------


def _reward(doc: Any, value: Any) -> None:
    doc["per_task"][0]["metrics"]["sum_rewards"][0] = value


LEROBOT_EDGES = {
    # (the edit, the file, the finding's code, where it points)
    "huge int reward": (lambda d: _reward(d, 10**400), MULTI, "EV704",
                        "per_task[0].metrics.sum_rewards[0]"),
    "rewards past the largest float": (
        lambda d: d["per_task"][0]["metrics"]["sum_rewards"].__setitem__(
            slice(0, 3), [1.7e308] * 3),
        MULTI, "EV704", "overall.avg_sum_reward"),
    "seed 2^64 - 1": (lambda d: d["per_episode"][0].update(seed=2**64 - 1), SINGLE_ENV, "EV701",
                      "per_episode[0].seed"),
    "seed 2^64 in a NaN file": (
        lambda d: (d["per_episode"][0].update(seed=2**64), d["aggregated"].update(eval_s=math_nan)),
        SINGLE_ENV, "EV701", "per_episode[0].seed"),
    "pc_success 10^400": (lambda d: d["overall"].update(pc_success=10**400), MULTI, "EV701",
                          "overall.pc_success"),
    "ci95 of 10^400": (lambda d: d["overall"].update(pc_success_ci95=[10**400, 1]), MULTI,
                       "EV701", "overall.pc_success_ci95"),
}
math_nan = float("nan")


@pytest.mark.parametrize("case", list(LEROBOT_EDGES))
def test_lerobot_numbers_at_the_edge_are_findings_at_their_place(tmp_path: Path, case: str) -> None:
    edit, src, code, where = LEROBOT_EDGES[case]
    doc = load(src)
    edit(doc)
    path = write(inputs(tmp_path) / "eval_info.json", doc)
    check = cli("check", path, "--json")
    assert check.code == 1
    assert any(f["code"] == code and f["message"].startswith(where) for f in errors(check.json)), (
        errors(check.json))
    for args in (["score", path, "--json", "--bootstrap", "20", "--allow-errors"],
                 ["table", path, "--format", "json", "--bootstrap", "0", "-j", "1"],
                 ["compare", path, path, "--json", "--allow-errors"]):
        done = cli(*args)
        assert done.code in (0, 1), (args, done.err)
        assert done.json  # one JSON document, whatever happened
    export = cli("export", path, "--output-dir", tmp_path / "out", "--bootstrap", "0")
    assert export.code == 1 and not (tmp_path / "out").exists()  # refused: the audit's errors


@pytest.mark.parametrize("rate", [float("nan"), float("inf"), 1.5, -0.1])
def test_a_harness_rate_that_is_not_a_fraction_has_no_mean(tmp_path: Path, rate: float) -> None:
    """A math domain error (1.5, -0.1, inf) or `'float' object has no attribute 'numerator'`
    (NaN, in statistics.stdev) in every door that scores, before."""
    path = harness_with(tmp_path, lambda d: d["arms"][0].update(success_rate=rate))
    check = cli("check", path, "--json")
    assert "EV813" in {f["code"] for f in errors(check.json)}
    score = cli("score", path, "--json", "--allow-errors")
    assert score.code == 0, score.err
    arm = score.json["arms"][0]  # cold-start-only, the reference: every delta goes with it
    assert (arm["mean"], arm["min"], arm["max"]) == (None, None, None)
    assert all(a["delta_vs_reference"] is None and a["replicate_contrast"] is None
               for a in score.json["arms"])
    text = cli("score", path, "--allow-errors")
    assert text.code == 0 and "nan %" not in text.text and "nan pt" not in text.text
    table = cli("table", path, "--format", "json", "--allow-errors", "--bootstrap", "0", "-j", "1")
    assert table.json["rows"][0]["mean"] is None
    assert cli("table", path, "--allow-errors", "--per-task", "--bootstrap", "0").code == 0


@pytest.mark.parametrize(("field", "value"), [
    ("tasks", 10**400), ("tasks", 2**70), ("seed", 2**64), ("optimizer_steps", 2**70),
    ("cache_current_bytes", 2**70),
])
def test_harness_integers_past_64_bits_are_schema_findings(
    tmp_path: Path, field: str, value: int
) -> None:
    path = harness_with(tmp_path, lambda d: d["arms"][0].update({field: value}))
    check = cli("check", path, "--json")
    (f,) = errors(check.json)
    assert f["code"] == "EV801" and f["message"].startswith(f"arms[0].{field}")
    assert "64 bits" in f["message"]
    for args in (["score", path, "--json", "--allow-errors"],
                 ["table", path, "--format", "json", "--bootstrap", "0", "-j", "1"]):
        done = cli(*args)
        assert done.code == 1 and done.json


def test_a_ratio_of_5e_324_is_a_finding_not_an_infinite_count(tmp_path: Path) -> None:
    """`cannot convert float infinity to integer` in harness/audit.py, before."""
    path = harness_with(tmp_path, lambda d: d["arms"][0].update(
        selected_position_ratio=5e-324, selected_training_tokens_total=10**18))
    check = cli("check", path, "--json")
    (f,) = [f for f in errors(check.json) if f["code"] == "EV810"]
    assert "inf eligible positions" in f["message"]


@pytest.mark.parametrize("version", [2.0, True, "2"])
def test_schema_version_is_the_integer_1_2_or_3(tmp_path: Path, version: Any) -> None:
    """2.0 and true compared equal to 2 and 1, and the Literal took them."""
    path = harness_with(tmp_path, lambda d: d.update(schema_version=version))
    (f,) = errors(cli("check", path, "--json").json)
    assert f["code"] == "EV801" and f["message"].startswith("schema_version")


def test_task_results_seed_past_64_bits_is_a_line_finding(tmp_path: Path) -> None:
    lines = TASK_RESULTS.read_text(encoding="utf-8").splitlines()[:50]
    row = json.loads(lines[0])
    row["seed"] = 2**63
    path = tmp_path / "x-task-results.jsonl"
    path.write_text("\n".join([json.dumps(row, sort_keys=True), *lines[1:]]) + "\n")
    done = cli("check", path, "--json")
    line_one = [f for f in errors(done.json) if f["code"] == "EV113" and f["line"] == 1]
    assert line_one and "64 bits" in line_one[0]["message"]
    assert cli("score", path, "--json", "--allow-errors", "--bootstrap", "0").json


def test_closed_run_seed_past_64_bits_is_a_finding(example_run: Any) -> None:
    """The core's seed column is int64 too: 2^63 overflowed it in score (OverflowError)."""
    example_run.edit_record(0, lambda r: r["episode"].update(seed=2**63))
    check = cli("check", example_run.path, "--json")
    assert any("past 64 bits" in f["message"] and f["line"] == 1 for f in errors(check.json))
    assert cli("score", example_run.path, "--json", "--allow-errors", "--bootstrap", "0").json


def test_json_output_escapes_every_control_and_writes_wide_integers() -> None:
    data = json_text({"k": "a\x7fb\x85c\u202ed\x1be", "n": 2**70, "x": float("nan")})
    assert not RAW_CONTROL.search(data.decode("utf-8"))
    assert b"\\u007f" in data and b"\\u0085" in data and b"\\u202e" in data
    assert json.loads(data) == {"k": "a\x7fb\x85c\u202ed\x1be", "n": 2**70, "x": None}
    surrogate = json_text({"path": "bad-\udcff.json"})
    assert json.loads(surrogate) == {"path": "bad-\ufffd.json"}


# --- 2. deep nesting ------------------------------------------------------------------------------


@pytest.mark.parametrize(("depth", "nan"), [(5000, False), (300, False), (300, True)])
def test_a_deep_harness_value_is_refused_naming_the_file(
    tmp_path: Path, depth: int, nan: bool
) -> None:
    """RecursionError from the stdlib decoder (5,000 levels), or orjson's recursion limit in
    --json (300), before."""
    doc = load(HARNESS)
    if nan:
        doc["arms"][0]["success_rate"] = float("nan")
    doc["hardware"]["deep"] = nested(depth)
    path = inputs(tmp_path) / "result.json"
    with _recursion_limit(depth * 3):
        path.write_text(json.dumps(doc))
    for args in (["check", path], ["score", path, "--json"], ["table", path, "--bootstrap", "0"],
                 ["export", path, "--output-dir", tmp_path / "out"]):
        done = cli(*args)
        assert done.code == 2, (args, done.text)
        assert f"{path.name}:1" in done.text and f"deeper than {MAX_DEPTH} levels" in done.text


def test_a_deep_lerobot_file_with_nan_is_refused(tmp_path: Path) -> None:
    doc = load(TWO_READS)
    doc["eval_results_400"]["overall"]["eval_s"] = float("nan")  # the lenient (stdlib) parse
    doc["run_config"]["deep"] = nested(5000)
    path = tmp_path / "eval_info.json"
    with _recursion_limit(20_000):
        path.write_text(json.dumps(doc))
    done = cli("check", path, "--read", "eval_results_400")
    assert done.code == 2 and f"deeper than {MAX_DEPTH} levels" in done.text


def test_deep_task_results_lines_are_line_findings(tmp_path: Path) -> None:
    lines = TASK_RESULTS.read_text(encoding="utf-8").splitlines()[:20]
    row = json.loads(lines[1])
    row["zdeep"], row["x"] = nested(5000), float("nan")  # the lenient path: stdlib json
    path = tmp_path / "x-task-results.jsonl"
    with _recursion_limit(20_000):
        path.write_text("\n".join([lines[0], json.dumps(row, sort_keys=True), *lines[2:]]) + "\n")
    done = cli("check", path, "--json")
    assert any(f["code"] == "EV112" and f["line"] == 2 for f in errors(done.json))
    first = tmp_path / "y-task-results.jsonl"  # the detector's own parse of the first line
    with _recursion_limit(20_000):
        first.write_text("\n".join([json.dumps(row, sort_keys=True), *lines[1:]]) + "\n")
    assert cli("check", first, "--json").code in (1, 2)


@contextlib.contextmanager
def _recursion_limit(limit: int) -> Any:
    """json.dumps of a deep test value needs the room (the reader under test never does)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


# --- 3. hangs (the subprocess timeout is the guard; no timing is asserted) ------------------------


def test_a_lerobot_file_of_10000_tasks_is_scored_and_tabled(tmp_path: Path) -> None:
    """`_task_scores` masked the whole table once per task, and per_group's aggregates walked
    every task once per group: no answer in 20 s, before."""
    base = load(MULTI)["per_task"][0]
    metrics = {k: base["metrics"][k][:4] for k in ("successes", "sum_rewards", "max_rewards")}
    doc = {
        "per_task": [{"task_group": f"g{i}", "task_id": i, "metrics": metrics}
                     for i in range(10_000)],
        "per_group": {f"g{i}": {} for i in range(10_000)},
        "overall": {"n_episodes": 40_000},
    }
    path = write(tmp_path / "eval_info.json", doc)
    score = evalview("score", path, "--json", "--bootstrap", "0", "--allow-errors")
    assert score.returncode == 0 and len(json.loads(score.stdout)["tasks"]) == 10_000
    table = evalview("table", path, "--format", "csv", "--per-task", "--bootstrap", "0",
                     "--allow-errors")
    assert table.returncode == 0 and len(table.stdout.splitlines()) == 10_001


def test_a_name_longer_than_the_bound_is_a_finding_not_read(tmp_path: Path) -> None:
    """A 10 MB task name made an export of 500 MB of episode ids that never finished."""
    doc = load(MULTI)
    doc["per_task"][0]["task_id"] = "a" * 10_000_000
    path = write(inputs(tmp_path) / "eval_info.json", doc)
    check = evalview("check", path, "--json")
    (long,) = [f for f in errors(json.loads(check.stdout)) if "longer than" in f["message"]]
    assert long["code"] == "EV701" and f"{MAX_NAME:,}" in long["message"]
    assert len(long["message"]) < 400  # the name is cut, not repeated
    export = evalview("export", path, "--output-dir", tmp_path / "out", "--bootstrap", "0")
    assert export.returncode == 1 and not (tmp_path / "out").exists()
    arm = harness_with(tmp_path, lambda d: d["arms"][0].update(name="a" * 4_000_000), "arm.json")
    (f,) = errors(json.loads(evalview("check", arm, "--json").stdout))
    assert f["code"] == "EV801" and f["message"].startswith("arms[0].name")


def test_a_long_read_key_in_the_file_and_on_the_command_line(tmp_path: Path) -> None:
    doc = load(TWO_READS)
    doc["k" * 100_000] = doc.pop("eval_results_800")
    path = write(inputs(tmp_path) / "eval_info.json", doc)
    check = evalview("check", path, "--json")
    assert check.returncode == 1
    assert any("a read named by 100,000 characters" in f["message"]
               for f in errors(json.loads(check.stdout)))
    asked = evalview("export", path, "--read", "k" * 100_000, "--output-dir", tmp_path / "out")
    assert asked.returncode == 2 and b"no read named" in asked.stderr


def test_many_declared_seeds_are_counted_not_listed(tmp_path: Path) -> None:
    """20,000 declared seeds made every EV814 finding list them all (77 MB of output), and the
    check compared every arm's seeds with every declared one by list lookups."""
    path = harness_with(tmp_path, lambda d: d.update(seeds=list(range(20_000))))
    done = evalview("check", path, "--json")
    assert len(done.stdout) < 20_000
    ev814 = [f for f in errors(json.loads(done.stdout)) if f["code"] == "EV814"]
    assert ev814 and all("and 19,990 more" in f["message"] for f in ev814)
    doc = load(HARNESS)
    arm = doc["arms"][0]
    doc["arms"] = [arm | {"seed": s, "run_id": f"r{s}"} for s in range(3_000)]
    doc["seeds"] = list(range(3_000))
    grid = write(tmp_path / "grid.json", doc)
    assert evalview("score", grid, "--json").returncode in (0, 1)


def test_the_credential_scan_is_linear_on_long_runs_of_letters() -> None:
    """The e-mail shape was quadratic on letters (6 s on 40 KB), the API key's on `sk-sk-...`."""
    probe = (
        "from evalview.report.leaks import kinds_in\n"
        "for text in ('a' * 2_000_000, 'sk-' * 700_000, 'a.' * 1_000_000, 'a-sk-' * 400_000):\n"
        "    assert kinds_in(text) == [], text[:10]\n"
        "assert kinds_in('x sk-live-abcdefghijklmnopqrstuvwx y') == ['API key']\n"
        "assert kinds_in('mail a.b-c@example.com') == ['e-mail address', 'host name']\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=HANG_GUARD_S)
    assert done.returncode == 0, done.stderr


def _links(folder: Path, n: int) -> Path:
    folder.mkdir()
    write(folder / "good.json", load(SINGLE_ENV))
    for i in range(n):
        os.symlink("/dev/zero", folder / f"l{i:05d}.json")
    return folder


def test_a_folder_of_many_links_is_read(tmp_path: Path) -> None:
    """`discover` rebuilt its list of reads per entry (30,000 links: 115 s), and every link went
    through a worker process."""
    folder = _links(tmp_path / "links", 5_000)
    done = evalview("check", folder, "--json")
    doc = json.loads(done.stdout)
    assert done.returncode == 0 and doc["counts"]["runs"] == 1
    assert doc["counts"]["skipped"] == 5_000
    table = evalview("table", folder, "--bootstrap", "0")
    assert table.returncode == 0 and table.stdout.count(b"good.json") == 1


# --- 4. raw control bytes on the terminal --------------------------------------------------------

KEYS = {
    "osc8": "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\",
    "clear": "\x1b[2J\x1b[H",
    "rlo": "ab\u202ecd",
    "nul": "a\x00b",
    "del": "a\x7fb",
    "nel": "a\x85b",
    "csi": "a\x9b2Jb",
    "markup": "x[/bold]y",
}


def _no_raw_controls(done: Done) -> None:
    for stream in (done.out.decode("utf-8"), done.err):
        assert not RAW_CONTROL.search(stream), RAW_CONTROL.search(stream)


@pytest.mark.parametrize("name", list(KEYS))
def test_a_named_read_key_never_reaches_the_terminal_raw(tmp_path: Path, name: str) -> None:
    doc = load(TWO_READS)
    doc[KEYS[name]] = doc.pop("eval_results_800")
    path = write(tmp_path / "eval_info.json", doc)
    for args in (["check", path], ["check", path, "--json"], ["score", path, "--bootstrap", "0"],
                 ["table", path, "--format", "json", "--bootstrap", "0", "-j", "1"],
                 ["table", path, "--bootstrap", "0", "-j", "1"]):
        done = cli(*args)
        assert done.code in (0, 1), (args, done.text)
        _no_raw_controls(done)
        if "json" in args or "--json" in args:  # escaped, not lost
            assert json.dumps(KEYS[name])[1:-1] in json.dumps(done.json)
    if "\x00" not in KEYS[name]:  # an argument cannot hold NUL
        picked = cli("score", path, "--read", KEYS[name], "--json", "--bootstrap", "0")
        assert picked.code == 0 and picked.json["run_id"] == KEYS[name]
        _no_raw_controls(picked)


@pytest.mark.parametrize("name", ["osc8", "rlo", "del", "nel", "csi", "markup"])
def test_a_harness_arm_name_never_reaches_the_terminal_raw(tmp_path: Path, name: str) -> None:
    def rename(doc: Any) -> None:
        first = doc["arms"][-1]["name"]
        for arm in doc["arms"]:
            if arm["name"] == first:
                arm["name"] = KEYS[name]

    path = harness_with(tmp_path, rename)
    for args in (["check", path], ["check", path, "--json"], ["score", path],
                 ["score", path, "--json"], ["table", path, "--bootstrap", "0"],
                 ["table", path, "--format", "json", "--bootstrap", "0"],
                 ["table", path, "--format", "csv", "--bootstrap", "0"]):
        done = cli(*args)
        assert done.code in (0, 1), (args, done.text)
        _no_raw_controls(done)


def test_hostile_file_names_in_a_folder_are_shown_safely(tmp_path: Path) -> None:
    folder = tmp_path / "names"
    folder.mkdir()
    for name in ("esc-\x1b[2J.json", "rlo-\u202e.json", "del-\x7f.json", "nel-\x85.json",
                 "mk-[bold]x[-.json"):
        write(folder / name, load(SINGLE_ENV))
    for args in (["check", folder], ["check", folder, "--json"], ["table", folder, "-j", "1",
                 "--bootstrap", "0"], ["table", folder, "--format", "json", "--bootstrap", "0"]):
        done = cli(*args)
        assert done.code == 0, (args, done.text)
        _no_raw_controls(done)


# --- 5. published secrets and home paths ---------------------------------------------------------

SECRETS = ("sk-live-", "ghp_", "leaker@example.com", "secret.corp.internal")


def _secret_notes(doc: Any) -> None:
    doc["notes"] = "key sk-live-abcdefghijklmnopqrstuvwx, mail leaker@example.com"


def _secret_status(doc: Any) -> None:
    """A status that is not `measured` is quoted by the audit (EV807), whose findings are
    published."""
    for arm in doc["arms"]:
        if arm["measurement_status"].get("cache") == "not_applicable":
            arm["measurement_status"]["cache"] = "not_applicable ghp_abcdefghijklmnopqrstuvwxyz0123"


def _secret_diff(doc: Any) -> None:
    for arm in doc["arms"]:
        for row in arm["scientific_config_diff"]:
            row["arm"] = "host secret.corp.internal"


def _submission(doc: Any) -> None:
    first = doc["arms"][0]["name"]
    doc["arms"] = [a for a in doc["arms"] if a["name"] == first]
    doc["description"] = "submitted with sk-live-abcdefghijklmnopqrstuvwx"


@pytest.mark.parametrize("edit", [_secret_notes, _secret_status, _secret_diff, _submission])
def test_the_harness_export_runs_the_credential_scan(tmp_path: Path, edit: Any) -> None:
    """The harness export published notes, measurement_status and config-diff values as they
    were, --redact included, and a single-run benchmark-submission.json too."""
    name = "benchmark-submission.json" if edit is _submission else "result.json"
    path = harness_with(tmp_path, edit, name)
    refused = cli("export", path, "--output-dir", tmp_path / "out")
    assert refused.code == 1 and not (tmp_path / "out").exists()
    assert "EV606" in refused.text and path.name in refused.text
    done = cli("export", path, "--output-dir", tmp_path / "pub", "--redact")
    assert done.code == 0, done.text
    published = {f.name: f.read_text(encoding="utf-8") for f in (tmp_path / "pub").iterdir()}
    for text in published.values():
        assert not any(s in text for s in SECRETS)
    result = json.loads(published["result.json"])
    assert result["redacted"] and all(r["path"].startswith("$.") for r in result["redacted"])
    assert 'id="redacted"' in published["index.html"]
    assert "--redact:" in done.text  # the closing summary lists what was replaced


def test_a_lerobot_group_id_join_does_not_hide_a_home_path(tmp_path: Path) -> None:
    """`g` + `/` + `/home/alice/...`: the scrubber took no absolute path after a slash."""
    doc = load(MULTI)
    doc["per_task"][0]["task_id"] = "/home/alice/secret/task"
    path = write(inputs(tmp_path) / "eval_info.json", doc)
    done = cli("export", path, "--output-dir", tmp_path / "out", "--bootstrap", "0")
    assert done.code == 0, done.text
    for f in (tmp_path / "out").iterdir():
        assert "/home/alice" not in f.read_text(encoding="utf-8"), f.name


# --- 6. data loss: no write over an input --------------------------------------------------------


def test_table_never_writes_over_an_input(tmp_path: Path, example_run: Any) -> None:
    folder = tmp_path / "reads"
    folder.mkdir()
    a = write(folder / "a.json", load(SINGLE_ENV))
    before = a.read_bytes()
    for args in (["table", a, "--output", a], ["table", folder, "--output", a],
                 ["table", example_run.path, "--output", example_run.path / "table.md"]):
        done = cli(*args, "--bootstrap", "0")
        assert done.code == 2 and "never writes over what it reads" in done.text, done.text
    assert a.read_bytes() == before and not (example_run.path / "table.md").exists()
    out = tmp_path / "table.md"
    assert cli("table", folder, "--output", out, "--bootstrap", "0").code == 0
    assert "a.json" in out.read_text(encoding="utf-8")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask  # as open() makes it, not 0600
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no leftovers


# --- 7. file names that are not UTF-8 ------------------------------------------------------------


def test_a_file_name_that_is_not_utf8_is_shown_as_a_replacement(tmp_path: Path) -> None:
    """`table` crashed with UnicodeEncodeError (surrogates) and left an empty CSV."""
    folder = tmp_path / "reads"
    folder.mkdir()
    write(folder / "good.json", load(SINGLE_ENV))
    (Path(os.fsdecode(os.fsencode(folder) + b"/bad-\xff.json"))).write_text(
        SINGLE_ENV.read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "t.csv"
    done = cli("table", folder, "--format", "csv", "--output", out, "--bootstrap", "0")
    assert done.code == 0
    assert "bad-\ufffd.json" in out.read_text(encoding="utf-8")
    for fmt in ("json", "md", "latex"):
        table = cli("table", folder, "--format", fmt, "--bootstrap", "0")
        assert table.code == 0 and table.out.decode("utf-8")
    assert "bad-\ufffd.json" in json.dumps(cli("check", folder, "--json").json, ensure_ascii=False)
    assert cli("check", folder).code == 0


# --- 8. a repeated key ----------------------------------------------------------------------------


def test_a_harness_file_with_a_repeated_key_is_never_scored(tmp_path: Path) -> None:
    """Scored with exit 0 under --allow-errors, before: which value it holds depends on the
    reader, so it is no result (the closed-run and LeRobot readers refuse such a line or file)."""
    text = HARNESS.read_text(encoding="utf-8").replace('"notes": ', '"notes": "x", "notes": ', 1)
    path = tmp_path / "result.json"
    path.write_text(text, encoding="utf-8")
    done = cli("score", path, "--allow-errors", "--json")
    assert done.code == 1 and done.json["refused"] and done.json["arms"] is None
    assert "--allow-errors does not apply" in done.json["refusals"][0]
    text_out = cli("score", path, "--allow-errors")
    assert text_out.code == 1 and "scores it anyway" not in text_out.text
    table = cli("table", path, "--format", "json", "--allow-errors", "--bootstrap", "0")
    assert table.code == 1 and all(r["mean"] is None for r in table.json["rows"])


# --- 9. one hostile file in a folder --------------------------------------------------------------


def test_one_hostile_file_does_not_stop_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "reads"
    folder.mkdir()
    write(folder / "a-good.json", load(SINGLE_ENV))
    deep = load(HARNESS)
    deep["hardware"]["deep"] = nested(5000)
    with _recursion_limit(20_000):
        (folder / "b-deep.json").write_text(json.dumps(deep))
    seed = load(SINGLE_ENV)
    seed["per_episode"][0]["seed"] = 2**64 - 1
    write(folder / "c-seed.json", seed)
    write(folder / "d-rate.json", harness_doc(success_rate=1.5))
    write(folder / "z-good.json", load(SINGLE_ENV))
    check = cli("check", folder, "--json").json
    by_path = {r["path"]: r for r in check["runs"]}
    assert set(by_path) == {"a-good.json", "b-deep.json", "c-seed.json", "d-rate.json",
                            "z-good.json"}
    assert by_path["b-deep.json"]["status"] == "unreadable"
    assert "deeper than" in by_path["b-deep.json"]["error"]
    assert by_path["a-good.json"]["ok"] and by_path["z-good.json"]["ok"]
    for jobs in ("1", "2"):
        table = cli("table", folder, "--format", "json", "--bootstrap", "0", "-j", jobs).json
        paths = [r["path"] for r in table["rows"]]
        assert paths[0].endswith("a-good.json") and paths[-1].endswith("z-good.json")


def harness_doc(**arm0: Any) -> Any:
    doc = copy.deepcopy(load(HARNESS))
    doc["arms"][0].update(arm0)
    return doc


def test_a_bug_on_one_read_is_a_row_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the next unforeseen failure is, it costs its own row only (check DIR, table)."""
    from evalview.folder import reads

    folder = tmp_path / "reads"
    folder.mkdir()
    write(folder / "a.json", load(SINGLE_ENV))
    write(folder / "b.json", load(SINGLE_ENV))
    real = reads.open_candidate

    def flaky(path: Path, kind: str, *, quick: bool = False) -> Any:
        if path.name == "a.json":
            raise OverflowError("int too large to convert to float")
        return real(path, kind, quick=quick)

    monkeypatch.setattr(reads, "open_candidate", flaky)
    check = cli("check", folder, "--json", "-j", "1")
    assert check.code == 1
    (a, b) = check.json["runs"]
    assert a["status"] == "unreadable" and "evalview failed on this read" in a["error"]
    assert b["ok"]
    table = cli("table", folder, "--format", "json", "--bootstrap", "0", "-j", "1")
    assert [r["refused"] is not None for r in table.json["rows"]] == [True, False]
