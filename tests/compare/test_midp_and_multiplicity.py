"""Issue 22: the compare verdict rests on the mid-p McNemar test, says where the paired score
interval disagrees, and per-task verdicts carry Holm and Benjamini–Hochberg adjusted p-values.

Oracles: scipy's binomial distribution for the mid-p test (Fagerland, Lydersen & Laake 2013, whose
supplementary material defines it from binomcdf and binompdf), statsmodels' `multipletests` for
the adjustments, and the worked numbers of the paper and the issue.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom
from statsmodels.stats.multitest import multipletests

from evalview.compare.hypothesis_tests import mcnemar_exact, mcnemar_mid_p
from evalview.compare.multiplicity import benjamini_hochberg, holm
from evalview.compare.paired import adjust_for_multiplicity, paired_counts
from evalview.fmt import points


def _scipy_mid_p(b: int, c: int) -> float:
    n, low = b + c, min(b, c)
    if b == c:
        return 1 - 0.5 * float(binom.pmf(low, n, 0.5))
    return 2 * float(binom.cdf(low, n, 0.5)) - float(binom.pmf(low, n, 0.5))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 400), st.integers(0, 400))
def test_mid_p_against_scipy(b: int, c: int) -> None:
    if b + c == 0:
        assert mcnemar_mid_p(b, c) == 1.0
        return
    ours = mcnemar_mid_p(b, c)
    assert ours == pytest.approx(_scipy_mid_p(b, c), rel=1e-9, abs=1e-300)
    assert ours == mcnemar_mid_p(c, b) == mcnemar_exact(b, c).mid_p
    assert ours <= mcnemar_exact(b, c).p_value  # never more conservative than the exact test


def test_fagerland_worked_example() -> None:
    """Bentur et al.'s airway hyper-responsiveness table: 1 and 7 discordant pairs."""
    r = mcnemar_exact(1, 7)
    assert round(r.p_value, 3) == 0.070 and r.p_value == 18 / 256
    assert round(r.mid_p, 3) == 0.039 and r.mid_p == 10 / 256


def test_the_issue_case_verdict_follows_the_test_that_agrees_with_the_interval() -> None:
    """Two LIBERO-Spatial reads, 100 pairs, b = 5, c = 14: the exact test said 'p = 0.0636: not
    significant' beside an interval of −17.8 to −0.3 pt that excludes 0."""
    t = paired_counts("libero_spatial", both=72, only_a=14, only_b=5, neither=9)
    assert round(t.mcnemar_p, 4) == 0.0636
    ci = t.difference_interval()
    assert ci is not None
    assert (points(ci.interval[0], unit=""), points(ci.interval[1], unit="")) == ("-17.8", "-0.3")
    assert round(t.mcnemar_midp, 4) == 0.0414
    assert t.verdict.code == "a_better"  # the exact test alone would say not_significant
    assert t.verdict.interval_agrees and t.verdict.p == t.mcnemar_midp
    assert "mid-p = 0.0414 (exact p = 0.0636) < 0.05: A is better" in t.verdict.text
    doc = t.to_json()
    assert doc["mcnemar_p"] == t.mcnemar_p and doc["mcnemar_midp"] == t.mcnemar_midp
    assert doc["verdict"]["test"] == "mcnemar-mid-p" and doc["verdict"]["interval_agrees"]


def test_where_test_and_interval_still_disagree_the_verdict_says_so() -> None:
    # the test rejects, the interval holds 0
    t = paired_counts("t", both=1, only_a=7, only_b=1, neither=91)
    ci = t.difference_interval()
    assert ci is not None and not ci.excludes_zero and t.mcnemar_midp < 0.05
    assert t.verdict.code == "a_better" and not t.verdict.interval_agrees
    assert "the test and the 95 % interval disagree" in t.verdict.text
    assert "holds 0" in t.verdict.text and "re-test before claiming" in t.verdict.text
    # the interval excludes 0, the test does not reject
    u = paired_counts("u", both=7, only_a=4, only_b=0, neither=9)
    ci = u.difference_interval()
    assert ci is not None and ci.excludes_zero and u.mcnemar_midp >= 0.05
    assert u.verdict.code == "not_significant" and not u.verdict.interval_agrees
    assert "excludes 0" in u.verdict.text


def test_the_spec_example_keeps_its_verdict() -> None:
    t = paired_counts("t", both=6, only_a=2, only_b=8, neither=4)
    assert t.verdict.code == "not_significant" and t.verdict.interval_agrees
    assert "p = 0.109" in t.verdict.text and "mid-p = 0.0654" in t.verdict.text


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=40))
def test_holm_and_bh_against_statsmodels(p: list[float]) -> None:
    _, sm_holm, _, _ = multipletests(p, alpha=0.05, method="holm")
    _, sm_bh, _, _ = multipletests(p, alpha=0.05, method="fdr_bh")
    assert holm(p) == pytest.approx(list(sm_holm), rel=1e-12, abs=1e-15)
    assert benjamini_hochberg(p) == pytest.approx(list(sm_bh), rel=1e-12, abs=1e-15)


def test_per_task_verdicts_are_adjusted_for_the_family() -> None:
    tables = [(10, 0, 12, 28), (10, 0, 5, 35), (20, 5, 5, 20), (30, 1, 3, 16), (0, 0, 0, 0)]
    tasks = [paired_counts(f"t{i}", *cells) for i, cells in enumerate(tables)]
    tasks[-1] = paired_counts("empty", 0, 0, 0, 0)  # no pair: not in the family
    adjusted = adjust_for_multiplicity(tasks, 0.05)
    family = [t for t in adjusted if t.pairs]
    mid = [t.mcnemar_midp for t in family]
    _, sm_holm, _, _ = multipletests(mid, method="holm")
    _, sm_bh, _, _ = multipletests(mid, method="fdr_bh")
    for t, h, q in zip(family, sm_holm, sm_bh, strict=True):
        assert t.adjusted is not None and t.adjusted.family == 4
        assert t.adjusted.holm == pytest.approx(h) and t.adjusted.benjamini_hochberg == (
            pytest.approx(q))
    assert adjusted[-1].adjusted is None
    strong, weak = adjusted[0], adjusted[1]
    assert strong.verdict.code == weak.verdict.code == "b_better"
    assert "it holds after Holm's correction for the 4 tasks" in strong.verdict.text
    assert weak.adjusted is not None and not weak.adjusted.holm_rejects
    assert "not after Holm's correction for the 4 tasks" in weak.verdict.text
    # one task alone is no family
    assert adjust_for_multiplicity(tasks[:1], 0.05)[0].adjusted is None
