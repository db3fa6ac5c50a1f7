"""Move it, don't cancel it: the cancel and move pages offer the free slots of the
session's week, one click takes one; a move onto a clash, into the past, onto a
closed day or with a malformed time is refused with a message, page and API alike,
and changes nothing. (Earlier in its own week is no mistake: that records when people
met.)"""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from rest_framework.test import APIClient

from cadence.health import Scope, health
from cadence.models import Closure
from coaching.models import CoachingSession
from coaching.services import peer_session_create, session_mark_held
from tests.support.factories import one_on_one

MONDAY = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)  # Monday 7 December 2026
TUESDAY_10 = datetime(2026, 12, 8, 9, 0, tzinfo=UTC)  # Tuesday 10:00 in Berlin


@pytest.fixture
def moment():
    with time_machine.travel(MONDAY, tick=False):
        yield


@pytest.fixture
def session(org, moment):
    return one_on_one(org.manager, org.rep, start=TUESDAY_10)


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def unchanged(session) -> bool:
    row = CoachingSession.objects.get(pk=session.pk)
    return (row.scheduled_start, row.status) == (TUESDAY_10, "scheduled")


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["cancel", "reschedule"])
def test_the_cancel_and_move_pages_offer_the_free_slots_of_the_week(client_for, org, session, page):
    body = client_for(org.manager).get(f"/sessions/{session.pk}/{page}/").content.decode()
    assert "free this week" in body.lower()
    # Berlin 09:00–17:00 for both; Wednesday 9 December 11:30 among them, in her zone.
    assert 'value="2026-12-09T11:30"' in body
    assert 'aria-label="Move it to Wednesday 9 December, 11:30"' in body
    assert "Move it to Tuesday 8 December, 10:00" not in body  # where it is now


@pytest.mark.django_db
def test_one_click_moves_it_within_its_week_and_it_counts_as_kept(client_for, org, session):
    client = client_for(org.manager)
    response = client.post(
        f"/sessions/{session.pk}/reschedule/",
        {"scheduled_start": "2026-12-10T14:00", "duration_minutes": "30"},
    )
    assert response.status_code == 302
    moved = CoachingSession.objects.get(pk=session.pk)
    assert moved.scheduled_start == datetime(2026, 12, 10, 13, 0, tzinfo=UTC)
    assert moved.original_start == TUESDAY_10
    with time_machine.travel(datetime(2026, 12, 10, 13, 35, tzinfo=UTC), tick=False):
        session_mark_held(session=moved, actor=org.manager)
        numbers = health(
            Scope.person(org.rep),
            since=datetime(2026, 12, 7, tzinfo=UTC),
            until=datetime(2026, 12, 14, tzinfo=UTC),
        )
    assert (numbers.held, numbers.on_time) == (1, 1)


@pytest.mark.django_db
def test_a_page_with_no_free_slot_left_says_so_and_still_lets_one_cancel(client_for, org):
    with time_machine.travel(datetime(2026, 12, 11, 15, 50, tzinfo=UTC), tick=False):
        late = one_on_one(org.manager, org.rep, start=datetime(2026, 12, 11, 15, 55, tzinfo=UTC))
        body = client_for(org.manager).get(f"/sessions/{late.pk}/cancel/").content.decode()
    assert "No time left in its week" in body
    assert "Cancel the session" in body


def clashing(org):
    """Mia's 1:1 with Pavel on Wednesday 10:00 Berlin, and a peer session of Rita's
    (not Mia's) on Thursday 10:00 Berlin."""
    one_on_one(org.manager, org.peer, start=datetime(2026, 12, 9, 9, 0, tzinfo=UTC))
    peer_session_create(
        actor=org.rep, peer=org.peer, start=datetime(2026, 12, 10, 9, 0, tzinfo=UTC)
    )


BAD_MOVES = [
    # (local time sent by the page, the API's time, words of the refusal; the API's own
    # words for a malformed time)
    ("2026-12-09T10:15", "2026-12-09T09:15:00Z", "clashes with your 1:1 with Pavel Peer"),
    ("2026-12-10T10:00", "2026-12-10T09:00:00Z", "another session of Rita Rep"),
    ("2026-12-04T10:00", "2026-12-04T09:00:00Z", "That time has passed"),  # last week
    ("2026-12-11T10:00", "2026-12-11T09:00:00Z", "Friday 11 December is a closed day"),
    ("2026-13-45T99:00", "next tuesday", "valid date|wrong format"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("local, _, words", BAD_MOVES)
def test_a_bad_move_on_the_page_is_a_400_with_the_reason_and_changes_nothing(
    client_for, org, session, local, _, words
):
    clashing(org)
    Closure.objects.create(
        name="Shutdown", first_day=date(2026, 12, 11), last_day=date(2026, 12, 11)
    )
    response = client_for(org.manager).post(
        f"/sessions/{session.pk}/reschedule/", {"scheduled_start": local}
    )
    assert response.status_code == 400
    assert words.split("|")[0] in response.content.decode()
    assert unchanged(session)


@pytest.mark.django_db
@pytest.mark.parametrize("_, sent, words", BAD_MOVES)
def test_a_bad_move_in_the_api_is_a_400_with_the_reason_and_changes_nothing(
    org, session, _, sent, words
):
    clashing(org)
    Closure.objects.create(
        name="Shutdown", first_day=date(2026, 12, 11), last_day=date(2026, 12, 11)
    )
    response = api(org.manager).post(
        f"/api/v1/sessions/{session.pk}/reschedule/", {"scheduled_start": sent}, format="json"
    )
    assert response.status_code == 400
    assert words.split("|")[-1].lower() in str(response.json()).lower()
    assert unchanged(session)


@pytest.mark.django_db
def test_a_move_that_only_touches_the_end_of_another_session_is_no_clash(org, session):
    clashing(org)  # Mia's 1:1 with Pavel: Wednesday 09:00–09:30 UTC
    response = api(org.manager).post(
        f"/api/v1/sessions/{session.pk}/reschedule/",
        {"scheduled_start": "2026-12-09T09:30:00Z"},
        format="json",
    )
    assert response.status_code == 200, response.json()


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["cancel", "reschedule"])
@pytest.mark.parametrize("others", [1, 10])
def test_the_pages_cost_the_same_whatever_the_week_holds(
    client_for, org, session, page, others, django_assert_num_queries
):
    for n in range(others):
        one_on_one(org.manager, org.peer, start=MONDAY + timedelta(days=n % 5, hours=2 + n // 5))
    client = client_for(org.manager)
    client.get(f"/sessions/{session.pk}/{page}/")
    # Session and person, the header's unread count, the session with its people,
    # notes and team (three), the busy sessions, the closed days.
    with django_assert_num_queries(8):
        assert client.get(f"/sessions/{session.pk}/{page}/").status_code == 200


@pytest.mark.django_db
def test_earlier_in_its_own_week_records_when_people_met(client_for, org, session):
    with time_machine.travel(datetime(2026, 12, 8, 12, 0, tzinfo=UTC), tick=False):
        response = client_for(org.manager).post(
            f"/sessions/{session.pk}/reschedule/", {"scheduled_start": "2026-12-07T15:00"}
        )
    assert response.status_code == 302
    moved = CoachingSession.objects.get(pk=session.pk)
    assert moved.scheduled_start == datetime(2026, 12, 7, 14, 0, tzinfo=UTC)
