"""The Runs screen's contrast: replicate reads marked A and B (A, B keys) are contrasted with `x`
in a worker, as `evalview contrast` does, and a refusal is shown in the app's words; Escape comes
back to the Runs screen with the marks kept."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import run, showing, wait_for

from evalview.cli import main
from evalview.tui.app import EvalViewApp
from evalview.tui.runs_contrast import ContrastScreen
from evalview.tui.runs_screen import RunsScreen
from evalview.tui.vtable import VirtualTable
from helpers.paths import SAMPLE_RUNS

SIZE = (150, 30)
FOLDER = SAMPLE_RUNS / "replicates"
SEEDS = ("1", "2", "3")


def _cli_mean(a: list[str], b: list[str], capsys: pytest.CaptureFixture[str]) -> float:
    """`evalview contrast --json` on the same reads, KEY being each read's fine-tune seed."""
    capsys.readouterr()
    assert main(["contrast", "--a", *a, "--b", *b, "--json"]) == 0
    mean = json.loads(capsys.readouterr().out)["mean_points"]
    assert isinstance(mean, float)
    return mean


async def _mark(pilot: Pilot[Any], screen: RunsScreen, rel: str, key: str) -> None:
    """Put the cursor on the row of `rel` and press `key`."""
    position = [screen.entries[i].candidate.rel for i in screen.view].index(rel)
    screen.query_one(VirtualTable).move_to(position)
    await pilot.pause()
    await pilot.press(key)


def _body_text(pilot: Pilot[Any]) -> str:
    return str(pilot.app.screen.query_one("#contrast-body", Static).render())


def _on_runs(
    body: Callable[[Pilot[Any], RunsScreen], Awaitable[None]], folder: Path = FOLDER
) -> None:
    """`evalview FOLDER` (sample_runs/replicates), every row read, then `body`."""

    async def main_() -> None:
        app = EvalViewApp(folder, jobs=1)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(pilot.app, RunsScreen))
            screen = pilot.app.screen
            assert isinstance(screen, RunsScreen)
            await wait_for(pilot, lambda: screen.done)
            await body(pilot, screen)

    run(main_())


def _contrast(marks: list[tuple[str, str]], expected: dict[str, str], check: Any) -> None:
    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        for rel, key in marks:
            await _mark(pilot, screen, rel, key)
        roles = {
            screen.entries[i].candidate.rel: screen.role_of(i)
            for i in screen.view
            if screen.role_of(i)
        }
        assert roles == expected
        await pilot.press("x")
        await wait_for(pilot, lambda: showing(pilot.app, ContrastScreen))
        await wait_for(pilot, lambda: "…" not in _body_text(pilot))
        check(_body_text(pilot))
        await pilot.press("escape")
        await wait_for(pilot, lambda: pilot.app.screen is screen)
        assert {
            screen.entries[i].candidate.rel: screen.role_of(i)
            for i in screen.view
            if screen.role_of(i)
        } == roles

    _on_runs(body)


def test_marked_replicates_contrast_as_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    marks = [(f"planner-{m}/ft-seed-{s}", m.upper()) for m in "ab" for s in SEEDS]
    mean = _cli_mean(
        [f"{s}={FOLDER}/planner-a/ft-seed-{s}" for s in SEEDS],
        [f"{s}={FOLDER}/planner-b/ft-seed-{s}" for s in SEEDS],
        capsys,
    )
    shown: list[str] = []
    _contrast(marks, dict(marks), shown.append)
    text = " ".join(shown[0].split())
    assert f"mean {mean:+.2f} pt" in text
    assert "pairs 3 [paired, n_seeds=3]" in text
    assert all(f"replicate {s}:" in text for s in SEEDS)


def test_unpaired_replicates_are_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    marks = [(f"planner-a/ft-seed-{s}", "A") for s in SEEDS]
    marks += [(f"planner-b/ft-seed-{s}", "B") for s in SEEDS[:2]]
    capsys.readouterr()
    assert (
        main(
            [
                "contrast",
                "--a",
                *(f"{s}={FOLDER}/planner-a/ft-seed-{s}" for s in SEEDS),
                "--b",
                *(f"{s}={FOLDER}/planner-b/ft-seed-{s}" for s in SEEDS[:2]),
            ]
        )
        == 1
    )
    shown: list[str] = []
    _contrast(marks, dict(marks), shown.append)
    text = " ".join(shown[0].split())
    assert "No contrast of these reads" in text
    assert "replicate(s) 3 appear on one side only" in text
    assert "Traceback" not in text and "mean" not in text


