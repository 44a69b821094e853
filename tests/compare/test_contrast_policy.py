"""The contrast's refusal and labelling policy, judged on read facts alone (no scoring)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from evalview.compare.contrast_policy import (
    claim_label,
    contrast_labels,
    off_protocol_reasons,
    pair_notes,
)
from evalview.compare.reads import Refused
from evalview.model.facts import Execution, ReadFacts

EXEC = Execution("1", 300, None, 5, False)
A = ReadFacts(
    label="a42", run_id="ra", benchmark_name="qvla", benchmark_version="v1", seed_set="test",
    seed_set_source="default", execution=EXEC, off_protocol=(), policy_name="p",
    policy_version="1", fine_tune_seed="1", real_path="/runs/a42",
)
B = replace(A, label="b42", run_id="rb", policy_name="q", real_path="/runs/b42")


def test_fewer_than_three_pairs_is_descriptive() -> None:
    assert claim_label(2) == "descriptive, n_seeds=2"
    assert claim_label(3) == "paired, n_seeds=3"


def test_pair_notes_record_fine_tune_seeds_and_a_bc_side() -> None:
    assert pair_notes(A, B, None) == ()
    other = replace(B, fine_tune_seed="2")
    assert pair_notes(A, other, None) == ("fine-tune seed differs inside the pair: A 1, B 2",)
    assert pair_notes(A, replace(B, fine_tune_seed=None), None) == (
        "fine-tune seed declared on one side only: A 1, B None",
    )
    assert pair_notes(A, B, A)[-1].startswith("a side is the BC read itself")


def test_a_read_executed_unlike_the_others_is_refused_unless_allowed() -> None:
    odd = replace(B, label="b43", real_path="/runs/b43", execution=replace(EXEC, max_steps=400))
    reads = [A, B, odd]
    with pytest.raises(Refused, match="b43: executed unlike the other reads"):
        off_protocol_reasons(reads, allow_off_protocol=False)
    off = off_protocol_reasons(reads, allow_off_protocol=True)
    assert list(off) == [id(odd)]
    assert contrast_labels(bool(off), [(A, ("x",))], "development") == [
        "OFF-PROTOCOL", "a42: x", "[development seeds]",
    ]
