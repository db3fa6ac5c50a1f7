"""A real Celery worker process, on the configured broker (Redis in CI), runs a task
whose effect lands in the test database."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from config.celery import app
from people.models import SignInSession as Session
from people.tasks import clear_expired_sessions
from tests.support.worker import Worker, delete_queue, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(tmp_path):
    queue = f"test-{uuid.uuid4().hex[:8]}"
    (tmp_path / "mail").mkdir()
    started = Worker(queue=queue, log=tmp_path / "worker.log", mail_dir=tmp_path / "mail")
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False  # send through the broker, not in-process
    yield started, queue
    app.conf.task_always_eager = eager
    started.stop()
    delete_queue(queue)
    print(started.output())  # shown by pytest when the test fails


def test_a_queued_task_is_run_by_a_real_worker_and_changes_the_database(worker):
    running, queue = worker
    now = timezone.now()
    Session.objects.create(session_key="expired", session_data="", expire_date=now - timedelta(1))
    Session.objects.create(session_key="current", session_data="", expire_date=now + timedelta(1))

    clear_expired_sessions.apply_async(queue=queue)

    wait_until(
        lambda: not Session.objects.filter(session_key="expired").exists(),
        timeout=60,
        what="the worker to delete the expired session",
        worker=running,
    )
    assert Session.objects.filter(session_key="current").exists()
