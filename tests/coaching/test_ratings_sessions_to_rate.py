"""The sessions waiting for a person's rating: held, as their coachee, in a rated kind,
still open (14 days after they were held), not rated yet — newest first."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from coaching.ratings import sessions_to_rate
from coaching.services import peer_session_create, session_mark_held
from tests.support.coaching_ratings import held, rate
from tests.support.factories import one_on_one


@pytest.mark.django_db
def test_it_lists_held_unrated_sessions_of_the_coachee_newest_first(org):
    older = held(org.manager, org.rep, ago=timedelta(days=6))
    newer = held(org.manager, org.rep, ago=timedelta(days=2))
    review = held(org.head, org.manager, ago=timedelta(days=3), kind="manager_review")
    assert [s.pk for s in sessions_to_rate(person=org.rep)] == [newer.pk, older.pk]
    assert [s.coach_name for s in sessions_to_rate(person=org.rep)] == ["Mia Manager"] * 2
    # The manager is the coachee of their review, and the coach of the 1:1s.
    assert [s.pk for s in sessions_to_rate(person=org.manager)] == [review.pk]


@pytest.mark.django_db
def test_rated_closed_unheld_and_peer_sessions_are_not_waiting(org):
    rated = held(org.manager, org.rep, ago=timedelta(days=1))
    rate(rated, org.rep, 5)
    held(org.manager, org.rep, ago=timedelta(days=16))  # closed two days ago
    one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(hours=3))  # not logged
    peer = peer_session_create(
        actor=org.rep, peer=org.peer, start=timezone.now() - timedelta(hours=2)
    )
    session_mark_held(session=peer, actor=org.rep)
    assert sessions_to_rate(person=org.rep) == []
    assert sessions_to_rate(person=org.peer) == []


@pytest.mark.django_db
def test_a_session_drops_off_the_list_when_its_fourteen_days_are_over(org):
    session = held(org.manager, org.rep, ago=timedelta(hours=1))
    closes = session.held_at + timedelta(days=14)
    assert sessions_to_rate(person=org.rep, now=closes - timedelta(seconds=1)) == [session]
    assert sessions_to_rate(person=org.rep, now=closes + timedelta(seconds=1)) == []
    with time_machine.travel(closes + timedelta(seconds=1), tick=False):
        assert sessions_to_rate(person=org.rep) == []
