"""A LeRobot read is a `Run` like any other: scored, viewed by group, compared by (task, ep)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from evalview.audit import audit
from evalview.compare.paired import PAIRED
from evalview.compare.reads import Refused
from evalview.load import load_run
from evalview.stats import score_run
from helpers.compare import compare_runs
from helpers.lerobot_files import multi_task_doc, single_env_doc, write
from helpers.paths import SAMPLE_RUNS

SAMPLES = SAMPLE_RUNS / "lerobot"


def test_tasks_are_group_slash_id_and_rows_point_at_their_success_line(tmp_path: Path) -> None:
    path = write(tmp_path / "eval_info.json", multi_task_doc())
    run = load_run(path)
    assert run.kind == "lerobot-eval" and not run.records_errors
    assert run.tasks == ("suite_a/0", "suite_a/1", "suite_b/0", "suite_b/1")
    assert run.views == {"suite_a": ("suite_a/0", "suite_a/1"),
                         "suite_b": ("suite_b/0", "suite_b/1")}
    lines = path.read_text().splitlines()
    doc = json.loads(path.read_text())
    table = run.episodes
    for i in range(len(table)):
        task, ep = str(table.task[i]), int(str(table.ids[i]).rpartition("/ep")[2])
        group, _s, tid = task.partition("/")
        entry = next(t for t in doc["per_task"]
                     if t["task_group"] == group and str(t["task_id"]) == tid)
        recorded = entry["metrics"]["successes"][ep]
        assert bool(table.success[i]) is recorded
        assert lines[int(table.line[i]) - 1].strip().rstrip(",") == json.dumps(recorded)
    assert run.columns["sum_reward"].shape == (len(table),)


def test_single_env_is_one_task_with_its_seeds(tmp_path: Path) -> None:
    run = load_run(write(tmp_path / "eval_info.json", single_env_doc()))
    assert run.tasks == ("env/0",)
    assert list(run.episodes.seed[:3]) == [1000, 1001, 1002]


def test_score_has_the_closed_run_contract_and_says_what_the_format_cannot(
    tmp_path: Path,
) -> None:
    doc = multi_task_doc(episodes=6)
    # unequal task sizes: the pooled pc_success and the all-T mean part ways
    m = doc["per_task"][0]["metrics"]
    for k in ("successes", "sum_rewards", "max_rewards"):
        m[k] = m[k] * 3
    doc = _recompute(doc)
    run = load_run(write(tmp_path / "eval_info.json", doc))
    card = score_run(run, bootstrap=200, findings=audit(run))
    out = card.to_json()
    assert {"aggregate", "denominators", "rates", "tasks"} <= set(out)
    d = out["denominators"]
    assert d["selected"] == d["attempted"] == d["completed"] == 18 + 18
    assert d["errors"] == d["unattempted"] == 0
    src = out["source"]
    assert src["records_errors"] is False and "no errored or unattempted" in src["note"]
    assert src["reported_pc_success"] == pytest.approx(src["pooled_rate"])
    rates = [t["rate"] for t in out["tasks"]]
    assert out["aggregate"]["mean"] == pytest.approx(sum(rates) / len(rates))
    assert out["aggregate"]["mean"] != pytest.approx(src["pooled_rate"])
    assert "6 to 18 episodes" in src["pooled_vs_all_tasks"]


def _recompute(doc: dict) -> dict:  # type: ignore[type-arg]
    """Rewrite every aggregate from the lists, as lerobot-eval would have."""
    from evalview.samples.lerobot import _agg, _counts

    groups: dict[str, list[bool]] = {}
    rewards: dict[str, list[float]] = {}
    for t in doc["per_task"]:
        s = t["metrics"]["successes"]
        t.update(_counts(s))
        groups.setdefault(t["task_group"], []).extend(s)
        rewards.setdefault(t["task_group"], []).extend(t["metrics"]["sum_rewards"])
    for g, s in groups.items():
        c = _counts(s)
        doc["per_group"][g].update(
            avg_sum_reward=_agg(rewards[g]), avg_max_reward=_agg(rewards[g]),
            pc_success=_agg(s) * 100, n_episodes=len(s), n_success=c["n_success"],
            pc_success_ci95=c["pc_success_ci95"],
        )
    every = [x for s in groups.values() for x in s]
    rew = [x for r in rewards.values() for x in r]
    c = _counts(every)
    doc["overall"].update(
        avg_sum_reward=_agg(rew), avg_max_reward=_agg(rew), pc_success=_agg(every) * 100,
        n_episodes=len(every), n_success=c["n_success"], pc_success_ci95=c["pc_success_ci95"],
    )
    return doc


def test_recomputed_helper_makes_a_clean_file(tmp_path: Path) -> None:
    doc = _recompute(multi_task_doc())
    run = load_run(write(tmp_path / "e.json", doc))
    assert [f.code for f in run.reading_findings if f.severity.value != "info"] == []


def test_a_group_is_a_view(tmp_path: Path) -> None:
    run = load_run(write(tmp_path / "eval_info.json", multi_task_doc()))
    card = score_run(run, bootstrap=0, view="suite_b", findings=audit(run))
    assert not card.refused
    assert [t.task for t in card.tasks] == ["suite_b/0", "suite_b/1"]
    assert card.aggregate.name == "suite_b" and card.view == "suite_b"
    assert "(group view) suite_b" in card.labels
    unknown = score_run(run, bootstrap=0, view="suite_z", findings=audit(run))
    assert unknown.refused and "suite_a, suite_b" in unknown.refusals[0].message


def test_compare_pairs_by_task_and_episode_with_the_paired_interval() -> None:
    a = load_run(SAMPLES / "smolvla-libero-20k.json")
    b = load_run(SAMPLES / "smolvla-libero-40k.json")
    c = compare_runs(a, b)
    assert c.overall.pairs == 2000 and len(c.tasks) == 40
    ci = c.overall.to_json()["difference_ci95"]
    assert ci["method"] == PAIRED
    lo, hi = ci["interval"]
    assert lo < c.overall.difference < hi
    assert any(t.underpowered for t in c.tasks)
    for t in c.tasks:
        j = t.to_json()["difference_ci95"]
        if j["underpowered"]:
            assert j["interval"][0] <= 0 <= j["interval"][1]
            assert j["episodes_needed"] > t.pairs


def test_compare_refuses_different_seeds_naming_the_first(tmp_path: Path) -> None:
    doc = single_env_doc()
    other = copy.deepcopy(doc)
    for ep in other["per_episode"][7:]:
        ep["seed"] += 100
    a = load_run(write(tmp_path / "a.json", doc))
    b = load_run(write(tmp_path / "b.json", other))
    with pytest.raises(Refused, match=r"episode env/0/ep7 ran seed 1007 in .* but seed 1107"):
        compare_runs(a, b)


@pytest.mark.parametrize("per_task", [5, True, "x", {}, None])
def test_a_per_task_that_is_not_a_list_is_a_finding_not_a_traceback(
    tmp_path: Path, per_task: object, capsys: pytest.CaptureFixture[str]
) -> None:
    """The episode bound counted `per_task` before the parse and raised TypeError on a number."""
    from evalview.cli import main

    doc = {"per_task": per_task, "per_group": {}, "overall": {}}
    path = write(tmp_path / "eval_info.json", doc)
    assert main(["check", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["counts"]["error"] >= 1
