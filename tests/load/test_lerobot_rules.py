"""Every EV7xx rule is triggered by a minimal edit of a conforming lerobot-eval file, and points at
the JSON path (in the message) and the line of the value."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evalview.audit import RULES
from evalview.findings import Severity
from evalview.load.errors import InputError
from evalview.load.lerobot import load_lerobot_reads
from helpers.lerobot_files import multi_task_doc, single_env_doc, write

Edit = Callable[[dict[str, Any]], Any]


def _set(path: str, value: Any) -> Edit:
    def edit(doc: dict[str, Any]) -> Any:
        *parents, last = path.split(".")
        node: Any = doc
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
        return doc

    return edit


def _del(path: str) -> Edit:
    def edit(doc: dict[str, Any]) -> Any:
        *parents, last = path.split(".")
        node: Any = doc
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        if isinstance(node, list):
            del node[int(last)]
        else:
            del node[last]
        return doc

    return edit


def _dup_task(doc: dict[str, Any]) -> Any:
    doc["per_task"].append(copy.deepcopy(doc["per_task"][0]))
    return doc


def _dup_episode(doc: dict[str, Any]) -> Any:
    doc["per_episode"][4]["episode_ix"] = 2
    return doc


def _dup_seed(doc: dict[str, Any]) -> Any:
    doc["per_episode"][9]["seed"] = doc["per_episode"][3]["seed"]
    return doc


def _empty_group(doc: dict[str, Any]) -> Any:
    """What lerobot-eval writes when a group's tasks ran no episode: NaN means."""
    for t in doc["per_task"]:
        if t["task_group"] == "suite_b":
            for k in ("sum_rewards", "max_rewards", "successes"):
                t["metrics"][k] = []
            t.update(n_episodes=0, n_success=0, pc_success=math.nan,
                     pc_success_ci95=[math.nan, math.nan])
    g = doc["per_group"]["suite_b"]
    g.update(avg_sum_reward=math.nan, avg_max_reward=math.nan, pc_success=math.nan,
             n_episodes=0, n_success=0, pc_success_ci95=[math.nan, math.nan])
    # overall must agree with the remaining episodes
    fresh = multi_task_doc()
    a = [t for t in fresh["per_task"] if t["task_group"] == "suite_a"]
    succ = [s for t in a for s in t["metrics"]["successes"]]
    rew = [r for t in a for r in t["metrics"]["sum_rewards"]]
    doc["overall"].update(
        n_episodes=len(succ), n_success=sum(succ), pc_success=100 * sum(succ) / len(succ),
        avg_sum_reward=sum(rew) / len(rew), avg_max_reward=sum(rew) / len(rew),
        pc_success_ci95=fresh["per_group"]["suite_a"]["pc_success_ci95"],
    )
    return doc


MULTI = "multi"
SINGLE = "single"

#: code → (document kind, edit, text the finding's message starts with, text on the finding's line)
CASES: dict[str, tuple[str, Edit, str, str]] = {
    "EV701": (MULTI, _del("per_task.1.metrics"), "per_task[1].metrics: metrics is missing", "{"),
    "EV702": (MULTI, _del("per_task.0.metrics.sum_rewards.3"), "per_task[0].metrics", '"metrics"'),
    "EV703": (MULTI, _set("per_task.2.metrics.successes.4", 1),
              "per_task[2].metrics.successes[4]", "1"),
    "EV704": (MULTI, _set("per_task.3.metrics.max_rewards.1", math.nan),
              "per_task[3].metrics.max_rewards[1]", "NaN"),
    "EV705": (SINGLE, _dup_episode, "per_episode[4].episode_ix", '"episode_ix": 2'),
    "EV706": (SINGLE, _dup_seed, "per_episode[9].seed", '"seed": 1003'),
    "EV707": (MULTI, _set("per_group.suite_a.pc_success", 12.5), "per_group.suite_a.pc_success",
              '"pc_success": 12.5'),
    "EV708": (MULTI, _empty_group, "per_group.suite_b", "NaN"),
    "EV709": (MULTI, _set("overall.notes", "mine"), "overall.notes", '"notes"'),
    "EV710": (MULTI, _dup_task, "per_task[4]", "{"),
    "EV711": (MULTI, _del("per_group.suite_b"), "per_group", '"per_group"'),
    "EV712": (MULTI, lambda d: d, "lerobot-eval records no", "{"),
    "EV713": (MULTI, _empty_group, "per_task[2]", "{"),
    "EV714": (MULTI, lambda d: d, "8 video path(s)", "{"),
}


