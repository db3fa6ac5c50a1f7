"""The private calendar feed (/calendar/<token>.ics), its owner's page (/me/calendar/)
and the one-session download (/sessions/<pk>/calendar.ics). Every feed is parsed back
with icalendar, as a calendar app would read it."""

from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from icalendar import Calendar

from cadence.models import CalendarFeed
from cadence.services_calendar import calendar_feed_create_or_rotate, calendar_feed_revoke
from coaching.models import CoachingSession
from coaching.services import (
    agenda_item_add,
    commitment_create,
    notes_save,
    private_note_save,
    session_cancel,
    session_mark_held,
    session_reschedule,
)
from people.models import AuditEvent
from tests.support.factories import one_on_one

SITE = "https://tandem.example.com"


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = SITE


def feed_path(feed: CalendarFeed) -> str:
    return f"/calendar/{feed.token}.ics"


def parse(response) -> Calendar:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def events(calendar: Calendar) -> dict[str, object]:
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def uid(session) -> str:
    return f"session-{session.pk}@tandem.example.com"


def soon(days=1, hour=9):
    """A whole-hour start `days` from now (UTC)."""
    return (timezone.now() + timedelta(days=days)).replace(
        hour=hour, minute=0, second=0, microsecond=0
    )


# --- The feed ------------------------------------------------------------------------


def test_it_lists_the_persons_sessions_in_their_own_time_zone(org, client):
    org.rep.time_zone = "America/New_York"
    org.rep.save(update_fields=["time_zone"])
    session = one_on_one(org.manager, org.rep, start=soon(days=3, hour=14))
    feed = calendar_feed_create_or_rotate(person=org.rep)

    response = client.get(feed_path(feed))
    calendar = parse(response)

    assert response["Cache-Control"] == "private, max-age=300"
    event = events(calendar)[uid(session)]
    start, end = event["DTSTART"], event["DTEND"]
    assert start.params["TZID"] == "America/New_York"
    assert end.params["TZID"] == "America/New_York"
    local = session.scheduled_start.astimezone(ZoneInfo("America/New_York"))
    assert start.dt.replace(tzinfo=None) == local.replace(tzinfo=None)  # the wall time
    assert start.dt == session.scheduled_start  # and the same instant
    assert end.dt - start.dt == timedelta(minutes=30)
    assert str(event["SUMMARY"]) == "1:1 with Mia Manager"
    assert str(event["STATUS"]) == "CONFIRMED"
    assert event.decoded("SEQUENCE") == 0
    assert str(event["URL"]) == f"{SITE}/sessions/{session.pk}/"
    # The coachee is sent to prepare; the zone travels with the feed.
    assert (
        str(event["DESCRIPTION"])
        == f"Prepare for this session: {SITE}/sessions/{session.pk}/prepare/"
    )
    assert [tz["TZID"] for tz in calendar.walk("VTIMEZONE")] == ["America/New_York"]
    assert calendar.subcomponents[0].name == "VTIMEZONE"  # before the events using it
    assert calendar["REFRESH-INTERVAL"].to_ical() == b"PT1H"
    assert calendar.get_missing_tzids() == set()


def test_it_shows_the_coach_the_same_session_in_the_coachs_zone_without_a_prep_link(org, client):
    session = one_on_one(org.manager, org.rep, start=soon(days=3, hour=14))
    feed = calendar_feed_create_or_rotate(person=org.manager)

    event = events(parse(client.get(feed_path(feed))))[uid(session)]

    assert event["DTSTART"].params["TZID"] == "Europe/Berlin"
    local = session.scheduled_start.astimezone(ZoneInfo("Europe/Berlin"))
    assert event["DTSTART"].dt.hour == local.hour
    assert str(event["SUMMARY"]) == "1:1 with Rita Rep"
    assert "DESCRIPTION" not in event


def test_a_person_on_utc_gets_utc_times_and_no_vtimezone(org, client):
    org.rep.time_zone = "UTC"
    org.rep.save(update_fields=["time_zone"])
    session = one_on_one(org.manager, org.rep, start=soon(days=3, hour=14))
    feed = calendar_feed_create_or_rotate(person=org.rep)

    calendar = parse(client.get(feed_path(feed)))

    event = events(calendar)[uid(session)]
    assert event["DTSTART"].dt == session.scheduled_start
    assert event["DTSTART"].dt.utcoffset() == timedelta(0)
    assert calendar.walk("VTIMEZONE") == []


def test_it_keeps_the_uid_and_raises_the_sequence_when_a_session_moves(org, client):
    session = one_on_one(org.manager, org.rep, start=soon(days=2))
    feed = calendar_feed_create_or_rotate(person=org.rep)
    before = events(parse(client.get(feed_path(feed))))[uid(session)]

    new_start = soon(days=4, hour=11)
    session_reschedule(session=session, actor=org.manager, start=new_start)
    after_events = events(parse(client.get(feed_path(feed))))

    assert list(after_events) == [uid(session)]  # moved, not duplicated
    after = after_events[uid(session)]
    assert after.decoded("SEQUENCE") > before.decoded("SEQUENCE")
    assert after["DTSTART"].dt == new_start
    assert after["DTSTART"].dt != before["DTSTART"].dt
    assert after["DTEND"].dt == new_start + timedelta(minutes=30)


