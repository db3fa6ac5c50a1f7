"""Rating reads cost a fixed number of queries: a summary per coach is one grouped
query (one more for the comments), the same for 2 coaches as for 20; the sessions
waiting for a person's rating are one query; a rating adds none to the session page."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.ratings import rating_summaries, sessions_to_rate
from tests.support.coaching_ratings import held, rate, team_of
from tests.support.factories import UserFactory


def coaches_with_ratings(n):
    """`n` coaches, each with five ratings from three reports (so shown, with comments)."""
    coaches = []
    for _ in range(n):
        coach = UserFactory()
        reports = team_of(coach, 3)
        for day, report in enumerate([*reports, *reports[:2]], start=1):
            rate(held(coach, report, ago=timedelta(days=day)), report, 4, f"comment {day}")
        coaches.append(coach)
    return coaches


def queries(call):
    with CaptureQueriesContext(connection) as captured:
        result = call()
    return len(captured), result


@pytest.mark.django_db
def test_summaries_cost_the_same_queries_for_two_coaches_as_for_twenty():
    coaches = coaches_with_ratings(20)
    now = timezone.now()
    window = {"since": now - timedelta(days=30), "until": now}
    counts = {}
    for size in (2, 20):
        # 1: the grouped numbers per coach; 2: the comments of the coaches shown.
        counts[size, "numbers"], found = queries(
            lambda size=size: rating_summaries(coaches=coaches[:size], **window)
        )
        assert len(found) == size and all(s.shown for s in found.values())
        counts[size, "comments"], found = queries(
            lambda size=size: rating_summaries(coaches=coaches[:size], **window, with_comments=True)
        )
        assert all(len(s.comments) == 5 for s in found.values())
    assert counts == {
        (2, "numbers"): 1,
        (2, "comments"): 2,
        (20, "numbers"): 1,
        (20, "comments"): 2,
    }


@pytest.mark.django_db
def test_comments_cost_no_query_when_no_summary_is_shown(org):
    now = timezone.now()
    count, found = queries(
        lambda: rating_summaries(
            coaches=[org.manager, org.head],
            since=now - timedelta(days=30),
            until=now,
            with_comments=True,
        )
    )
    assert count == 1 and not any(s.shown for s in found.values())


@pytest.mark.django_db
def test_sessions_to_rate_are_one_query_however_many(org):
    for day in range(1, 6):
        held(org.manager, org.rep, ago=timedelta(days=day))
    count, waiting = queries(lambda: sessions_to_rate(person=org.rep))
    assert count == 1 and len(waiting) == 5
    count, _ = queries(lambda: [s.coach_name for s in sessions_to_rate(person=org.rep)])
    assert count == 1


@pytest.mark.django_db
def test_the_session_page_costs_the_same_queries_before_and_after_a_rating(client, org):
    session = held(org.manager, org.rep)

    def page_queries(user):
        client.force_login(user)
        client.get(f"/sessions/{session.pk}/")
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/sessions/{session.pk}/").status_code == 200
        return len(captured)

    rep_before, coach_before = page_queries(org.rep), page_queries(org.manager)
    rate(session, org.rep, 4, "Helpful")
    assert page_queries(org.rep) == rep_before
    assert page_queries(org.manager) == coach_before