def _read(tmp_path: Path, doc: Any) -> tuple[list[Any], list[str]]:
    path = write(tmp_path / "eval_info.json", doc)
    reads = load_lerobot_reads(path, path.read_bytes())
    assert reads is not None
    return [f for _k, run in reads for f in run.reading_findings], path.read_text().splitlines()


def test_every_lerobot_rule_has_a_case() -> None:
    assert {c for c in RULES if c.startswith("EV7")} == set(CASES)


@pytest.mark.parametrize("code", sorted(CASES))
def test_edit_triggers_rule_at_its_path_and_line(code: str, tmp_path: Path) -> None:
    kind, edit, path_text, line_text = CASES[code]
    doc = edit(multi_task_doc() if kind == MULTI else single_env_doc())
    findings, lines = _read(tmp_path, doc)
    hits = [f for f in findings if f.code == code]
    assert hits, f"{code} not reported; got {sorted({f.code for f in findings})}"
    hit = next((f for f in hits if f.message.startswith(path_text)), None)
    assert hit is not None, [f.message for f in hits]
    assert hit.severity is RULES[code].severity
    assert hit.file == "eval_info.json"
    assert hit.line is not None and line_text in lines[hit.line - 1], (hit.line, hit.message)


@pytest.mark.parametrize("make", [multi_task_doc, single_env_doc])
def test_conforming_files_have_no_error_or_warning(make: Callable[[], Any], tmp_path: Path) -> None:
    findings, _lines = _read(tmp_path, make())
    assert [f for f in findings if f.severity is not Severity.INFO] == []


def test_older_keys_conform_too(tmp_path: Path) -> None:
    findings, _lines = _read(tmp_path, multi_task_doc(newer_keys=False))
    assert [f.code for f in findings if f.severity is Severity.ERROR] == []


def test_float_noise_is_not_a_mismatch(tmp_path: Path) -> None:
    doc = multi_task_doc()
    doc["per_task"][0]["metrics"]["successes"] = [True] * 14 + [False] * 36
    for k in ("sum_rewards", "max_rewards"):
        doc["per_task"][0]["metrics"][k] = [1.0] * 14 + [0.0] * 36
    doc["per_task"][0].update(n_episodes=50, n_success=14, pc_success=28.000000000000004)
    doc["per_task"][0]["pc_success_ci95"] = [17.4808, 42.0]  # a real mismatch, to be sure it looks
    findings, _lines = _read(tmp_path, doc)
    mism = [f for f in findings if f.code == "EV707" and f.message.startswith("per_task[0].")]
    assert [f.message.split(":")[0] for f in mism] == ["per_task[0].pc_success_ci95"]


def test_nan_where_a_value_exists_is_a_mismatch(tmp_path: Path) -> None:
    doc = _set("overall.avg_sum_reward", math.nan)(multi_task_doc())
    findings, _lines = _read(tmp_path, doc)
    assert any(f.code == "EV707" and f.message.startswith("overall.avg_sum_reward")
               for f in findings)
    assert not any(f.code == "EV708" for f in findings)


def test_named_reads_are_one_run_each_and_the_other_keys_are_info(tmp_path: Path) -> None:
    doc = {"run_config": {"seed": 1000}, "eval_results_400": multi_task_doc(),
           "eval_results_800": multi_task_doc(shift=0.1)}
    path = write(tmp_path / "reads.json", doc)
    reads = load_lerobot_reads(path, path.read_bytes())
    assert reads is not None
    assert [k for k, _r in reads] == ["eval_results_400", "eval_results_800"]
    assert [r.identity.run_id for _k, r in reads] == ["eval_results_400", "eval_results_800"]
    first = reads[0][1]
    info = [f for f in first.reading_findings if f.code == "EV709"]
    assert [f.message.split(":")[0] for f in info] == ["run_config"]
    assert info[0].line == 2
    # a finding inside the second read names it in its path
    doc["eval_results_800"]["overall"]["n_episodes"] = 3
    path = write(tmp_path / "reads.json", doc)
    reads = load_lerobot_reads(path, path.read_bytes())
    assert reads is not None
    bad = [f for f in reads[1][1].reading_findings if f.code == "EV707"]
    assert [f.message.split(":")[0] for f in bad] == ["eval_results_800.overall.n_episodes"]


