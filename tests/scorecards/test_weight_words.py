"""A criterion's weight reads as people write it, on the scorecard and the library."""

from decimal import Decimal

import pytest

from scorecards.templatetags.scorecard_numbers import weight


@pytest.mark.parametrize(
    ("stored", "shown"),
    [("2.00", "2"), ("1.50", "1.5"), ("0.25", "0.25"), ("10.00", "10"), ("1", "1")],
)
def test_a_weight_drops_the_zeros_nobody_writes(stored, shown):
    assert weight(Decimal(stored)) == shown
