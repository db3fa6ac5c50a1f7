"""`health_by_coach` gives every coach the numbers `health(Scope.coach(p))` gives them
one at a time — on the fixed data set of the cadence-health tests, for managers,
a manager of managers, a rep and someone who led nothing — in three queries however
many coaches."""

import pytest
import time_machine

from cadence.health import HealthNumbers, Scope, health, health_by_coach
from coaching.models import SessionParticipant
from coaching.services import role_play_create
from tests.support.cadence_health import (  # noqa: F401 - `world` is a fixture
    MIA,
    NOW,
    SINCE,
    UNTIL,
    count_queries,
    days_ago,
    grow,
    held,
    world,
)
from tests.support.factories import FocusAreaFactory


def everyone(org):
    return [org.head, org.manager, org.other_manager, org.rep, org.peer, org.hr]


@pytest.mark.django_db
def test_it_equals_the_one_coach_numbers_for_every_coach(world):  # noqa: F811
    org = world.org
    by_coach = health_by_coach(everyone(org), since=SINCE, until=UNTIL, now=NOW)
    for person in everyone(org):
        assert by_coach[person.pk] == health(
            Scope.coach(person), since=SINCE, until=UNTIL, now=NOW
        ), person.display_name
    assert by_coach[org.manager.pk] == MIA  # she led every session of her people
    # Hana led one manager review (empty); her direct reports are the two managers,
    # HR, the admin — none had a 1:1.
    assert by_coach[org.head.pk] == HealthNumbers(
        due=1, held=1, on_time=1, held_but_empty=1, reps=4, covered=0
    )
    assert by_coach[org.hr.pk] == HealthNumbers()


@pytest.mark.django_db
def test_a_session_led_by_two_counts_for_each_of_them(world):  # noqa: F811
    org = world.org
    with time_machine.travel(NOW, tick=False):
        practice = role_play_create(
            coach=org.manager,
            participants=[org.rep, org.peer],
            focus_area=FocusAreaFactory(),
            start=days_ago(9),
            scenario="The buyer pushes back on price",
        )
        held(practice, org.manager)
    # Hana sits in as a second lead (a manager role in the session).
    SessionParticipant.objects.create(
        session=practice, person=org.head, role="manager", scheduled_start=practice.scheduled_start
    )
    by_coach = health_by_coach(everyone(org), since=SINCE, until=UNTIL, now=NOW)
    for person in everyone(org):
        assert by_coach[person.pk] == health(Scope.coach(person), since=SINCE, until=UNTIL, now=NOW)
    assert (by_coach[org.manager.pk].held, by_coach[org.head.pk].held) == (MIA.held + 1, 2)


@pytest.mark.django_db
@pytest.mark.parametrize("n", [3, 30])
def test_it_costs_three_queries_however_many_coaches(org, n):
    _, managers, _ = grow(org, n)
    # 1. sessions per leading person and cancel reason; 2. reps and covered reps per
    #    manager; 3. commitments per leading person.
    count, by_coach = count_queries(
        lambda: health_by_coach([org.manager, *managers], since=SINCE, until=UNTIL, now=NOW)
    )
    assert count == 3
    assert {(h.due, h.held, h.missed, h.cancelled, h.reps, h.covered) for h in (
        by_coach[m.pk] for m in managers
    )} == {(3, 1, 1, 1, 1, 1)}  # fmt: skip
    assert by_coach[org.manager.pk].reps == 2 + n  # Rita, Pavel and the new managers
