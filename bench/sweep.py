"""Benchmark: the missed-session sweep over N due sessions (default 100,000).

    make bench-sweep                      # PostgreSQL database tandem_bench on localhost
    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/sweep.py --sessions 100000

It builds a fresh database, inserts N coachees each with one weekly 1:1 plan whose
last occurrence ended two days ago and nobody logged, then times one sweep and
checks that the outbox holds a "missed" notification for every coach. Reports
seconds; it is a measurement, never a test that fails on a slow machine."""

import argparse
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scratch_database import recreate_database  # noqa: E402 - bench/ sibling


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100_000)
    args = parser.parse_args()
    url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tandem_bench")
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    recreate_database(url)

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    populate_seconds = _populate(args.sessions)

    from cadence.engine import sweep_missed
    from notifications.models import Notification

    started = time.perf_counter()
    marked = sweep_missed()
    seconds = time.perf_counter() - started
    notifications = Notification.objects.filter(kind="missed").count()
    print("| due sessions | marked missed | notifications | sweep seconds | setup seconds |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    row = [
        f"{args.sessions:,}",
        f"{marked:,}",
        f"{notifications:,}",
        f"{seconds:.2f}",
        f"{populate_seconds:.1f}",
    ]
    print("| " + " | ".join(row) + " |")
    assert marked == notifications == args.sessions, "every miss must be in the outbox"


def _populate(n: int) -> float:
    """N coaches, N coachees, N due-and-unlogged 1:1s, in bulk."""
    from django.utils import timezone

    from coaching.models import CoachingSession, SessionParticipant, SharedNotes
    from people.models import User

    started = time.perf_counter()
    start = timezone.now() - timedelta(days=2)
    batch = 5_000
    for offset in range(0, n, batch):
        size = min(batch, n - offset)
        coaches = User.objects.bulk_create(
            User(email=f"coach{offset + i}@bench.test", display_name=f"Coach {offset + i}")
            for i in range(size)
        )
        coachees = User.objects.bulk_create(
            User(
                email=f"rep{offset + i}@bench.test",
                display_name=f"Rep {offset + i}",
                reports_to=coaches[i],
            )
            for i in range(size)
        )
        sessions = CoachingSession.objects.bulk_create(
            CoachingSession(
                kind="one_on_one",
                scheduled_start=start,
                original_start=start,
                scheduled_end=start + timedelta(minutes=30),
                duration_minutes=30,
            )
            for _ in range(size)
        )
        SessionParticipant.objects.bulk_create(
            [
                SessionParticipant(session=s, person=c, role="coach", scheduled_start=start)
                for s, c in zip(sessions, coaches, strict=False)
            ]
            + [
                SessionParticipant(session=s, person=r, role="coachee", scheduled_start=start)
                for s, r in zip(sessions, coachees, strict=False)
            ]
        )
        SharedNotes.objects.bulk_create(SharedNotes(session=s) for s in sessions)
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
