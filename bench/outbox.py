"""Benchmark: draining N queued notifications (default 20,000) with real Celery workers.

    make bench-outbox                     # PostgreSQL tandem_bench_outbox, Redis db 9
    BENCH_DATABASE_URL=postgres://... BENCH_BROKER_URL=redis://127.0.0.1:6379/9 \\
        .venv/bin/python bench/outbox.py --notifications 20000 --workers 2 --concurrency 2

It builds a fresh database with managers and reps in several time zones (two open
commitments each, so a reminder lists them), 1:1s starting within the next day and
1:1s that ended two days ago unlogged, analyses them (as autovacuum would have), and
lets the engine queue the outbox exactly as beat does: `engine.reminders_queue()` (an
"upcoming" reminder to both people) and `engine.sweep_missed()` (a "missed" notice to
each coach) — three in five notifications are reminders. Then it starts `--workers`
real `celery worker` processes (prefork pool, `--concurrency` children each) on a
broker nothing else consumes (Redis db 9 by default, flushed before and after), with
Django's locmem email backend (`EMAIL_URL=memorymail://`: nothing leaves the machine),
and enqueues `cadence.send_notifications` — the task beat sends every minute. One
message drains at most CLAIM_SIZE x rounds rows (`outbox.drain`, 2,500) and then
returns, so it sends enough that every pool process could drain the whole backlog
alone (those left over find the outbox empty); `--messages 1` shows what one beat tick
does instead. It times from the first message enqueued to the moment the database
holds no row pending or being sent (polled every 50 ms), then checks that exactly N
rows are `sent`, each claimed once, and that the workers' pool processes sent exactly
N emails between them (each counts its own `mail.outbox` after every drain).

Workers run `config.settings.local` with DEBUG off, as a deployment would; their
logs are kept in a temporary folder that is printed when something goes wrong. Every
process started is stopped (then killed) whatever happens. Reports
notifications/second; a measurement, never a test that fails on a slow machine."""

import argparse
import contextlib
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

from celery.signals import task_postrun

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUEUE = "bench-outbox"
POLL = 0.05
ZONES = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Sydney", "UTC"]


# --- In each worker's pool processes (loaded with `--include bench.outbox`) ----------


@task_postrun.connect
def _count_mail(sender=None, **kwargs):
    """After each drain, write how many emails this pool process has sent so far."""
    folder = os.environ.get("TANDEM_BENCH_MAIL_DIR")
    if folder and getattr(sender, "name", "") == "cadence.send_notifications":
        from django.core import mail

        Path(folder, f"{os.getpid()}.sent").write_text(str(len(getattr(mail, "outbox", []))))


# --- The benchmark -------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notifications", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2, help="celery worker processes")
    parser.add_argument("--concurrency", type=int, default=2, help="pool processes each")
    parser.add_argument(
        "--messages", type=int, default=0, help="drain messages to send (0: as many as needed)"
    )
    parser.add_argument("--timeout", type=float, default=900, help="give up after (seconds)")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args()
    url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tandem_bench_outbox"
    )
    broker = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/9")
    if urlparse(broker).path.strip("/") in ("", "0", "1"):
        sys.exit("Use a Redis database of the benchmark's own (e.g. /9): it is flushed.")
    os.environ.update(
        DATABASE_URL=url,
        CELERY_BROKER_URL=broker,
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DEBUG="false",
        EMAIL_URL="memorymail://",
        CELERY_TASK_ALWAYS_EAGER="false",
    )
    # Here, not at the top: the workers import this module as `bench.outbox`.
    from scratch_database import drop_database, recreate_database

    recreate_database(url)

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    setup_seconds, kinds = _populate(args.notifications)

    from notifications import outbox
    from notifications.tasks import send_notifications

    per_message = outbox.CLAIM_SIZE * _default(outbox.drain, "rounds")
    processes = args.workers * args.concurrency
    # Enough that no pool process runs out of drains while rows remain (a drain stops
    # after `per_message` rows); those left over find the outbox empty and return.
    messages = args.messages or processes * math.ceil(args.notifications / per_message)
    logs = Path(tempfile.mkdtemp(prefix="tandem-bench-outbox-"))
    (logs / "mail").mkdir()
    _flush(broker)
    workers = []
    ok = False
    try:
        workers = [_start_worker(i, args.concurrency, logs) for i in range(args.workers)]
        _wait_ready(workers, timeout=120)
        load_before = os.getloadavg()
        started = time.perf_counter()
        for _ in range(messages):
            send_notifications.apply_async(queue=QUEUE)
        seconds, finished = _wait_drained(workers, started, timeout=args.timeout)
        load_after = os.getloadavg()
        _settle(workers, messages)
        result = _verify(args.notifications, logs / "mail", finished)
        ok = result["ok"]
    finally:
        for worker in workers:
            _stop(worker)
        _flush(broker)
        if ok:
            shutil.rmtree(logs, ignore_errors=True)
        else:
            print(f"Worker logs: {logs}")
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_database(url)

    print(
        f"Queued: {kinds}. {args.workers} workers x {args.concurrency} pool process(es), "
        f"{messages} drain message(s) of at most {per_message:,} rows. "
        f"Load average before/after: {_load(load_before)} / {_load(load_after)}."
    )
    print(
        "| notifications | sent | emails | workers x pool | drain messages "
        "| drain seconds | notifications/second | setup seconds |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    row = [
        f"{args.notifications:,}",
        f"{result['sent']:,}",
        result["emails"],
        f"{args.workers} x {args.concurrency}",
        f"{messages}",
        f"{seconds:.2f}",
        f"{result['sent'] / seconds:,.0f}",
        f"{setup_seconds:.1f}",
    ]
    print("| " + " | ".join(row) + " |")
    if not finished:
        print(f"Not drained: {result['statuses']} (one message drains at most {per_message:,}).")
    assert ok, result


