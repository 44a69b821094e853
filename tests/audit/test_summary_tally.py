"""The summary checks' one pass over the records (`_tally`, issue 25) gives what the per-total
passes it replaced gave: the counts, the integer totals and `usage_sum` of every usage field,
the episodes' and each component's, to the bit (floats added in record order)."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evalview.audit.checks._common import USAGE_FIELDS, is_nonneg_int, usage_sum
from evalview.audit.checks.summary import _tally

values = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 10**6), st.floats(allow_nan=True),
    st.floats(0, 1e6), st.text(max_size=2),
)
usages = st.one_of(
    st.none(), st.integers(), st.dictionaries(st.sampled_from(USAGE_FIELDS), values),
)
records = st.fixed_dictionaries(
    {},
    optional={
        "status": st.sampled_from(["completed", "error", "other", None]),
        "success": st.one_of(st.booleans(), st.none(), st.integers(0, 1)),
        "policy_calls": values,
        "rejected_actions": values,
        "usage": usages,
        "component_usage": st.one_of(
            st.none(), st.dictionaries(st.sampled_from(["planner", "critic"]), usages)
        ),
    },
)


def _run(docs: list[dict[str, Any]]) -> Any:
    return SimpleNamespace(iter_records=lambda: ((None, d) for d in docs))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and a == b


@settings(max_examples=300, deadline=None)
@given(st.lists(records, max_size=12))
def test_one_pass_is_the_separate_passes(docs: list[dict[str, Any]]) -> None:
    tally = _tally(_run(docs), ["planner", "critic", "absent"])
    expected: dict[str, Any] = {
        "attempted": len(docs),
        "completed": sum(1 for d in docs if d.get("status") == "completed"),
        "errors": sum(1 for d in docs if d.get("status") == "error"),
        "successes": sum(
            1 for d in docs if d.get("status") == "completed" and d.get("success") is True
        ),
    }
    for key in ("policy_calls", "rejected_actions"):
        ok = [v for d in docs if is_nonneg_int(v := d.get(key))]
        expected[key] = sum(ok) if len(ok) == len(docs) else None
    assert tally.totals == expected
    assert tally.records == len(docs)
    episode_usages = [d.get("usage") for d in docs]
    for key in USAGE_FIELDS:
        assert _same(tally.usage[key], usage_sum(episode_usages, key))
    for cid in ("planner", "critic", "absent"):
        cus = [
            c.get(cid) if isinstance(c := d.get("component_usage"), dict) else None for d in docs
        ]
        for key in USAGE_FIELDS:
            assert _same(tally.components[cid][key], usage_sum(cus, key))