def test_it_marks_a_cancelled_session_cancelled_with_a_higher_sequence(org, client):
    session = one_on_one(org.manager, org.rep, start=soon(days=2))
    feed = calendar_feed_create_or_rotate(person=org.rep)
    before = events(parse(client.get(feed_path(feed))))[uid(session)]

    session_cancel(session=session, actor=org.manager, reason="sick")
    event = events(parse(client.get(feed_path(feed))))[uid(session)]

    assert str(event["STATUS"]) == "CANCELLED"
    assert str(event["TRANSP"]) == "TRANSPARENT"
    assert event.decoded("SEQUENCE") > before.decoded("SEQUENCE")
    assert "DESCRIPTION" not in event  # nothing left to prepare for


def test_it_keeps_held_and_missed_sessions_as_past_events(org, client):
    held = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=3))
    session_mark_held(session=held, actor=org.manager)
    missed = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=5))
    CoachingSession.objects.filter(pk=missed.pk).update(status="missed", missed_at=timezone.now())
    feed = calendar_feed_create_or_rotate(person=org.rep)

    found = events(parse(client.get(feed_path(feed))))

    assert str(found[uid(held)]["STATUS"]) == "CONFIRMED"
    assert str(found[uid(missed)]["STATUS"]) == "CONFIRMED"
    assert "DESCRIPTION" not in found[uid(held)]


def test_it_covers_two_weeks_back_to_twelve_weeks_ahead(org, client):
    too_old = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=15))
    recent = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=13))
    ahead = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(weeks=11))
    too_far = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(weeks=13))
    feed = calendar_feed_create_or_rotate(person=org.rep)

    found = events(parse(client.get(feed_path(feed))))

    assert set(found) == {uid(recent), uid(ahead)}
    assert uid(too_old) not in found and uid(too_far) not in found


def test_it_leaves_out_other_peoples_sessions(org, client):
    mine = one_on_one(org.manager, org.rep)
    peers = one_on_one(org.manager, org.peer)
    elsewhere = one_on_one(org.other_manager, org.other_rep)
    feed = calendar_feed_create_or_rotate(person=org.rep)

    found = events(parse(client.get(feed_path(feed))))

    assert set(found) == {uid(mine)}
    assert uid(peers) not in found and uid(elsewhere) not in found
    assert b"Pavel Peer" not in client.get(feed_path(feed)).content


def test_it_answers_404_to_a_wrong_token(org, client):
    one_on_one(org.manager, org.rep)
    calendar_feed_create_or_rotate(person=org.rep)

    assert client.get("/calendar/not-the-token.ics").status_code == 404
    assert client.get("/calendar/.ics").status_code == 404


def test_it_answers_404_once_the_feed_is_revoked(org, client):
    feed = calendar_feed_create_or_rotate(person=org.rep)
    assert client.get(feed_path(feed)).status_code == 200

    calendar_feed_revoke(person=org.rep)

    assert client.get(feed_path(feed)).status_code == 404


def test_rotating_gives_a_new_token_and_the_old_one_stops_working(org, client):
    old = calendar_feed_create_or_rotate(person=org.rep)
    new = calendar_feed_create_or_rotate(person=org.rep)

    assert new.token != old.token
    assert len(new.token) >= 43
    assert client.get(feed_path(old)).status_code == 404
    assert client.get(feed_path(new)).status_code == 200
    assert CalendarFeed.objects.filter(person=org.rep).count() == 1


def test_it_answers_404_for_a_deactivated_person(org, client):
    feed = calendar_feed_create_or_rotate(person=org.rep)
    org.rep.is_active = False
    org.rep.save(update_fields=["is_active"])

    assert client.get(feed_path(feed)).status_code == 404


def test_it_audits_creation_rotation_and_revocation_without_the_token(org):
    first = calendar_feed_create_or_rotate(person=org.rep)
    second = calendar_feed_create_or_rotate(person=org.rep)
    calendar_feed_revoke(person=org.rep)
    calendar_feed_revoke(person=org.rep)  # nothing left: nothing recorded

    trail = list(AuditEvent.objects.filter(verb__startswith="calendar_feed.").order_by("pk"))
    assert [(e.verb, e.data) for e in trail] == [
        ("calendar_feed.created", {"rotated": False}),
        ("calendar_feed.created", {"rotated": True}),
        ("calendar_feed.revoked", {}),
    ]
    assert all(e.actor == org.rep for e in trail)
    for event in trail:
        written = f"{event.target_repr} {event.data}"
        assert first.token not in written and second.token not in written