def _default(function, name):
    import inspect

    return inspect.signature(function).parameters[name].default


def _load(triple) -> str:
    return " ".join(f"{x:.2f}" for x in triple)


# --- Database and broker ---------------------------------------------------------------


def _flush(broker: str) -> None:
    import redis

    client = redis.Redis.from_url(broker)
    client.flushdb()
    client.close()


# --- The outbox, queued as beat would ------------------------------------------------------


def _populate(n: int) -> tuple[float, dict[str, int]]:
    """Managers and reps, their 1:1s (tomorrow's and unlogged ones from two days ago)
    and commitments, in bulk; then the engine queues the reminders and the misses.
    Three in five notifications are reminders (two per session), the rest misses."""
    from django.db import connection
    from django.db.models import Count
    from django.utils import timezone

    from cadence import engine
    from coaching.models import (
        CoachingSession,
        Commitment,
        ParticipantRole,
        SessionParticipant,
        SharedNotes,
    )
    from notifications.models import Notification
    from people.models import User

    started = time.perf_counter()
    now = timezone.now()
    upcoming = (n * 3 // 5) // 2
    missed = n - 2 * upcoming
    reps_needed = max(upcoming, missed)
    managers = User.objects.bulk_create(
        User(
            email=f"manager{i}@bench.test",
            display_name=f"Manager {i:05d}",
            time_zone=ZONES[i % len(ZONES)],
        )
        for i in range(math.ceil(reps_needed / 8))
    )
    reps = User.objects.bulk_create(
        User(
            email=f"rep{i}@bench.test",
            display_name=f"Rep {i:05d}",
            time_zone=managers[i // 8].time_zone,
            reports_to=managers[i // 8],
        )
        for i in range(reps_needed)
    )
    Commitment.objects.bulk_create(
        Commitment(
            owner=rep,
            text=f"Ask two open questions before the demo ({k + 1})",
            evidence="The call recording",
            due_on=now.date() + timedelta(days=7 * k - 3),
            created_by=rep.reports_to,
        )
        for rep in reps
        for k in range(2)
    )

    def sessions(count: int, start_of) -> None:
        made = CoachingSession.objects.bulk_create(
            CoachingSession(
                kind="one_on_one",
                scheduled_start=start_of(i),
                original_start=start_of(i),
                scheduled_end=start_of(i) + timedelta(minutes=30),
                duration_minutes=30,
            )
            for i in range(count)
        )
        SessionParticipant.objects.bulk_create(
            [
                SessionParticipant(
                    session=s,
                    person=reps[i].reports_to,
                    role=ParticipantRole.COACH,
                    scheduled_start=s.scheduled_start,
                )
                for i, s in enumerate(made)
            ]
            + [
                SessionParticipant(
                    session=s,
                    person=reps[i],
                    role=ParticipantRole.COACHEE,
                    speaking_order=1,
                    scheduled_start=s.scheduled_start,
                )
                for i, s in enumerate(made)
            ]
        )
        SharedNotes.objects.bulk_create(SharedNotes(session=s) for s in made)

    sessions(upcoming, lambda i: now + timedelta(minutes=60 + (i * 7) % (22 * 60)))
    sessions(missed, lambda i: now - timedelta(days=2, minutes=(i * 7) % (10 * 60)))
    # Statistics as a deployment's autovacuum keeps them (it may be off on the machine
    # measuring): people, sessions and commitments analysed; the outbox's taken before
    # the burst is queued, as beat queues it.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    engine.reminders_queue()
    engine.sweep_missed()
    kinds = dict(Notification.objects.values_list("kind").annotate(n=Count("pk")))
    assert sum(kinds.values()) == n, kinds
    return time.perf_counter() - started, kinds


# --- Workers ---------------------------------------------------------------------------


class _Worker:
    def __init__(self, proc: subprocess.Popen, log: Path):
        self.proc, self.log = proc, log

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def _start_worker(i: int, concurrency: int, logs: Path) -> _Worker:
    log = logs / f"worker-{i + 1}.log"
    env = dict(os.environ, TANDEM_BENCH_MAIL_DIR=str(logs / "mail"), PYTHONUNBUFFERED="1")
    with open(log, "ab") as out:
        proc = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=prefork",
                f"--concurrency={concurrency}",
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
                "--include=bench.outbox",
                "-Q",
                QUEUE,
                "--hostname",
                f"bench-outbox-{i + 1}@%h",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killpg reaches the pool
        )
    return _Worker(proc, log)


def _wait_ready(workers: list[_Worker], *, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not all(" ready." in w.output() for w in workers):
        for w in workers:
            if w.proc.poll() is not None:
                raise RuntimeError(f"a worker exited ({w.proc.returncode}):\n{w.output()}")
        if time.monotonic() > deadline:
            raise RuntimeError("the workers did not start in time")
        time.sleep(0.1)


def _stop(worker: _Worker, timeout: float = 20) -> None:
    if worker.proc.poll() is None:
        worker.proc.terminate()  # warm shutdown: the main process stops its pool
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.proc.wait(timeout=timeout)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.proc.pid, signal.SIGKILL)  # stragglers of the group
    worker.proc.wait(timeout=10)


def _wait_drained(workers, started: float, *, timeout: float) -> tuple[float, bool]:
    """Seconds from `started` until no row is pending or being sent. If the drains
    stop with rows still pending (too few messages), the seconds until the last row
    was finished, and False."""
    from notifications.models import Notification, NotificationStatus

    waiting = Notification.objects.filter(status=NotificationStatus.PENDING)
    sending = Notification.objects.filter(status=NotificationStatus.SENDING)
    last_count, last_change = None, time.perf_counter()
    while True:
        if not sending.exists() and not waiting.exists():
            return time.perf_counter() - started, True
        now = time.perf_counter()
        count = waiting.count() + sending.count()
        if count != last_count:
            last_count, last_change = count, now
        elif now - last_change > 10 and not sending.exists():
            return last_change - started, False  # every message has run: wait for beat
        for w in workers:
            if w.proc.poll() is not None:
                raise RuntimeError(f"a worker exited ({w.proc.returncode}):\n{w.output()}")
        if now - started > timeout:
            raise RuntimeError(f"not drained within {timeout:.0f} s")
        time.sleep(POLL)


def _settle(workers, messages: int, timeout: float = 60) -> None:
    """Wait until every drain message has run (the extra ones find nothing to do), so
    each pool process's count of emails is final."""
    pattern = re.compile(r"Task cadence\.send_notifications\[[^\]]+\] succeeded")
    deadline = time.monotonic() + timeout
    while sum(len(pattern.findall(w.output())) for w in workers) < messages:
        if time.monotonic() > deadline:
            raise RuntimeError(f"not every one of the {messages} drain messages finished")
        time.sleep(0.2)


def _verify(n: int, folder: Path, drained: bool) -> dict:
    """Every row sent once, or still pending if the drains stopped short; nothing
    failed, skipped, stuck in `sending` or claimed twice; one email per sent row."""
    from django.db.models import Count

    from notifications.models import Notification, NotificationStatus

    statuses = dict(Notification.objects.values_list("status").annotate(n=Count("pk")))
    claimed_twice = Notification.objects.filter(attempts__gt=1).count()
    per_process = [int(p.read_text()) for p in sorted(folder.glob("*.sent"))]
    emails = sum(per_process)
    sent = statuses.get(NotificationStatus.SENT, 0)
    pending = statuses.get(NotificationStatus.PENDING, 0)
    ok = (
        sent + pending == n
        and set(statuses) <= {NotificationStatus.SENT, NotificationStatus.PENDING}
        and (pending == 0 or not drained)
        and claimed_twice == 0
        and emails == sent
    )
    return {
        "ok": ok,
        "sent": sent,
        "statuses": statuses,
        "claimed_twice": claimed_twice,
        "emails": f"{emails:,} ({' + '.join(f'{c:,}' for c in per_process)})",
    }


if __name__ == "__main__":
    main()
