"""Closing days with a real Celery worker process on the configured broker and
database: the request only records the closure and queues its clearing; the worker
removes the days' untouched planned sessions and says how many, and a repeated
message removes nothing twice. On the real clock: the worker keeps it."""

import re
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from cadence.engine import occurrences_generate
from cadence.models import Closure
from cadence.services_closures import closure_create
from cadence.tasks import clear_closed_days
from coaching.models import CoachingSession, SessionStatus
from people.models import AuditEvent
from tests.support.celery_workers import workers  # noqa: F401 - the fixture
from tests.support.worker import wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

LEFT_ALONE = re.compile(r"Task cadence\.clear_closed_days\[[^\]]+\] succeeded in [\d.]+s: None")


@pytest.fixture
def queued_to_test_workers(workers, monkeypatch):  # noqa: F811 - the fixture
    """What closure_create queues on commit goes to this test's own queue."""

    def on_commit(pk):
        transaction.on_commit(lambda: clear_closed_days.apply_async(args=[pk], queue=workers.queue))

    monkeypatch.setattr(clear_closed_days, "delay_on_commit", on_commit)
    return workers


def planned_between(first, last) -> int:
    return CoachingSession.objects.filter(
        status=SessionStatus.SCHEDULED,
        scheduled_start__date__gte=first,
        scheduled_start__date__lte=last,
    ).count()


def test_a_worker_clears_the_closed_days_once(queued_to_test_workers, org, weekly_plan):
    weekly_plan(time_zone="UTC")
    weekly_plan(coachee=org.peer, time_zone="UTC")
    occurrences_generate()
    first = timezone.localdate() + timedelta(days=8)
    last = first + timedelta(days=13)  # two weeks: each plan's two Tuesdays
    assert planned_between(first, last) == 4

    closure = closure_create(actor=org.admin, name="Offsite", first_day=first, last_day=last)
    assert Closure.objects.get(pk=closure.pk).removed is None  # the request waited for nobody

    worker = queued_to_test_workers.start(pool="solo")
    wait_until(
        lambda: Closure.objects.get(pk=closure.pk).removed is not None,
        timeout=60,
        what="the worker to clear the closure",
        worker=worker,
    )
    assert Closure.objects.get(pk=closure.pk).removed == 4
    assert planned_between(first, last) == 0

    # The same message again (a redelivery): nothing more is removed or recorded.
    queued_to_test_workers.enqueue(clear_closed_days.s(closure.pk))
    wait_until(
        lambda: LEFT_ALONE.search(worker.output()),
        timeout=60,
        what="the worker to run the repeated message",
        worker=worker,
    )
    assert Closure.objects.get(pk=closure.pk).removed == 4
    assert AuditEvent.objects.filter(verb="closure.cleared").count() == 1
