"""The scorer's refusal and labelling policy, judged on facts alone (no run, no arithmetic)."""

from __future__ import annotations

from dataclasses import replace

from evalview.stats.policy import (
    APPENDIX_VIEW,
    DEVELOPMENT,
    OFF_PROTOCOL,
    ReadState,
    labels,
    refusals,
)

CLEAN = ReadState(
    path="runs/r1",
    version_problem=None,
    seed_set_problem=None,
    off_protocol=(),
    untagged=(),
    view=None,
    view_problem=None,
    seed_set="test",
    errored=(),
    audit_errors=(),
    missing=(),
    has_tasks=True,
    allow_errors=False,
    allow_off_protocol=False,
)


def test_a_clean_test_read_has_neither_refusal_nor_label() -> None:
    assert refusals(CLEAN) == ()
    assert labels(CLEAN) == ()


def test_refusals_come_in_the_order_score_json_lists_them() -> None:
    state = replace(
        CLEAN,
        version_problem="version x is not y",
        off_protocol=("declared off-protocol",),
        view="usable_12",
        view_problem="--view usable_12 needs --benchmark FILE",
        has_tasks=False,
    )
    codes = [r.code for r in refusals(state)]
    assert codes == ["benchmark-version", "off-protocol", "view-unknown", "no-cases"]
    assert refusals(state)[0].message == "runs/r1: version x is not y."
    # A view that cannot be shown is refused, never labelled as an appendix view.
    assert APPENDIX_VIEW not in labels(state)


def test_allowed_off_protocol_is_labelled_not_refused() -> None:
    state = replace(
        CLEAN, off_protocol=("a", "b"), allow_off_protocol=True, seed_set="development",
        view="usable_12",
    )
    assert refusals(state) == ()
    assert labels(state) == (APPENDIX_VIEW, DEVELOPMENT, f"{OFF_PROTOCOL}: a; b")
