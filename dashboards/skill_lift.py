"""Does coaching move skill? For one focus area: the people it is for who were scored
by coaches or peers in two months or more of the window, in two groups by how many of
their 1:1s were held — at least `KEPT_SHARE` of those due, or fewer — and how far each
group's skill moved from the first month each person was scored to the last. The
answer a head of sales asks before protecting the cadence through the next crunch
(the "will gap": show the lift).

A comparison, not proof: the two groups differ in more than their 1:1s, and the page
says so. Both groups or neither: a group's average beside the monthly averages would
come close to telling the other's, so the comparison is shown only when each group
holds `MIN_GROUP` people or more. Only people with a 1:1 due in the window take part
(someone never planned a 1:1 is not "coached less"; managers are coached in reviews).
Held ÷ due is cadence health's adherence, over 1:1s only
(`cadence.health.one_on_ones_by_coachee`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from .privacy import too_few

KEPT_SHARE = 0.8  # 1:1s held at least 4 times in 5
KEPT_LABEL = "held 4 in 5 or more"
SLIPPED_LABEL = "held fewer"


@dataclass(frozen=True)
class LiftGroup:
    people: int
    first: float  # the group's mean of each person's first scored month (their average)
    last: float  # … and of their last

    @property
    def change(self) -> float:
        return round(self.last - self.first, 2)


@dataclass(frozen=True)
class Lift:
    """`compared`: the people scored in two months or more with a 1:1 due; the groups
    are None unless each holds MIN_GROUP people or more."""

    compared: int
    kept: LiftGroup | None = None
    slipped: LiftGroup | None = None

    @property
    def shown(self) -> bool:
        return self.kept is not None

    @property
    def difference(self) -> float | None:
        """How much further the kept group moved than the other."""
        if self.kept is None or self.slipped is None:
            return None
        return round(self.kept.change - self.slipped.change, 2)


# A person's monthly average on one area, by month.
Series = dict[date, float]


def lift(series: dict[int, Series], held: dict[int, tuple[int, int]]) -> Lift:
    """The comparison for one area from each person's monthly averages on it and their
    1:1s, due and held (`cadence.health.one_on_ones_by_coachee`)."""
    kept, slipped = [], []
    for person, months in series.items():
        due, done = held.get(person, (0, 0))
        if len(months) < 2 or not due:
            continue
        ends = (months[min(months)], months[max(months)])
        (kept if done >= KEPT_SHARE * due else slipped).append(ends)
    compared = len(kept) + len(slipped)
    if too_few(len(kept)) or too_few(len(slipped)):
        return Lift(compared)
    return Lift(compared, _group(kept), _group(slipped))


def _group(ends: list[tuple[float, float]]) -> LiftGroup:
    n = len(ends)
    return LiftGroup(
        people=n,
        first=round(sum(first for first, _ in ends) / n, 2),
        last=round(sum(last for _, last in ends) / n, 2),
    )
