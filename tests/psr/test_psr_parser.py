"""The message parser: every checkpoint kind, and every format it must refuse."""

from __future__ import annotations

import pytest

from evalview.psr.parser import (
    BareTargets,
    ParseContext,
    PsrError,
    normalize_labels,
    parse_message,
)

CTX = ParseContext("model-x", "task_01_magic_staff", "row 1")


def credits(message: str, **kw: object) -> list[float]:
    return [c.credit for c in parse_message(message, CTX, **kw)]  # type: ignore[arg-type]


def test_spec_example_credits() -> None:
    cps = parse_message("Logs: 3/5, Kills: 0/3, All alive: True", CTX)
    assert [c.label for c in cps] == ["Logs", "Kills", "All alive"]
    assert [c.kind for c in cps] == ["quantity", "quantity", "boolean"]
    assert [c.credit for c in cps] == pytest.approx([0.6, 0.0, 1.0])
    assert cps[0].observed == 3 and cps[0].target == 5
    assert cps[2].observed is True and cps[2].target is None


def test_quantities_are_capped_at_one() -> None:
    assert credits("Stone: 7/3") == [1.0]
    assert credits("Stone: 3/3") == [1.0]
    assert credits("Stone: 2.5/5") == [0.5]


def test_false_is_zero() -> None:
    assert credits("Door: False") == [0.0]


@pytest.mark.parametrize(
    ("message", "credit"),
    [
        ("Rounds: 24/25", 1.0),
        ("Rounds: 25/25", 1.0),
        ("Rounds: 26/25", 0.0),
        ("Rounds: 30/25", 0.0),
    ],
)
def test_upper_bound_on_both_sides_of_the_limit(message: str, credit: float) -> None:
    (cp,) = parse_message(message, CTX)
    assert cp.kind == "upper_bound"
    assert cp.credit == credit


def test_upper_bound_labels_are_configurable_and_case_insensitive() -> None:
    labels = normalize_labels(["Steps", " ROUNDS "])
    assert credits("steps: 90/80", upper_bound_labels=labels) == [0.0]
    assert credits("rounds: 10/25", upper_bound_labels=labels) == [1.0]
    # With no upper-bound labels, Rounds is an ordinary capped quantity (30/25 -> 1).
    assert credits("Rounds: 30/25", upper_bound_labels=frozenset()) == [1.0]
    assert credits("Rounds: 10/25", upper_bound_labels=frozenset()) == [pytest.approx(0.4)]


def test_bare_value_without_table_is_refused() -> None:
    with pytest.raises(PsrError) as exc:
        parse_message("Planks: 14, Door: False", CTX)
    text = str(exc.value)
    assert "model-x" in text and "task_01_magic_staff" in text and "Planks: 14" in text
    assert "--bare-targets" in text


def test_bare_value_with_table() -> None:
    table = BareTargets({"planks": 16.0}, {"task_01_magic_staff": {"logs": 4.0}}, "bare.json")
    cps = parse_message("Planks: 14, Logs: 3, Door: True", CTX, bare_targets=table)
    assert [c.credit for c in cps] == pytest.approx([14 / 16, 0.75, 1.0])
    assert cps[0].target_source == "bare-targets"
    assert cps[1].target == 4  # the per-task entry wins


def test_bare_value_with_table_but_unknown_label_is_refused() -> None:
    table = BareTargets({"planks": 16.0}, {}, "bare.json")
    with pytest.raises(PsrError, match=r"'Nails'.*bare\.json"):
        parse_message("Nails: 3", CTX, bare_targets=table)


def test_bare_upper_bound_uses_the_table_limit() -> None:
    table = BareTargets({"rounds": 25.0}, {})
    assert credits("Rounds: 26", bare_targets=table) == [0.0]
    assert credits("Rounds: 25", bare_targets=table) == [1.0]


@pytest.mark.parametrize("message", ["Logs: 3/0", "Logs: 3/-5", "Logs: 0/0.0"])
def test_nonpositive_targets_are_refused(message: str) -> None:
    with pytest.raises(PsrError, match="nonpositive target"):
        parse_message(message, CTX)


@pytest.mark.parametrize(
    "message",
    [
        "Logs 3/5",  # no colon
        "Logs: three of five",
        "Logs: 3/5/7",
        "All alive: true",  # booleans are True/False as the verifier prints them
        "Logs: -1/5",
        "Logs: 3/5,",  # empty trailing item
        ": 3/5",
        "",
        "   ",
    ],
)
def test_unknown_formats_are_refused_never_zero(message: str) -> None:
    with pytest.raises(PsrError) as exc:
        parse_message(message, CTX)
    assert "model-x" in str(exc.value) and "task_01_magic_staff" in str(exc.value)


def test_duplicate_label_is_refused() -> None:
    with pytest.raises(PsrError, match="appears twice"):
        parse_message("Logs: 3/5, logs: 4/5", CTX)


def test_whole_numbers_stay_whole_in_json() -> None:
    (cp,) = parse_message("Logs: 3/5", CTX)
    assert cp.to_json() == {
        "label": "Logs",
        "kind": "quantity",
        "observed": 3,
        "target": 5,
        "target_source": "message",
        "credit": 0.6,
    }