def test_the_feed_query_count_does_not_grow_with_the_sessions(org, client):
    feed = calendar_feed_create_or_rotate(person=org.manager)

    def count_for(how_many: int) -> int:
        CoachingSession.objects.all().delete()
        for n in range(how_many):
            coachee = org.rep if n % 2 else org.peer
            one_on_one(org.manager, coachee, start=soon(days=1 + n, hour=8 + n % 8))
        with CaptureQueriesContext(connection) as queries:
            response = client.get(feed_path(feed))
        assert len(parse(response).walk("VEVENT")) == how_many
        return len(queries)

    # 1. the feed and its person by token; 2. the sessions in the window (with
    # team, focus area and call joined); 3. their participants with people.
    assert count_for(3) == count_for(30) == 3


def test_no_notes_agenda_or_commitments_reach_any_calendar(org, client_for):
    session = one_on_one(org.manager, org.rep)
    private_note_save(
        session=session, author=org.manager, text="PRIVATE-MARKER-7f3a", base_version=0
    )
    private_note_save(
        session=session, author=org.rep, text="REP-PRIVATE-MARKER-21c9", base_version=0
    )
    notes_save(
        session=session,
        actor=org.manager,
        base_version=0,
        changes={"goal": "SHARED-GOAL-MARKER", "notes": "SHARED-NOTES-MARKER"},
    )
    agenda_item_add(session=session, actor=org.rep, text="AGENDA-MARKER")
    commitment_create(
        session=session,
        actor=org.manager,
        text="COMMITMENT-MARKER",
        evidence="EVIDENCE-MARKER",
        due_on=date.today() + timedelta(days=7),
    )
    bodies = []
    for person in (org.manager, org.rep):
        feed = calendar_feed_create_or_rotate(person=person)
        client = client_for(person)
        bodies.append(client.get(feed_path(feed)).content)
        bodies.append(client.get(f"/sessions/{session.pk}/calendar.ics").content)

    for body in bodies:
        assert uid(session).encode() in body
        assert b"MARKER" not in body


# --- One session ---------------------------------------------------------------------


def test_a_participant_downloads_one_session_in_their_time_zone(org, client_for):
    session = one_on_one(org.manager, org.rep, start=soon(days=2, hour=15))

    response = client_for(org.rep).get(f"/sessions/{session.pk}/calendar.ics")
    calendar = parse(response)

    assert response["Content-Disposition"] == f'attachment; filename="session-{session.pk}.ics"'
    [event] = calendar.walk("VEVENT")
    assert str(event["UID"]) == uid(session)
    assert event["DTSTART"].params["TZID"] == "Europe/Berlin"
    assert event["DTSTART"].dt == session.scheduled_start
    assert str(event["SUMMARY"]) == "1:1 with Mia Manager"


def test_the_managers_manager_may_download_a_session_they_can_see(org, client_for):
    session = one_on_one(org.manager, org.rep)

    response = client_for(org.head).get(f"/sessions/{session.pk}/calendar.ics")

    [event] = parse(response).walk("VEVENT")
    assert str(event["SUMMARY"]) == "1:1 with Mia Manager and Rita Rep"


@pytest.mark.parametrize("outsider", ["other_manager", "other_rep", "peer", "hr", "admin"])
def test_outsiders_get_404_for_a_single_session(org, client_for, outsider):
    session = one_on_one(org.manager, org.rep)

    response = client_for(getattr(org, outsider)).get(f"/sessions/{session.pk}/calendar.ics")

    assert response.status_code == 404


def test_a_single_session_needs_sign_in(org, client):
    session = one_on_one(org.manager, org.rep)

    response = client.get(f"/sessions/{session.pk}/calendar.ics")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


# --- The owner's page ----------------------------------------------------------------


def test_anonymous_visitors_to_the_calendar_page_are_sent_to_sign_in(client):
    response = client.get("/me/calendar/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_the_page_creates_shows_rotates_and_revokes_the_address(org, client_for):
    client = client_for(org.rep)

    page = client.get("/me/calendar/")
    assert page.status_code == 200
    assert b"You have no calendar address." in page.content

    client.post("/me/calendar/new/")
    first = CalendarFeed.objects.get(person=org.rep)
    page = client.get("/me/calendar/")
    assert f"{SITE}/calendar/{first.token}.ics".encode() in page.content
    assert f"webcal://tandem.example.com/calendar/{first.token}.ics".encode() in page.content

    response = client.post("/me/calendar/new/")
    assert response.status_code == 302
    second = CalendarFeed.objects.get(person=org.rep)
    assert second.token != first.token
    assert first.token.encode() not in client.get("/me/calendar/").content

    response = client.post("/me/calendar/revoke/")
    assert response.status_code == 302
    assert not CalendarFeed.objects.filter(person=org.rep).exists()
    assert client.get(feed_path(second)).status_code == 404


def test_the_page_shows_only_the_viewers_own_address(org, client_for):
    theirs = calendar_feed_create_or_rotate(person=org.manager)

    page = client_for(org.rep).get("/me/calendar/")

    assert theirs.token.encode() not in page.content
    assert b"You have no calendar address." in page.content


def test_changing_the_address_needs_a_post(org, client_for):
    client = client_for(org.rep)

    assert client.get("/me/calendar/new/").status_code == 405
    assert client.get("/me/calendar/revoke/").status_code == 405
    assert not CalendarFeed.objects.exists()
