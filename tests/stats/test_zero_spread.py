"""An all-T SE of zero by design is said out loud (issue 22).

A LeRobot file with one episode per task (10 × 1) printed `90.0 % ± 0.0 pt; 95 % 90.0–90.0 %`,
bootstrap included, and "publishable read" with no caveat. The same happens wherever every task is
0/n or n/n. Checked: the condition is exactly "the binomial SE is 0" (hypothesis), the pooled
Wilson interval against statsmodels, and the caveat in every place the number is shown.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from statsmodels.stats.proportion import proportion_confint

from evalview.cli import main
from evalview.samples.lerobot import multi_task_info
from evalview.stats.aggregate import all_tasks_mean, zero_spread
from evalview.stats.policy import ZERO_SPREAD, zero_spread_label


def ten_by_one(path: Path, successes: int = 9) -> Path:
    """A LeRobot multi-task file of 10 tasks × 1 episode, `successes` of them succeeded."""
    rates = {("libero_10", i): 0.5 for i in range(10)}
    difficulty = {("libero_10", i): [0.1 if i < successes else 0.9] for i in range(10)}
    doc = multi_task_info(rates, difficulty, run_dir="/tmp/run", newer_keys=True,
                          rng=random.Random(1))
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@given(st.lists(st.tuples(st.integers(1, 12), st.floats(0, 1)), min_size=1, max_size=12))
def test_the_caveat_is_exactly_a_zero_se(tasks: list[tuple[int, float]]) -> None:
    n = [nt for nt, _ in tasks]
    k = [round(u * nt) for nt, u in tasks]
    value = all_tasks_mean(k, n)
    spread = zero_spread(k, n)
    assert (spread is not None) == (value.se == 0.0)
    if spread is not None:  # and then the normal interval is a point
        assert value.ci95[0] == value.ci95[1] == value.mean


def test_ten_by_one_numbers_against_statsmodels() -> None:
    z = zero_spread([1] * 9 + [0], [1] * 10)
    assert z is not None
    lo, hi = proportion_confint(9, 10, alpha=0.05, method="wilson")
    assert z.pooled_wilson95 == pytest.approx((lo, hi), abs=1e-7)  # z 1.959964 vs 1.9599640
    assert (z.successes, z.selected, z.episodes) == (9, 10, (1, 1))
    # a task at the pooled 90 % expects one failure in 10 episodes
    assert z.episodes_needed == 10
    label = zero_spread_label(z)
    assert label.startswith(ZERO_SPREAD)
    assert "one episode per task" in label and "59.6–98.2 %" in label
    assert "a real SE needs at least 10 episodes per task" in label


def test_episodes_needed_and_one_outcome() -> None:
    all_done = zero_spread([5, 5], [5, 5])
    assert all_done is not None and all_done.episodes_needed is None
    assert all_done.one_outcome == "succeeded"
    assert "no number of episodes per task gives an SE" in zero_spread_label(all_done)
    half = zero_spread([4, 0], [4, 4])  # pooled 50 %: two episodes expect one of each
    assert half is not None and half.episodes_needed == 2
    assert "4 episodes per task, each task all successes or all failures" in zero_spread_label(half)
    rare = zero_spread([0, 3, 0], [3, 3, 4])  # 3 of 10: ⌈10 / 3⌉
    assert rare is not None and rare.episodes_needed == 4 and rare.episodes == (3, 4)
    assert zero_spread([1, 2], [2, 2]) is None  # a task with both outcomes: the SE is real


def test_score_says_it_beside_the_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    path = ten_by_one(tmp_path / "eval_info.json")
    assert main(["score", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    agg = doc["aggregate"]
    assert agg["se"] == 0 and agg["ci95"] == [0.9, 0.9] and agg["bootstrap"] == [0.9, 0.9]
    assert agg["zero_spread"]["episodes_per_task_needed"] == 10
    assert [lb for lb in doc["labels"] if lb.startswith(ZERO_SPREAD)]

    assert main(["score", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, ln in enumerate(lines) if "per-task rates over selected cases" in ln)
    assert "90.0 % ± 0.0 pt" in lines[at]
    assert lines[at + 1].strip().startswith(f"⚠ {ZERO_SPREAD}")  # beside the number
    assert sum(ZERO_SPREAD in ln for ln in lines) == 1  # not repeated among the labels above
    assert "90.0–90.0 % (zero width, by design)" in lines[at + 2]
    assert any("pooled over 10 episodes  59.6–98.2 %" in ln for ln in lines)
    assert lines[-1] == "publishable read, with the caveat beside its SE"


def test_the_app_and_the_page_say_it(tmp_path: Path) -> None:
    from evalview.session import open_run, score_session
    from evalview.tui.overview import aggregate_card

    (tmp_path / "run").mkdir()
    path = ten_by_one(tmp_path / "run" / "eval_info.json")
    card = score_session(open_run(path))
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(aggregate_card(card))
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "90.0 % ± 0.0 pt SE  zero by design, not precision" in shown
    assert "95 % Wilson, pooled" in shown and "59.6 % – 98.2 %" in shown
    assert ZERO_SPREAD in shown

    out = tmp_path / "export"
    assert main(["export", str(path), "--output-dir", str(out)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "zero by design, not precision (see below)" in page
    assert ZERO_SPREAD in page
    result = json.loads((out / "result.json").read_text(encoding="utf-8"))
    assert any(lb.startswith(ZERO_SPREAD) for lb in result["labels"])


def test_a_read_with_spread_has_no_caveat(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    from helpers.paths import REPO

    assert main(["score", str(REPO / "sample_runs/lerobot/smolvla-libero-40k.json"), "--json",
                 "--bootstrap", "0"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["aggregate"]["zero_spread"] is None
    assert not [lb for lb in doc["labels"] if lb.startswith(ZERO_SPREAD)]
