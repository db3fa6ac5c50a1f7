"""A real Celery worker process, on the configured broker (Redis in CI), runs a task
whose effect lands in the test database."""

import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.utils import timezone

from config.celery import app
from people.tasks import clear_expired_sessions

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def database_url_of_test_db() -> str:
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    host, port = s["HOST"] or "localhost", s["PORT"] or 5432
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{host}:{port}/{s['NAME']}"


@pytest.fixture
def worker_queue():
    """A worker subprocess consuming a queue of its own, so nothing else interferes."""
    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=database_url_of_test_db(),
        CELERY_BROKER_URL=settings.CELERY_BROKER_URL,
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "-Q",
            queue,
            "--loglevel=INFO",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False  # send through the broker, not in-process
    yield queue
    app.conf.task_always_eager = eager
    proc.terminate()
    try:
        output, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        output, _ = proc.communicate()
    print(output)  # shown by pytest when the test fails


def test_a_queued_task_is_run_by_a_real_worker_and_changes_the_database(worker_queue):
    now = timezone.now()
    Session.objects.create(
        session_key="expired", session_data="", expire_date=now - timedelta(days=1)
    )
    Session.objects.create(
        session_key="current", session_data="", expire_date=now + timedelta(days=1)
    )

    clear_expired_sessions.apply_async(queue=worker_queue)

    deadline = time.monotonic() + 60
    while Session.objects.filter(session_key="expired").exists():
        assert time.monotonic() < deadline, "the worker did not run the task within 60 s"
        time.sleep(0.2)
    assert Session.objects.filter(session_key="current").exists()
