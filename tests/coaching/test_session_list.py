"""My sessions (`/sessions/`): the sessions I take part in, the next 20 soonest first
and the latest 30 newest first, whoever else's sessions there are."""

from datetime import timedelta

import pytest
from django.utils import timezone

from coaching import selectors
from tests.factories import one_on_one

pytestmark = pytest.mark.django_db


def test_it_holds_my_sessions_only_in_order(org):
    now = timezone.now()
    ahead = [one_on_one(org.manager, org.rep, start=now + timedelta(days=d)) for d in (9, 2, 5)]
    past = [one_on_one(org.manager, org.rep, start=now - timedelta(days=d)) for d in (8, 1, 4)]
    one_on_one(org.manager, org.peer, start=now + timedelta(days=3))  # not Rita's
    one_on_one(org.other_manager, org.other_rep, start=now - timedelta(days=2))

    upcoming = selectors.upcoming_sessions(person=org.rep, limit=20)
    assert upcoming == sorted(ahead, key=lambda s: s.scheduled_start)
    recent = selectors.recent_sessions(person=org.rep, limit=30)
    assert recent == sorted(past, key=lambda s: s.scheduled_start, reverse=True)
    assert selectors.recent_sessions(person=org.rep, limit=2) == recent[:2]
    # The coach sees the same sessions from the other side, and the peer's too.
    assert len(selectors.upcoming_sessions(person=org.manager, limit=20)) == 4
    assert selectors.recent_sessions(person=org.head, limit=30) == []
