"""McNemar's exact test and the pooled z-test against scipy/statsmodels and the spec's numbers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest, norm
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportions_ztest

from evalview.compare.hypothesis_tests import (
    mcnemar_exact,
    pooled_z_test,
    z_power,
    z_quantile,
)


def test_spec_worked_mcnemar_b8_c2() -> None:
    # §5: 2 × (1 + 10 + 45)/1024 = 0.109, not significant.
    r = mcnemar_exact(8, 2)
    assert r.p_value == pytest.approx(2 * (1 + 10 + 45) / 1024, abs=1e-15)
    assert round(r.p_value, 3) == 0.109
    assert r.discordant == 10


def test_mcnemar_no_discordant_pairs_is_p_one() -> None:
    assert mcnemar_exact(0, 0).p_value == 1.0


def test_mcnemar_symmetric_and_capped() -> None:
    assert mcnemar_exact(3, 9).p_value == mcnemar_exact(9, 3).p_value
    assert mcnemar_exact(5, 5).p_value == 1.0


def test_mcnemar_rejects_negative_counts() -> None:
    with pytest.raises(ValueError, match="nonnegative"):
        mcnemar_exact(-1, 2)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 400), st.integers(0, 400))
def test_mcnemar_against_statsmodels_and_scipy(b: int, c: int) -> None:
    ours = mcnemar_exact(b, c).p_value
    sm = mcnemar([[10, b], [c, 10]], exact=True).pvalue
    assert ours == pytest.approx(sm, rel=1e-9, abs=1e-300)
    if b + c:
        assert ours == pytest.approx(binomtest(b, b + c, 0.5).pvalue, rel=1e-9, abs=1e-300)


def test_mcnemar_large_counts_stay_finite() -> None:
    p = mcnemar_exact(2600, 2400).p_value
    assert 0 < p < 0.01
    assert p == pytest.approx(binomtest(2400, 5000, 0.5).pvalue, rel=1e-9)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300), st.data())
def test_z_test_against_statsmodels(n1: int, n2: int, data: st.DataObject) -> None:
    k1 = data.draw(st.integers(0, n1))
    k2 = data.draw(st.integers(0, n2))
    ours = pooled_z_test(k1, n1, k2, n2)
    if k1 + k2 in (0, n1 + n2):
        assert (ours.z, ours.p_value) == (0.0, 1.0)
        return
    z, p = proportions_ztest([k2, k1], [n2, n1])
    assert ours.z == pytest.approx(z, rel=1e-9, abs=1e-12)
    assert ours.p_value == pytest.approx(p, rel=1e-7, abs=1e-15)


def test_z_test_direction_and_errors() -> None:
    assert pooled_z_test(10, 20, 15, 20).z > 0
    assert pooled_z_test(15, 20, 10, 20).z < 0
    with pytest.raises(ValueError):
        pooled_z_test(3, 2, 1, 2)
    with pytest.raises(ValueError):
        pooled_z_test(0, 0, 1, 2)


def test_quantiles_against_scipy() -> None:
    assert z_quantile(0.05) == pytest.approx(norm.ppf(0.975), abs=1e-12)
    assert z_quantile(0.05) == pytest.approx(1.959964, abs=1e-6)
    assert z_power(0.8) == pytest.approx(0.8416, abs=1e-4)
    assert z_power(0.9) == pytest.approx(norm.ppf(0.9), abs=1e-12)
    for bad in (0.0, 1.0, -0.1, math.nan):
        with pytest.raises(ValueError):
            z_quantile(bad)
