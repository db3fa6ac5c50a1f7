"""Old notifications are forgotten (notifications/retention.py): finished ones — sent,
failed, in-app only — once older than NOTIFICATION_RETENTION_DAYS, a batch at a time;
pending and sending ones at any age stay; and the engine records nothing again for
what was forgotten."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence import engine
from core.periodic import PERIODIC_TASKS
from notifications import retention, tasks
from notifications.models import Notification, NotificationKind, NotificationStatus
from notifications.selectors_inbox import inbox
from tests.support.factories import one_on_one
from tests.support.query_plans import bounds_on, explain_sent

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def a_year(settings):
    settings.NOTIFICATION_RETENTION_DAYS = 365


def recorded(org, status, *, at=NOON, kind=NotificationKind.UPCOMING):
    """A notification for the rep about a 1:1 of `at`, recorded then, in `status`."""
    with time_machine.travel(at, tick=False):
        session = one_on_one(org.manager, org.rep, start=at + timedelta(hours=20))
    claimed = (
        {"claimed_at": at, "lease_until": at + timedelta(minutes=1)}
        if status == NotificationStatus.SENDING
        else {}
    )
    return Notification.objects.create(
        kind=kind, session=session, recipient=org.rep, status=status, created_at=at, **claimed
    )


def test_finished_notifications_go_once_past_the_retention_period_and_unfinished_stay(org):
    rows = {status: recorded(org, status) for status in NotificationStatus.values}
    recent = recorded(org, NotificationStatus.SENT, at=NOON + 30 * DAY)

    assert retention.forget_old_notifications(now=NOON + 365 * DAY - timedelta(minutes=1)) == 0
    assert retention.forget_old_notifications(now=NOON + 365 * DAY + timedelta(minutes=1)) == 3

    left = set(Notification.objects.values_list("pk", flat=True))
    assert left == {
        rows[NotificationStatus.PENDING].pk,
        rows[NotificationStatus.SENDING].pk,
        recent.pk,
    }
    assert set(inbox(user=org.rep).values_list("pk", flat=True)) == left


def test_the_period_is_the_setting_and_the_list_says_so(org, settings, client):
    settings.NOTIFICATION_RETENTION_DAYS = 30
    recorded(org, NotificationStatus.SENT)
    assert retention.forget_old_notifications(now=NOON + 29 * DAY) == 0
    assert retention.forget_old_notifications(now=NOON + 31 * DAY) == 1
    client.force_login(org.rep)
    assert "kept for 30 days" in client.get("/me/notifications/").content.decode()


def test_a_night_s_deletes_go_a_batch_at_a_time_oldest_first(org):
    rows = [recorded(org, NotificationStatus.SENT, at=NOON + n * DAY) for n in range(5)]
    with CaptureQueriesContext(connection) as sent:
        gone = retention.forget_old_notifications(now=NOON + 400 * DAY, batch=2)
    assert gone == 5 and not Notification.objects.exists()
    deletes = [q["sql"] for q in sent.captured_queries if q["sql"].startswith("DELETE")]
    batches = [
        sorted(int(pk) for pk in re.findall(r"\d+", sql.split(" IN ")[1])) for sql in deletes
    ]
    assert batches == [[rows[0].pk, rows[1].pk], [rows[2].pk, rows[3].pk], [rows[4].pk]]


def test_nothing_forgotten_is_recorded_again(org):
    """A year on, beat's runs find nothing to record for the old session: every kind is
    recorded once, at a moment that has passed."""
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=NOON + 2 * DAY)
    with time_machine.travel(session.scheduled_start - timedelta(hours=2), tick=False):
        assert engine.reminders_queue() > 0
    with time_machine.travel(session.scheduled_start + 3 * DAY, tick=False):
        engine.sweep_missed()
    recorded_then = Notification.objects.count()
    assert recorded_then > 0
    Notification.objects.update(status=NotificationStatus.SENT)

    a_year_on = session.scheduled_start + 400 * DAY
    with time_machine.travel(a_year_on, tick=False):
        assert tasks.forget_old_notifications() == recorded_then
        engine.reminders_queue()
        engine.sweep_missed()
    assert not Notification.objects.filter(session=session).exists()


def test_beat_runs_it_nightly():
    [spec] = [s for s in PERIODIC_TASKS if s.task == "cadence.forget_old_notifications"]
    assert spec.crontab["hour"] == "3"


@pytest.mark.postgres
def test_each_batch_is_read_off_the_index_of_finished_rows_oldest_first(org):
    recorded(org, NotificationStatus.SENT)
    plans = explain_sent(
        lambda: retention.forget_old_notifications(now=NOON + 400 * DAY),
        touching="cadence_notification",
    )
    assert bounds_on(plans[0], "notification_forgettable", "created_at <"), plans[0]