def test_duplicate_keys_are_refused_even_with_nan(tmp_path: Path) -> None:
    text = write(tmp_path / "a.json", _empty_group(multi_task_doc())).read_text()
    text = text.replace('"overall": {', '"overall": {\n    "eval_s": 1.0,', 1)
    path = tmp_path / "a.json"
    path.write_text(text)
    with pytest.raises(InputError, match="'eval_s' appears twice"):
        load_lerobot_reads(path, path.read_bytes())


def test_not_lerobot_is_none(tmp_path: Path) -> None:
    path = write(tmp_path / "x.json", {"per_task_count": 3})
    assert load_lerobot_reads(path, path.read_bytes()) is None


def test_episode_bound_is_stated_and_enforced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("evalview.load.lerobot.reader.MAX_LEROBOT_EPISODES", 10)
    path = write(tmp_path / "big.json", multi_task_doc())
    with pytest.raises(InputError, match="24 episodes, over the bound of 10"):
        load_lerobot_reads(path, path.read_bytes())


def test_byte_bound_is_enforced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("evalview.load.lerobot.reader.MAX_LEROBOT_BYTES", 100)
    path = write(tmp_path / "big.json", multi_task_doc())
    with pytest.raises(InputError, match="over the 128 MiB bound"):
        load_lerobot_reads(path, path.read_bytes())


def test_compact_json_still_points_at_a_line(tmp_path: Path) -> None:
    doc = _set("per_task.2.metrics.successes.4", "yes")(multi_task_doc())
    path = write(tmp_path / "c.json", doc, indent=None)
    reads = load_lerobot_reads(path, path.read_bytes())
    assert reads is not None
    hit = next(f for f in reads[0][1].reading_findings if f.code == "EV703")
    assert hit.line == 1 and hit.episode_id == "suite_b/0/ep4"


def test_the_readers_wilson_is_the_reporting_rules_wilson() -> None:
    from evalview.load.lerobot.parse import wilson_interval as reader_wilson
    from evalview.stats.intervals import wilson_interval

    for n in (1, 2, 7, 50, 500):
        for k in range(n + 1):
            assert reader_wilson(k, n) == pytest.approx(wilson_interval(k, n), abs=1e-15)


def test_reading_a_lerobot_file_imports_neither_numpy_nor_textual(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = write(tmp_path / "eval_info.json", multi_task_doc())
    code = (
        "import sys; from pathlib import Path; from evalview.audit import audit; "
        "from evalview.load import load_run; "
        f"r = load_run(Path({str(path)!r})); audit(r); "
        "print(sorted(m for m in ('numpy', 'textual') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_reader_joins_the_registry_and_reads_every_named_read(tmp_path: Path) -> None:
    from evalview.load import READERS, read_input

    assert "lerobot-eval" in [r.name for r in READERS]
    doc = {"run_config": {}, "a": multi_task_doc(), "b": multi_task_doc(shift=0.1)}
    reading = read_input(write(tmp_path / "reads.json", doc))
    assert reading.format == "lerobot-eval" and reading.names == ("a", "b")
    assert [r.run.identity.run_id for r in reading.runs] == ["a", "b"]


def test_a_nan_file_is_detected_and_read(tmp_path: Path) -> None:
    from evalview.load import read_input

    path = write(tmp_path / "eval_info.json", _empty_group(multi_task_doc()))
    assert b"NaN" in path.read_bytes()
    reading = read_input(path)
    assert reading.format == "lerobot-eval"
    codes = {f.code for f in reading.runs[0].run.reading_findings}
    assert "EV708" in codes and "EV707" not in codes
