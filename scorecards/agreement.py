"""How far raters agree: per criterion (spread, the share within one point of the
median, the outliers) and overall (Krippendorff's alpha, interval metric, with the
criteria as the units). Pure functions over plain numbers, so they are checked against
hand-computed values."""

from dataclasses import dataclass
from itertools import combinations
from statistics import median


@dataclass(frozen=True)
class CriterionAgreement:
    median: float
    low: int
    high: int
    within_one: float  # share of raters within one point of the median, 0–1
    outliers: tuple  # the keys of raters more than one point from the median

    @property
    def spread(self) -> int:
        return self.high - self.low


def criterion_agreement(ratings: dict) -> CriterionAgreement | None:
    """`ratings`: rater key → rating for one criterion. None without ratings."""
    if not ratings:
        return None
    mid = median(ratings.values())
    close = [key for key, value in ratings.items() if abs(value - mid) <= 1]
    return CriterionAgreement(
        median=float(mid),
        low=min(ratings.values()),
        high=max(ratings.values()),
        within_one=len(close) / len(ratings),
        outliers=tuple(key for key in ratings if key not in close),
    )


def krippendorff_alpha_interval(units: list[list[float]]) -> float | None:
    """Krippendorff's alpha for interval data. `units`: for each unit (criterion) the
    values the raters gave; units with fewer than two values are not pairable and
    are left out. None when there is nothing to compare or no variation at all (alpha
    is undefined then)."""
    pairable = [values for values in units if len(values) >= 2]
    pooled = [v for values in pairable for v in values]
    n = len(pooled)
    if n < 2:
        return None
    observed = (
        sum(
            2 * sum((a - b) ** 2 for a, b in combinations(values, 2)) / (len(values) - 1)
            for values in pairable
        )
        / n
    )
    expected = 2 * sum((a - b) ** 2 for a, b in combinations(pooled, 2)) / (n * (n - 1))
    if expected == 0:
        return None
    return 1 - observed / expected
