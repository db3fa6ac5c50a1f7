"""My sessions (`/sessions/`): the sessions I take part in, the next 20 soonest first
and the latest 30 newest first, whoever else's sessions there are."""

from datetime import timedelta

import pytest
from django.utils import timezone

from coaching import selectors
from tests.support.factories import one_on_one

pytestmark = pytest.mark.django_db


def test_it_holds_my_sessions_only_in_order(org):
    now = timezone.now()
    ahead = [one_on_one(org.manager, org.rep, start=now + timedelta(days=d)) for d in (9, 2, 5)]
    past = [one_on_one(org.manager, org.rep, start=now - timedelta(days=d)) for d in (8, 1, 4)]
    one_on_one(org.manager, org.peer, start=now + timedelta(days=3))  # not Rita's
    one_on_one(org.other_manager, org.other_rep, start=now - timedelta(days=2))

    upcoming, recent = selectors.upcoming_and_recent(person=org.rep, upcoming=20, recent=30)
    assert upcoming == sorted(ahead, key=lambda s: s.scheduled_start)
    assert recent == sorted(past, key=lambda s: s.scheduled_start, reverse=True)
    assert selectors.upcoming_and_recent(person=org.rep, upcoming=1, recent=2) == (
        upcoming[:1],
        recent[:2],
    )
    # Each with its people, read in one prefetch for both lists.
    for session in [*upcoming, *recent]:
        assert {p.person for p in session.participants.all()} == {org.manager, org.rep}
    # The coach sees the same sessions from the other side, and the peer's too.
    assert len(selectors.upcoming_and_recent(person=org.manager, upcoming=20, recent=30)[0]) == 4
    assert selectors.upcoming_and_recent(person=org.head, upcoming=20, recent=30) == ([], [])


def test_a_session_under_way_is_in_both_lists_with_its_people(org):
    """Scheduled and started within two hours: still upcoming (not logged yet) and
    already recent; the one prefetch gives both copies their people."""
    started = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(hours=1))
    upcoming, recent = selectors.upcoming_and_recent(person=org.rep, upcoming=5, recent=5)
    assert upcoming == recent == [started]
    for session in (upcoming[0], recent[0]):
        assert len(session.participants.all()) == 2
