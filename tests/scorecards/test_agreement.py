"""Agreement statistics against hand-computed values."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorecards.agreement import criterion_agreement, krippendorff_alpha_interval


def test_alpha_on_a_small_case_computed_by_hand():
    # Pooled values 1,2,3,3,4,4 (n = 6): within-unit squared differences sum to 1,
    # all pairs to 41, so alpha = 1 - (n - 1) * 1 / 41 = 36/41.
    assert krippendorff_alpha_interval([[1, 2], [3, 3], [4, 4]]) == pytest.approx(36 / 41)


def test_alpha_matches_krippendorffs_published_example():
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability": four
    # observers, twelve units, some values missing; interval alpha = 0.849.
    units = [
        [1, 1, 1],
        [2, 2, 3, 2],
        [3, 3, 3, 3],
        [3, 3, 3, 3],
        [2, 2, 2, 2],
        [1, 2, 3, 4],
        [4, 4, 4, 4],
        [1, 1, 2, 1],
        [2, 2, 2, 2],
        [5, 5, 5],
        [1, 1],
        [3],
    ]
    assert krippendorff_alpha_interval(units) == pytest.approx(0.849, abs=0.0005)


def test_alpha_is_undefined_without_variation_or_pairs():
    assert krippendorff_alpha_interval([[3, 3], [3, 3]]) is None
    assert krippendorff_alpha_interval([[3], [4]]) is None


def test_perfect_agreement_with_variation_is_one():
    assert krippendorff_alpha_interval([[1, 1], [4, 4], [2, 2]]) == pytest.approx(1.0)


def test_per_criterion_agreement_names_the_outliers():
    result = criterion_agreement({"ana": 3, "ben": 3, "cy": 4, "dee": 1})
    assert result.median == 3.0
    assert (result.low, result.high, result.spread) == (1, 4, 3)
    assert result.within_one == 0.75
    assert result.outliers == ("dee",)


@given(st.lists(st.lists(st.integers(1, 4), min_size=2, max_size=6), min_size=2, max_size=8))
def test_alpha_never_exceeds_one(units):
    alpha = krippendorff_alpha_interval(units)
    assert alpha is None or alpha <= 1 + 1e-9
