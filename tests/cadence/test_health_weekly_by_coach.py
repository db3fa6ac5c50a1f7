"""The managers' week-by-week adherence (the sparkline on "My team" and in the
managers-below table) equals `weekly_adherence(Scope.coach(p))` for every coach, on
the fixed data set of the cadence-health tests, in one query however many coaches
or weeks."""

from datetime import UTC

import pytest

from cadence.health import Scope, weekly_adherence, weekly_by_coach
from tests.support.cadence_health import (  # noqa: F401 - `world` is a fixture
    NOW,
    count_queries,
    grow,
    world,
)


def everyone(org):
    return [org.head, org.manager, org.other_manager, org.rep, org.peer, org.hr]


@pytest.mark.django_db
@pytest.mark.parametrize("weeks", [4, 8])
def test_weekly_adherence_per_coach_equals_the_one_scope_weeks(world, weeks):  # noqa: F811
    org = world.org
    coaches = [p.pk for p in everyone(org)]
    count, by_coach = count_queries(lambda: weekly_by_coach(coaches, weeks=weeks, now=NOW, tz=UTC))
    assert count == 1
    for person in everyone(org):
        one = weekly_adherence(Scope.coach(person), weeks=weeks, now=NOW, tz=UTC)
        assert by_coach[person.pk] == one
    # Mia's last four weeks, by hand: r1 held / p1 cancelled; r2 held / p2 missed;
    # r3 cancelled, p3 missed, the call review held; r4 held, p4 not yet logged.
    assert [(w.held, w.due) for w in by_coach[org.manager.pk][-4:]] == [
        (1, 2),
        (1, 2),
        (1, 3),
        (1, 2),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("n", [3, 30])
def test_it_costs_one_query_however_many_coaches(org, n):
    _, managers, _ = grow(org, n)
    count, by_coach = count_queries(
        lambda: weekly_by_coach([m.pk for m in managers], weeks=4, now=NOW, tz=UTC)
    )
    assert count == 1
    assert {sum(w.due for w in weeks) for weeks in by_coach.values()} == {3}
