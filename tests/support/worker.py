"""Real Celery worker processes for tests marked `worker`, and a mail backend whose
sends can be counted from another process.

A worker is `celery -A config worker` in a subprocess of its own session (so a
`kill -9` reaches its pool children too), consuming a queue of its own, pointed at the
test database through DATABASE_URL and at the broker the tests use (the filesystem
broker locally, Redis in CI). Its log goes to a file, not a pipe: a pipe nobody reads
fills up and blocks the worker.

The worker runs with DJANGO_SETTINGS_MODULE=tests.support.worker_settings, which sends mail
through `FileMailBackend` below: one file per message in TANDEM_TEST_MAIL_DIR, written
atomically (a worker killed mid-write leaves no half message), after an optional delay
of TANDEM_TEST_MAIL_DELAY seconds and followed by one of TANDEM_TEST_MAIL_DELAY_AFTER
seconds: a slow send, and a moment when a message is out but not yet marked sent, to
kill a worker in.

Test-only code, so it lives here rather than in a product package; the worker imports
it because it runs with the project root as its working directory."""

from __future__ import annotations

import contextlib
import email
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from django.core.mail.backends.base import BaseEmailBackend

ROOT = Path(__file__).resolve().parents[2]


# --- In the worker process ------------------------------------------------------------


class FileMailBackend(BaseEmailBackend):
    def send_messages(self, messages):
        from django.conf import settings

        folder = Path(settings.TANDEM_TEST_MAIL_DIR)
        for message in messages:
            time.sleep(settings.TANDEM_TEST_MAIL_DELAY)
            name = f"{time.time_ns()}-{os.getpid()}-{uuid.uuid4().hex}"
            partial = folder / f"{name}.partial"
            partial.write_bytes(message.message().as_bytes())
            os.replace(partial, folder / f"{name}.eml")
            time.sleep(settings.TANDEM_TEST_MAIL_DELAY_AFTER)  # "sent", not yet marked
        return len(messages)


# --- In the test process ------------------------------------------------------------


def sent_mail(folder: Path) -> list[email.message.Message]:
    return [email.message_from_bytes(p.read_bytes()) for p in sorted(folder.glob("*.eml"))]


def mail_count_by_recipient(folder: Path) -> Counter:
    return Counter(m["To"] for m in sent_mail(folder))


def database_url_of_test_db() -> str:
    from django.db import connection

    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    host, port = s["HOST"] or "localhost", s["PORT"] or 5432
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{host}:{port}/{s['NAME']}"


def wait_until(
    condition: Callable[[], object],
    *,
    timeout: float,
    what: str,
    worker=None,
    every_10_s: Callable[[], object] | None = None,
):
    """Poll `condition` until it is truthy; fail with `what` (and the worker's log).
    `every_10_s`, if given, is called each 10 seconds of waiting, as beat would."""
    started = time.monotonic()
    deadline, nudged = started + timeout, started
    while True:
        result = condition()
        if result:
            return result
        if every_10_s is not None and time.monotonic() - nudged >= 10:
            print(f"still waiting after {time.monotonic() - started:.0f} s: {what}; again")
            every_10_s()
            nudged = time.monotonic()
        if worker is not None and worker.proc.poll() is not None:
            raise AssertionError(f"the worker exited ({worker.proc.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        time.sleep(0.1)


class Worker:
    """One `celery worker` subprocess. `stop()` shuts it down warmly, `kill()` is
    `kill -9` on its whole process group; both are safe to call twice."""

    def __init__(
        self,
        *,
        queue: str,
        log: Path,
        mail_dir: Path,
        mail_delay: float = 0.0,
        mail_delay_after: float = 0.0,
        pool: str = "solo",
        concurrency: int = 1,
    ):
        from django.conf import settings

        self.log = log
        env = dict(
            os.environ,
            DJANGO_SETTINGS_MODULE="tests.support.worker_settings",
            DATABASE_URL=database_url_of_test_db(),
            CELERY_BROKER_URL=settings.CELERY_BROKER_URL,
            CELERY_TASK_ALWAYS_EAGER="false",
            TANDEM_TEST_MAIL_DIR=str(mail_dir),
            TANDEM_TEST_MAIL_DELAY=str(mail_delay),
            TANDEM_TEST_MAIL_DELAY_AFTER=str(mail_delay_after),
            PYTHONUNBUFFERED="1",
        )
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    f"--pool={pool}",
                    f"--concurrency={concurrency}",
                    "--without-heartbeat",
                    "--without-gossip",
                    "--without-mingle",
                    "-Q",
                    queue,
                    "--hostname",
                    f"{queue}-{uuid.uuid4().hex[:6]}@%h",
                    "--loglevel=INFO",
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: killpg reaches the pool
            )

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self, timeout: float = 20) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()  # warm shutdown: the main process stops its pool
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=timeout)
        self.kill()  # stragglers of the group, and a worker that would not stop


def delete_queue(queue: str) -> None:
    """Remove the test queue from the broker: its messages, its binding (Redis keeps
    bindings as keys), and — Redis — messages a killed worker took but never
    acknowledged (acks_late), which Redis would otherwise redeliver an hour later."""
    import json

    from kombu import Exchange, Queue

    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            channel = conn.default_channel
            bound = Queue(queue, Exchange(queue), routing_key=queue)(channel)
            bound.declare()  # so this channel knows the binding it is to remove
            bound.delete()
            if conn.transport.driver_type == "redis":
                client = channel.client
                for tag, raw in client.hscan_iter(channel.unacked_key):
                    _, exchange, routing_key = json.loads(raw)
                    if queue in (exchange, routing_key):
                        client.hdel(channel.unacked_key, tag)
                        client.zrem(channel.unacked_index_key, tag)
    except Exception as exc:  # noqa: BLE001 - hygiene only
        print(f"could not delete queue {queue}: {exc}")
