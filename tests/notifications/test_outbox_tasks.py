"""Sending does not wait for beat's next minute after a worker dies: a killed pool
process's drain message is requeued, a (re)started worker drains at once, and the
reaper sends what it hands back. (The fault test tests/faults/test_outbox_worker_kill.py
does it with real workers killed.)"""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
import time_machine
from kombu import Queue

from notifications import outbox, tasks
from notifications.models import Notification, NotificationKind
from tests.support.factories import UserFactory

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def test_a_drain_message_survives_the_death_of_the_pool_process_running_it():
    task = tasks.send_notifications
    assert task.acks_late and task.reject_on_worker_lost


@pytest.mark.parametrize(
    "queues, drains", [(["celery"], 3), (["imports", "celery"], 3), (["test-q"], 0)]
)
def test_a_worker_that_takes_the_drains_queue_starts_draining_when_it_is_ready(
    settings, monkeypatch, queues, drains
):
    settings.CADENCE_SENDERS = 3
    sent = []
    monkeypatch.setattr(tasks.send_notifications, "delay", lambda: sent.append(1))
    consumer = SimpleNamespace(task_consumer=SimpleNamespace(queues=[Queue(q) for q in queues]))
    tasks.drain_on_worker_start(sender=consumer)
    assert len(sent) == drains


@pytest.mark.django_db
def test_the_reaper_sends_what_it_hands_back_at_once(monkeypatch):
    kicked = []
    monkeypatch.setattr(tasks, "kick_senders", lambda: kicked.append(1))
    with time_machine.travel(NOON, tick=False):
        Notification.objects.create(kind=NotificationKind.DIGEST, recipient=UserFactory())
        outbox.claim()  # ... by a worker that dies
        assert tasks.reap_stale_claims() == 0 and kicked == []
    with time_machine.travel(NOON + timedelta(minutes=2), tick=False):
        assert tasks.reap_stale_claims() == 1 and kicked == [1]
