"""Nobody is surprised: moving or cancelling a session records who did it, from when
to when, raises the session's SEQUENCE, and tells every other participant — in the app,
in their own zone, and by email with an iTIP `.ics` (METHOD:REQUEST for a move,
METHOD:CANCEL for a cancellation) carrying the feed's UID; a session coming within
the invitation window is sent as METHOD:REQUEST once per person."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from icalendar import Calendar
from rest_framework.test import APIClient

from cadence import invitations
from cadence.calendar import event_uid
from coaching.models import SessionChange, SessionStatus
from coaching.services import session_cancel, session_reschedule
from notifications import outbox
from notifications.models import (
    Notification,
    NotificationKind,
    NotificationPreference,
    NotificationStatus,
)
from tests.support.factories import one_on_one

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # a Monday
TOMORROW_10 = datetime(2026, 3, 3, 9, 0, tzinfo=UTC)  # 10:00 in Berlin


@pytest.fixture
def zones(org):
    org.manager.time_zone = "Europe/Berlin"
    org.manager.save(update_fields=["time_zone"])
    org.rep.time_zone = "America/New_York"
    org.rep.save(update_fields=["time_zone"])
    return org


def calendar_parts(message) -> list[tuple[str, Calendar]]:
    return [
        (mimetype, Calendar.from_ical(content))
        for content, mimetype in message.alternatives
        if mimetype.startswith("text/calendar")
    ]


def the_event(calendar: Calendar):
    return next(c for c in calendar.walk("VEVENT"))


def moved(session, actor, to, minutes=None):
    return session_reschedule(session=session, actor=actor, start=to, duration_minutes=minutes)


# --- The record ----------------------------------------------------------------------


@pytest.mark.django_db
def test_each_move_is_recorded_with_who_and_from_when_to_when_and_raises_the_sequence(zones):
    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=2))
        moved(session, org.manager, TOMORROW_10 + timedelta(days=1), minutes=45)
    session.refresh_from_db()
    changes = list(SessionChange.objects.filter(session=session))
    assert [(c.kind, c.actor, c.from_start, c.to_start, c.sequence) for c in changes] == [
        ("moved", org.manager, TOMORROW_10, TOMORROW_10 + timedelta(hours=2), 1),
        (
            "moved",
            org.manager,
            TOMORROW_10 + timedelta(hours=2),
            TOMORROW_10 + timedelta(days=1),
            2,
        ),
    ]
    assert (changes[1].from_minutes, changes[1].to_minutes) == (30, 45)
    assert session.sequence == 2


@pytest.mark.django_db
def test_a_move_to_the_time_it_has_already_is_refused_and_changes_nothing(zones):
    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        with pytest.raises(ValidationError) as refused:
            moved(session, org.manager, TOMORROW_10)
    assert "already" in str(refused.value)
    session.refresh_from_db()
    assert session.sequence == 0 and not SessionChange.objects.exists()
    assert not Notification.objects.exists()


@pytest.mark.django_db
def test_a_cancellation_is_recorded_and_the_session_stays_in_each_list_as_cancelled(zones):
    from coaching.selectors import sessions_of

    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        session_cancel(session=session, actor=org.manager, reason="travel", note="Flight moved")
    change = SessionChange.objects.get(session=session)
    assert (change.kind, change.actor, change.cancel_reason, change.cancel_note) == (
        "cancelled",
        org.manager,
        "travel",
        "Flight moved",
    )
    assert (change.from_start, change.sequence) == (TOMORROW_10, 1)
    for person in (org.rep, org.manager):
        assert [s.status for s in sessions_of(person=person)] == [SessionStatus.CANCELLED]


# --- Who is told, and how often -------------------------------------------------------


@pytest.mark.django_db
def test_a_move_tells_every_other_participant_and_a_second_move_tells_them_again(zones):
    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=2))
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=3))
    rows = Notification.objects.filter(session=session).order_by("id")
    assert [(r.kind, r.recipient) for r in rows] == [
        (NotificationKind.SESSION_MOVED, org.rep),
        (NotificationKind.SESSION_MOVED, org.rep),
    ]
    assert len({r.session_change_id for r in rows}) == 2


# --- The email and its calendar part --------------------------------------------------


@pytest.mark.django_db
def test_the_move_email_carries_a_request_with_the_feeds_uid_and_the_new_time_in_the_readers_zone(
    zones,
):
    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=5))
        outbox.drain()
    [message] = mail.outbox
    assert message.to == [org.rep.email]
    assert "Mia Manager" in message.subject and "Moved" in message.subject
    # 14:00 UTC is 09:00 in New York; it was 04:00 there.
    assert "from Tuesday 3 March at 04:00" in message.body
    assert "to   Tuesday 3 March at 09:00 (America/New_York)" in message.body
    [(mimetype, calendar)] = calendar_parts(message)
    assert mimetype == "text/calendar; method=REQUEST"
    assert calendar["METHOD"] == "REQUEST"
    event = the_event(calendar)
    assert str(event["UID"]) == event_uid(session)
    assert event.decoded("SEQUENCE") == 1
    assert event["DTSTART"].params["TZID"] == "America/New_York"
    assert event.decoded("DTSTART") == TOMORROW_10 + timedelta(hours=5)
    [zone] = calendar.walk("VTIMEZONE")
    assert str(zone["TZID"]) == "America/New_York"
    assert str(event["ORGANIZER"]) == f"mailto:{org.manager.email}"
    assert event["ORGANIZER"].params["CN"] == "Mia Manager"
    attendees = event["ATTENDEE"]
    assert sorted(str(a) for a in attendees) == sorted(
        [f"mailto:{org.manager.email}", f"mailto:{org.rep.email}"]
    )
    # The same file is attached for clients that read no alternative.
    assert [a[0] for a in message.attachments] == ["invite.ics"]


@pytest.mark.django_db
def test_a_second_move_sends_a_higher_sequence_and_the_feed_agrees(zones, client):
    from cadence.services_calendar import calendar_feed_create_or_rotate

    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=2))
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=3))
        outbox.drain()
        feed = calendar_feed_create_or_rotate(person=org.rep)
        body = client.get(f"/calendar/{feed.token}.ics").content
    sequences = sorted(the_event(calendar_parts(m)[0][1]).decoded("SEQUENCE") for m in mail.outbox)
    assert sequences == [1, 2]
    [event] = Calendar.from_ical(body).walk("VEVENT")
    assert event.decoded("SEQUENCE") == 2
    assert event.decoded("DTSTART") == TOMORROW_10 + timedelta(hours=3)


@pytest.mark.django_db
def test_the_cancellation_email_carries_a_cancel_with_the_reason_and_the_note(zones):
    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=2))
        session_cancel(session=session, actor=org.manager, reason="sick", note="Fever")
        outbox.drain()
    cancel = next(m for m in mail.outbox if "Cancelled" in m.subject)
    assert "Reason: Illness — Fever" in cancel.body
    [(mimetype, calendar)] = calendar_parts(cancel)
    assert mimetype == "text/calendar; method=CANCEL"
    event = the_event(calendar)
    assert (calendar["METHOD"], str(event["STATUS"]), event.decoded("SEQUENCE")) == (
        "CANCEL",
        "CANCELLED",
        2,
    )
    assert str(event["UID"]) == event_uid(session)


@pytest.mark.django_db
def test_invitations_switched_off_the_email_comes_without_a_calendar_part(zones):
    org = zones
    NotificationPreference.objects.create(person=org.rep, email_invitations=False)
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=2))
        outbox.drain()
    [message] = mail.outbox
    assert calendar_parts(message) == [] and message.attachments == []


@pytest.mark.django_db
def test_change_emails_switched_off_the_move_stays_in_the_app_only(zones):
    org = zones
    NotificationPreference.objects.create(person=org.rep, email_session_changed=False)
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=2))
        outbox.drain()
    assert mail.outbox == []
    assert Notification.objects.get().status == NotificationStatus.SKIPPED


# --- Invitations ------------------------------------------------------------------------


@pytest.mark.django_db
def test_sessions_coming_within_the_window_are_invited_once_per_person(zones, settings):
    org = zones
    settings.CADENCE_INVITATION_DAYS = 7
    with time_machine.travel(NOON, tick=False):
        soon = one_on_one(org.manager, org.rep, start=NOON + timedelta(days=6))
        later = one_on_one(org.manager, org.rep, start=NOON + timedelta(days=8))
        gone = one_on_one(org.manager, org.peer, start=NOON + timedelta(days=2))
        session_cancel(session=gone, actor=org.manager, reason="travel")
        assert invitations.invitations_queue() == 2
        assert invitations.invitations_queue() == 0  # beat again: nothing twice
    invited = Notification.objects.filter(kind=NotificationKind.SESSION_INVITED)
    # For the calendar: recorded read, so the in-app list does not count them as news.
    assert not invited.filter(read_at__isnull=True).exists()
    assert {(n.session_id, n.recipient_id) for n in invited} == {
        (soon.pk, org.manager.pk),
        (soon.pk, org.rep.pk),
    }
    with time_machine.travel(NOON + timedelta(days=1, minutes=15), tick=False):
        assert invitations.invitations_queue() == 2  # `later` came within the window
    assert Notification.objects.filter(session=later).count() == 2


@pytest.mark.django_db
def test_the_invitation_is_a_request_in_the_readers_zone(zones):
    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        invitations.invitations_queue()
        outbox.drain()
    to_rep = next(m for m in mail.outbox if m.to == [org.rep.email])
    assert "Invitation" in to_rep.subject
    [(mimetype, calendar)] = calendar_parts(to_rep)
    event = the_event(calendar)
    assert mimetype == "text/calendar; method=REQUEST"
    assert (str(event["UID"]), event.decoded("SEQUENCE")) == (event_uid(session), 0)
    assert event["DTSTART"].params["TZID"] == "America/New_York"


@pytest.mark.django_db
def test_an_invitation_for_a_session_cancelled_before_it_left_is_not_sent(zones):
    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        invitations.invitations_queue()
        session_cancel(session=session, actor=org.manager, reason="travel")
        outbox.drain()
    assert [m.subject.split(":")[0] for m in mail.outbox] == ["Cancelled"]


@pytest.mark.django_db
def test_the_invitations_cost_the_same_queries_for_one_session_or_twenty(zones):
    org = zones

    def queries():
        with CaptureQueriesContext(connection) as captured:
            invitations.invitations_queue()
        return len(captured)

    with time_machine.travel(NOON, tick=False):
        one_on_one(org.manager, org.rep, start=TOMORROW_10)
        few = queries()
        for i in range(20):
            one_on_one(org.manager, org.peer, start=TOMORROW_10 + timedelta(hours=i + 1))
        many = queries()
    # the participants in the window not invited yet; the insert
    assert few == many == 2
    assert Notification.objects.count() == 42


# --- In the app -------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_line_says_who_moved_it_from_when_to_when_in_the_readers_zone(zones):
    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=5))
        session_cancel(session=session, actor=org.manager, reason="sick", note="PRIVATE-ish")
        client = APIClient()
        client.force_login(org.rep)
        lines = client.get("/api/v1/notifications/").json()["results"]
    assert [line["text"] for line in lines] == [
        "Session cancelled by Mia Manager: 1:1, Tue 3 Mar, 09:00 EST (Illness)",
        "Session moved by Mia Manager: 1:1, Tue 3 Mar, 04:00 EST → 09:00 EST",
    ]
    assert lines[0]["url"] == f"/sessions/{session.pk}/"


def _moves_told_to(rep, manager, n, *, first=0):
    # Each an hour after the last: a move onto another of their sessions is refused.
    for i in range(first, first + n):
        session = one_on_one(manager, rep, start=TOMORROW_10 + timedelta(hours=i))
        moved(session, manager, TOMORROW_10 + timedelta(days=1, hours=i))


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/v1/notifications/", "/me/notifications/"])
def test_the_inbox_costs_the_same_queries_for_three_moves_or_thirty(zones, url):
    org = zones
    client = APIClient()
    client.force_login(org.rep)

    def queries():
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200
        return len(captured)

    with time_machine.travel(NOON, tick=False):
        _moves_told_to(org.rep, org.manager, 3)
        few = queries()
        _moves_told_to(org.rep, org.manager, 27, first=3)
        many = queries()
    assert Notification.objects.filter(recipient=org.rep).count() == 30
    # As with any other kind (test_api_notifications, test_pages_notifications): the
    # change and who made it come joined to the rows.
    # The page adds the header's unread count.
    assert few == many == (7 if url.startswith("/api/") else 11)


# --- Shown on the session page and in the API ----------------------------------------


@pytest.mark.django_db
def test_the_session_page_and_the_api_show_the_history_to_those_who_see_the_session(zones):
    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=5))
        session_cancel(session=session, actor=org.manager, reason="other", note="Team offsite")
        pages, apis = {}, {}
        for person in (org.rep, org.head, org.other_rep, org.hr):
            client = APIClient()
            client.force_login(person)
            pages[person.email] = client.get(f"/sessions/{session.pk}/")
            apis[person.email] = client.get(f"/api/v1/sessions/{session.pk}/")
    page = pages[org.rep.email].content.decode()
    assert "Moves and cancellations" in page
    # In the reader's zone (New York): 04:00 → 09:00.
    assert "Tue 3 Mar, 04:00" in page and "Tue 3 Mar, 09:00" in page
    assert "Team offsite" in pages[org.head.email].content.decode()
    changes = apis[org.rep.email].json()["changes"]
    assert [(c["kind"], c["actor"]["display_name"], c["sequence"]) for c in changes] == [
        ("moved", "Mia Manager", 1),
        ("cancelled", "Mia Manager", 2),
    ]
    assert changes[1]["cancel_note"] == "Team offsite"
    for outsider in (org.other_rep, org.hr):
        assert pages[outsider.email].status_code == 404
        assert apis[outsider.email].status_code == 404


@pytest.mark.django_db
def test_a_session_never_changed_reads_no_history(zones):
    from coaching.selectors import session_changes

    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
    with CaptureQueriesContext(connection) as captured:
        assert session_changes(session=session) == []
    assert len(captured) == 0


@pytest.mark.django_db
@pytest.mark.parametrize("moves", [1, 4])
def test_a_claim_of_change_notices_reads_the_same_whatever_its_size(zones, moves):
    org = zones
    with time_machine.travel(NOON, tick=False):
        _moves_told_to(org.rep, org.manager, moves)
        ids = outbox.claim()
        with CaptureQueriesContext(connection) as captured:
            outcome = outbox.deliver_claimed(ids)
    assert outcome["sent"] == moves == len(mail.outbox)
    reads = [q["sql"] for q in captured if not q["sql"].startswith("UPDATE")]
    # rows with their change and who made it, participants, their people
    assert len(reads) == 3, reads


@pytest.mark.django_db
def test_moving_to_the_same_time_is_a_400_on_the_page_and_in_the_api(zones, client):
    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        client.force_login(org.manager)
        local = TOMORROW_10.astimezone(ZoneInfo("Europe/Berlin")).strftime("%Y-%m-%dT%H:%M")
        page = client.post(f"/sessions/{session.pk}/reschedule/", {"scheduled_start": local})
        api = APIClient()
        api.force_login(org.manager)
        answer = api.post(
            f"/api/v1/sessions/{session.pk}/reschedule/",
            {"scheduled_start": TOMORROW_10.isoformat()},
            format="json",
        )
    assert page.status_code == 400 and "at that time already" in page.content.decode()
    assert answer.status_code == 400 and "scheduled_start" in answer.json()
    assert not SessionChange.objects.exists()


@pytest.mark.django_db
def test_whoever_moves_a_session_they_were_invited_to_gets_the_calendar_update_quietly(zones):
    org = zones
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        invitations.invitations_queue()
        outbox.drain()
        mail.outbox.clear()
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=2))
        outbox.drain()
        client = APIClient()
        client.force_login(org.manager)
        [line, _invitation] = client.get("/api/v1/notifications/").json()["results"]
    mine = Notification.objects.get(kind=NotificationKind.SESSION_MOVED, recipient=org.manager)
    assert mine.read_at is not None  # their own act is no news
    assert line["text"].startswith("Session moved by you: 1:1 with Rita Rep")
    to_manager = next(m for m in mail.outbox if m.to == [org.manager.email])
    assert to_manager.subject.endswith("(calendar update)")
    assert to_manager.body.splitlines()[2].startswith("You moved your 1:1 with Rita Rep")
    [(mimetype, calendar)] = calendar_parts(to_manager)
    assert mimetype == "text/calendar; method=REQUEST"
    assert the_event(calendar).decoded("SEQUENCE") == 1


@pytest.mark.django_db
def test_their_calendar_update_follows_the_invitations_switch_not_the_change_emails(zones):
    org = zones
    NotificationPreference.objects.create(person=org.manager, email_session_changed=False)
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=TOMORROW_10)
        invitations.invitations_queue()
        outbox.drain()
        mail.outbox.clear()
        moved(session, org.manager, TOMORROW_10 + timedelta(hours=2))
        outbox.drain()
    assert sorted(m.to[0] for m in mail.outbox) == [org.manager.email, org.rep.email]
