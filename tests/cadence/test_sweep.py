"""Time travel through eight weeks of a weekly plan: held, missed, cancelled, moved;
the sweep marks misses once, tells the coach, and escalates after N in a row."""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence import engine
from coaching.models import CoachingSession, SessionStatus
from coaching.services import session_cancel, session_mark_held, session_reschedule
from notifications import outbox
from notifications.models import Notification, NotificationKind

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


@pytest.mark.django_db
def test_the_digest_says_what_the_week_was(org):
    from coaching.services import commitment_create

    with time_machine.travel(START - timedelta(days=6), tick=False):
        held = one_on_one_at(org, org.rep, START - timedelta(days=5))
        commitment_create(
            session=held,
            actor=org.manager,
            text="Open with their goal",
            evidence="Call recording",
            due_on=date(2026, 3, 20),
        )
        one_on_one_at(org, org.peer, START - timedelta(days=4))  # never logged
    with time_machine.travel(START - timedelta(days=5, minutes=-30), tick=False):
        session_mark_held(session=held, actor=org.manager)  # once it has taken place
    with time_machine.travel(START, tick=False):
        engine.sweep_missed()
        engine.digests_queue()
        outbox.drain()
    to_manager = next(m for m in mail.outbox if m.to == [org.manager.email])
    assert to_manager.subject == "Your coaching week: 1 of 2 1:1s held"
    assert "1 missed" in to_manager.body and "Open commitments of your people: 1" in to_manager.body
    assert "Pavel Peer" in to_manager.body  # no 1:1 held in 14 days
    assert "Open with their goal" not in to_manager.body  # counts and names, not words


def one_on_one_at(org, coachee, start):
    from tests.support.factories import one_on_one

    return one_on_one(org.manager, coachee, start=start)


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_two_sweeps_at_once_mark_and_notify_each_miss_once(org, weekly_plan):
    """Real PostgreSQL: the second UPDATE waits on the row locks, then finds the rows
    no longer scheduled."""
    import threading

    with time_machine.travel(START, tick=False):
        weekly_plan()
        weekly_plan(coachee=org.peer)
        engine.occurrences_generate()
    barrier, marked = threading.Barrier(2), []

    def sweep():
        try:
            barrier.wait()
            marked.append(engine.sweep_missed(now=START + timedelta(weeks=7)))
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(marked) == 12
    assert Notification.objects.filter(kind=NotificationKind.MISSED).count() == 12