def test_relative_with_b_as_its_own_bc(capsys: pytest.CaptureFixture[str]) -> None:
    """B marked with C too is the BC read itself, as `--b 1=X --bc 1=X` on the command line."""
    marks = [(f"planner-{m}/ft-seed-{s}", m.upper()) for m in "ab" for s in SEEDS]
    marks += [(f"planner-b/ft-seed-{s}", "C") for s in SEEDS]
    b = [f"{s}={FOLDER}/planner-b/ft-seed-{s}" for s in SEEDS]
    capsys.readouterr()
    assert (
        main(
            [
                "contrast",
                "--a",
                *(f"{s}={FOLDER}/planner-a/ft-seed-{s}" for s in SEEDS),
                "--b",
                *b,
                "--relative",
                "--bc",
                *b,
                "--json",
            ]
        )
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    expected = dict(marks) | {f"planner-b/ft-seed-{s}": "B+C" for s in SEEDS}
    shown: list[str] = []
    _contrast(marks, expected, shown.append)
    text = " ".join(shown[0].split())
    assert f"relative: mean R {doc['relative_mean']:+.2f} %" in text
    assert "a side is the BC read itself" in text


def test_a_mark_pressed_twice_is_undone_and_one_side_is_not_contrasted() -> None:
    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        await _mark(pilot, screen, "planner-a/ft-seed-1", "A")
        await _mark(pilot, screen, "planner-a/ft-seed-2", "B")
        await _mark(pilot, screen, "planner-a/ft-seed-2", "B")
        assert [screen.entries[i].candidate.rel for i in screen.roles] == ["planner-a/ft-seed-1"]
        await pilot.press("x")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert screen.contrast_sides()[1] is not None

    _on_runs(body)


def _errored_replicates(root: Path) -> Path:
    """2 methods x 3 replicates like sample_runs/replicates, but with errored rollouts (which
    `evalview contrast` refuses unless --allow-errors)."""
    from evalview.samples.closed_run import build_closed_run, write_closed_run

    for m, method in enumerate(("planner-a", "planner-b")):
        for k in (1, 2, 3):
            run_ = build_closed_run(
                tasks=4,
                seeds=8,
                rng_seed=100 * m + k,
                run_id=f"{method}-ft{k}",
                policy_name=method,
                policy_version=f"ft{k}-step-30000",
                error_rate=0.1,
                recording=False,
                success_shift=0.1 * m,
            )
            run_.manifest["policy"]["fine_tune_seed"] = k
            write_closed_run(run_, root / method / f"ft-seed-{k}")
    return root


def test_a_refusal_for_errored_rollouts_offers_a_to_contrast_anyway(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused as `evalview contrast` refuses it; `a` works it out again as `--allow-errors`
    does (the same mean, labelled not publishable) and the command line says so."""
    folder = _errored_replicates(tmp_path / "reps")
    a = [f"{s}={folder}/planner-a/ft-seed-{s}" for s in SEEDS]
    b = [f"{s}={folder}/planner-b/ft-seed-{s}" for s in SEEDS]
    capsys.readouterr()
    assert main(["contrast", "--a", *a, "--b", *b]) == 1
    capsys.readouterr()
    assert main(["contrast", "--a", *a, "--b", *b, "--allow-errors", "--json"]) == 0
    mean = json.loads(capsys.readouterr().out)["mean_points"]

    seen: dict[str, Any] = {}

    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        for rel, key in [(f"planner-{m}/ft-seed-{s}", m.upper()) for m in "ab" for s in SEEDS]:
            await _mark(pilot, screen, rel, key)
        await pilot.press("x")
        await wait_for(pilot, lambda: showing(pilot.app, ContrastScreen))
        contrast = pilot.app.screen
        assert isinstance(contrast, ContrastScreen)
        title = contrast.query_one("#contrast-title", Static)  # a header, as on every screen
        assert title.region.y == 0 and "A 3 reads · B 3 reads" in str(title.render())
        await wait_for(pilot, lambda: "…" not in _body_text(pilot))
        seen["refused"] = _body_text(pilot)
        seen["off"] = contrast.check_action("allow", ("off_protocol",))
        await pilot.press("a")
        await wait_for(pilot, lambda: "mean" in _body_text(pilot))
        seen["command"] = str(contrast.query_one("#contrast-command", Static).render())
        seen["shown"] = _body_text(pilot)

    _on_runs(body, folder)
    refused, shown, command, off_offered = (seen[k] for k in ("refused", "shown", "command", "off"))
    refused = " ".join(refused.split())
    assert "No contrast of these reads" in refused and "--allow-errors" in refused
    assert "a scores errored rollouts as non-successes" in refused
    assert not off_offered  # the refusal is about errors only: no `o`
    text = " ".join(shown.split())
    assert isinstance(mean, float) and f"mean {mean:+.2f} pt" in text
    assert "not a publishable read" in text and "scored as non-successes (--allow-errors)" in text
    assert "--allow-errors" in command
