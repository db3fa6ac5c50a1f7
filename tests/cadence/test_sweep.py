"""Time travel through eight weeks of a weekly plan: held, missed, cancelled, moved;
the sweep marks misses once, tells the coach, and escalates after N in a row."""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence import engine, outbox
from cadence.models import Notification, NotificationKind
from coaching.models import CoachingSession, SessionStatus
from coaching.services import session_cancel, session_mark_held, session_reschedule

START = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)  # a Monday; the plan meets Tuesdays


def kinds_for(person):
    return sorted(Notification.objects.filter(recipient=person).values_list("kind", flat=True))


def week(n):
    return START + timedelta(weeks=n)


@pytest.mark.django_db
def test_eight_weeks_of_a_plan_escalate_after_two_misses_in_a_row_and_not_before(
    org, weekly_plan, settings
):
    settings.CADENCE_ESCALATE_AFTER = 2
    with time_machine.travel(START, tick=False):
        plan = weekly_plan(starts_on=date(2026, 3, 1))
        engine.occurrences_generate()

    def session_of_week(n):
        return CoachingSession.objects.filter(occurrence__plan=plan).order_by("scheduled_start")[n]

    story = {
        0: "held",
        1: "missed",
        2: "held",
        3: "cancelled",
        4: "missed",
        5: "moved",
        6: "missed",
        7: "missed",
    }
    escalations_after = {}
    for n, what in story.items():
        with time_machine.travel(week(n), tick=False):
            engine.occurrences_generate()
            session = session_of_week(n)
            if what == "held":
                with time_machine.travel(session.scheduled_end, tick=False):
                    session_mark_held(session=session, actor=org.manager)
            elif what == "cancelled":
                session_cancel(session=session, actor=org.manager, reason="forecast_call")
            elif what == "moved":
                session_reschedule(
                    session=session,
                    actor=org.manager,
                    start=session.scheduled_start + timedelta(days=1),
                )
                with time_machine.travel(
                    session.scheduled_start + timedelta(days=1, hours=1), tick=False
                ):
                    session_mark_held(session=session_of_week(n), actor=org.manager)
        # the sweep runs through the week after the session's day
        with time_machine.travel(week(n) + timedelta(days=4), tick=False):
            engine.sweep_missed()
            engine.sweep_missed()  # twice: nothing doubles
        escalations_after[n] = Notification.objects.filter(kind=NotificationKind.ESCALATION).count()

    statuses = list(
        CoachingSession.objects.filter(occurrence__plan=plan)
        .order_by("scheduled_start")
        .values_list("status", flat=True)[:8]
    )
    assert statuses == ["held", "missed", "held", "cancelled", "missed", "held", "missed", "missed"]
    missed = Notification.objects.filter(kind=NotificationKind.MISSED)
    assert missed.count() == 4 and set(missed.values_list("recipient", flat=True)) == {
        org.manager.pk
    }
    # weeks 1 and 4 were single misses (a cancellation and a held session in between);
    # weeks 6 and 7 are two in a row: the coach's manager hears at week 7, not before.
    assert [escalations_after[n] for n in range(8)] == [0, 0, 0, 0, 0, 0, 0, 1]
    escalation = Notification.objects.get(kind=NotificationKind.ESCALATION)
    assert escalation.recipient == org.head and escalation.plan == plan


@pytest.mark.django_db
def test_the_sweep_is_one_update_whatever_the_number_of_sessions(org, weekly_plan):
    with time_machine.travel(START, tick=False):
        weekly_plan()
        weekly_plan(coachee=org.peer)
        engine.occurrences_generate()
    with (
        time_machine.travel(START + timedelta(weeks=7), tick=False),
        CaptureQueriesContext(connection) as queries,
    ):
        marked = engine.sweep_missed()
    assert marked == 12
    updates = [q for q in queries if q["sql"].startswith("UPDATE")]
    assert len(updates) == 1
    # update, read the runners, insert notifications, read the streaks, insert escalations
    assert len(queries) <= 8, [q["sql"] for q in queries]


@pytest.mark.django_db
def test_the_grace_period_is_respected(org, weekly_plan, settings):
    settings.CADENCE_MISSED_GRACE_HOURS = 24
    with time_machine.travel(START, tick=False):
        weekly_plan()
        engine.occurrences_generate()
    first = CoachingSession.objects.earliest("scheduled_start")
    with time_machine.travel(first.scheduled_end + timedelta(hours=23), tick=False):
        assert engine.sweep_missed() == 0
    with time_machine.travel(first.scheduled_end + timedelta(hours=25), tick=False):
        assert engine.sweep_missed() == 1
    first.refresh_from_db()
    assert first.status == SessionStatus.MISSED


@pytest.mark.django_db
def test_reminders_go_to_both_people_a_day_ahead_once_with_commitments_and_a_prep_link(
    org, weekly_plan
):
    from coaching.services import commitment_create

    with time_machine.travel(START, tick=False):
        weekly_plan()
        engine.occurrences_generate()
        first = CoachingSession.objects.earliest("scheduled_start")
    with time_machine.travel(first.scheduled_start - timedelta(hours=30), tick=False):
        assert engine.reminders_queue() == 0
    with time_machine.travel(first.scheduled_start - timedelta(hours=20), tick=False):
        commitment_create(
            session=first,
            actor=org.manager,
            text="Call the CFO first",
            evidence="Calendar invite",
            due_on=date(2026, 3, 20),
        )
        engine.reminders_queue()
        engine.reminders_queue()
        assert kinds_for(org.rep) == kinds_for(org.manager) == ["upcoming"]
        outbox.drain()
    assert len(mail.outbox) == 2
    to_rep = next(m for m in mail.outbox if m.to == [org.rep.email])
    assert "/prepare/" in to_rep.body and "Call the CFO first" in to_rep.body
    assert "10:00" in to_rep.subject  # Berlin wall time


@pytest.mark.django_db
def test_weekly_digests_once_per_manager_per_week(org):
    with time_machine.travel(START, tick=False):
        engine.digests_queue()
        engine.digests_queue()
        outbox.drain()
    digests = Notification.objects.filter(kind=NotificationKind.DIGEST)
    assert set(digests.values_list("recipient", flat=True)) == {
        org.head.pk,
        org.manager.pk,
        org.other_manager.pk,
    }
    assert digests.count() == 3 and len(mail.outbox) == 3
