"""Migration coaching/0018 copies each existing rating's `closes_at` from its session
(held_at + 14 days) in one statement, so ratings given before the upgrade count on
the dashboards exactly as new ones do."""

from datetime import timedelta

import pytest

from coaching.models import SessionRating
from tests.support.coaching_ratings import held, rate
from tests.support.migrations import migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE, AFTER = ("coaching", "0017_usefulness_release"), ("coaching", "0018_rating_closes_at")


def test_existing_ratings_close_fourteen_days_after_their_session_was_held(org):
    sessions = [held(org.manager, org.rep, ago=timedelta(days=d)) for d in (2, 9)]
    for session in sessions:
        rate(session, org.rep, 4)
    migrate(BEFORE)  # the column goes, as before the upgrade
    try:
        migrate(AFTER)
    finally:
        migrate_to_latest()  # leave the schema as found whatever happened
    closes = dict(SessionRating.objects.values_list("session_id", "closes_at"))
    assert closes == {s.pk: s.held_at + timedelta(days=14) for s in sessions}
