"""A session the cadence takes back after inviting people to it (its plan changed or
ended, its day was closed) is deleted, but leaves each person told of it a withdrawal:
in the app, and by email with a METHOD:CANCEL for the event already in their calendar
(same UID, a higher SEQUENCE), in their own zone. Nobody told, nothing sent."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from icalendar import Calendar

from cadence import invitations, withdrawals
from cadence.calendar import event_uid
from cadence.closures import closure_clear
from cadence.engine import occurrences_generate
from cadence.services import plan_end, plan_update
from cadence.services_closures import closure_create
from coaching.models import CoachingSession
from notifications import outbox
from notifications.models import Notification, NotificationKind
from notifications.selectors_inbox import notification_lines

MONDAY = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
TUESDAY_10_BERLIN = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def invited(org, weekly_plan):
    """Mia's weekly 1:1 with Rita (New York), generated; tomorrow's invitation sent."""
    org.rep.time_zone = "America/New_York"
    org.rep.save(update_fields=["time_zone"])
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan(time_zone="Europe/Berlin")
        occurrences_generate()
        invitations.invitations_queue()
        outbox.drain()
    mail.outbox.clear()
    tomorrow = CoachingSession.objects.get(occurrence__plan=plan, scheduled_start=TUESDAY_10_BERLIN)
    return plan, tomorrow


def cancel_part(message):
    [(content, mimetype)] = [
        (c, m) for c, m in message.alternatives if m.startswith("text/calendar")
    ]
    return mimetype, Calendar.from_ical(content).walk("VEVENT")[0]


@pytest.mark.django_db
def test_a_plan_moved_to_another_day_withdraws_the_invited_session_from_each_calendar(org, invited):
    plan, tomorrow = invited
    uid = event_uid(tomorrow)
    with time_machine.travel(MONDAY + timedelta(hours=1), tick=False):
        plan_update(plan=plan, actor=org.manager, weekday=3)
        outbox.drain()
    assert not CoachingSession.objects.filter(pk=tomorrow.pk).exists()
    # The manager changed it: the rep is told; the manager's own calendar follows quietly.
    rows = Notification.objects.filter(kind=NotificationKind.SESSION_WITHDRAWN)
    assert {(n.recipient, n.read_at is None) for n in rows} == {
        (org.rep, True),
        (org.manager, False),
    }
    to_rep = next(m for m in mail.outbox if m.to == [org.rep.email])
    assert to_rep.subject == "Withdrawn: 1:1 with Mia Manager Tue 1 Dec at 04:00"
    assert "its plan changed" in to_rep.body and "04:00" in to_rep.body  # New York time
    mimetype, event = cancel_part(to_rep)
    assert mimetype == "text/calendar; method=CANCEL"
    assert str(event["UID"]) == uid
    assert event.decoded("SEQUENCE") == 1  # above the invitation's 0
    assert str(event["STATUS"]) == "CANCELLED"
    assert event["DTSTART"].params["TZID"] == "America/New_York"
    attendees = sorted(str(a) for a in event.get("ATTENDEE"))
    assert attendees == sorted(f"mailto:{p.email}" for p in (org.manager, org.rep))


@pytest.mark.django_db
def test_ending_the_plan_withdraws_it_and_the_inbox_says_why_in_the_readers_zone(org, invited):
    plan, tomorrow = invited
    with time_machine.travel(MONDAY + timedelta(hours=1), tick=False):
        plan_end(plan=plan, actor=org.manager, reason="role_change")
    row = Notification.objects.get(kind=NotificationKind.SESSION_WITHDRAWN, recipient=org.rep)
    [line] = notification_lines(user=org.rep, rows=[row])
    assert line.text == "Session withdrawn: 1:1 with Mia Manager, Tue 1 Dec, 04:00 (its plan ended)"
    assert line.url == "/sessions/"


@pytest.mark.django_db
def test_closing_the_day_withdraws_the_invited_session(org, invited):
    plan, tomorrow = invited
    with time_machine.travel(MONDAY + timedelta(hours=1), tick=False):
        closure = closure_create(
            actor=org.admin, name="Offsite", first_day=date(2026, 12, 1), last_day=date(2026, 12, 1)
        )
        closure_clear(closure.pk)
        outbox.drain()
    assert not CoachingSession.objects.filter(pk=tomorrow.pk).exists()
    subjects = sorted(m.subject for m in mail.outbox)
    assert len(subjects) == 2 and all(s.startswith("Withdrawn:") for s in subjects)
    assert any("the day is closed (Offsite)" in m.body for m in mail.outbox)


@pytest.mark.django_db
def test_sessions_nobody_was_told_of_go_without_a_word(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan(time_zone="Europe/Berlin")
        occurrences_generate()
        invitations.invitations_queue()  # queued, not yet sent: nobody heard of it
        plan_update(plan=plan, actor=org.manager, local_time=time(11, 0))
        outbox.drain()
    assert not Notification.objects.filter(kind=NotificationKind.SESSION_WITHDRAWN).exists()
    assert all(not m.subject.startswith("Withdrawn") for m in mail.outbox)


@pytest.mark.django_db
def test_withdrawals_cost_the_same_queries_for_one_session_or_many(org, invited, weekly_plan):
    plan, tomorrow = invited

    def queries(ids):
        with CaptureQueriesContext(connection) as captured:
            withdrawals.withdrawals_queue(ids, why=withdrawals.PLAN_CHANGED)
        return len(captured)

    one = queries([tomorrow.pk])
    Notification.objects.filter(kind=NotificationKind.SESSION_WITHDRAWN).delete()
    with time_machine.travel(MONDAY, tick=False):
        for person in (org.peer, org.other_rep):
            weekly_plan(coachee=person, time_zone="Europe/Berlin")
        occurrences_generate()
        invitations.invitations_queue()
        outbox.drain()
    soon = list(
        Notification.objects.filter(kind=NotificationKind.SESSION_INVITED).values_list(
            "session_id", flat=True
        )
    )
    assert len(set(soon)) == 3
    assert queries(soon) == one
