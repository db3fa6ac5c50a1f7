"""Benchmark: importing an organisation of N people (default 10,000) from a CSV file.

    make bench-imports                    # PostgreSQL database tandem_bench_imports on localhost
    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/imports.py --people 10000

It builds a fresh, empty database and a file shaped like seed_scale's organisation:
a head, managers in levels of ten below (1,111 of them, the last level leading a team
each), everyone else a rep in one of those teams, in a dozen time zones, with a few
HR people and programme admins. Then it times each step of an import as the browser
and the API run it (people.services_imports), the worker's (people.import_worker) in process:

- upload: reading and checking every row, the part a web request waits for;
- check: the worker's trial run (the whole import, rolled back) for the counts;
- apply: the worker's import, in one transaction;
- the same file again (a nightly HR export with nothing new): upload, check, apply.

It runs `config.settings.local` with DEBUG off, as a deployment would, and drops its
database at the end (`--keep` keeps it). Reports seconds; a measurement, never a test
that fails on a slow machine."""

import argparse
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generate import ZONES  # noqa: E402 - bench/ sibling
from scratch_database import scratch_database  # noqa: E402

HEADER = "email,name,manager_email,team,time_zone,role\n"
FANOUT = 10
MANAGER_LEVELS = 4  # 1 + 10 + 100 + 1,000 managers; the last level leads the teams


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=10_000)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args()
    with scratch_database("tandem_bench_imports", keep=args.keep):
        _run(args.people)


def organisation_csv(n: int, *, reorganised: bool = False) -> str:
    """n people: managers level by level (each reporting to one of the level above),
    then reps spread over the last level's teams. Reorganised, the same people after a
    reorganisation: one rep in ten moved to the next team and its lead, one person in
    twenty renamed, one in fifty in another time zone."""
    rows = []
    levels = [[0]]
    rows.append(_row(0, None, "Leadership", "manager", reorganised))
    while len(levels) < MANAGER_LEVELS and len(rows) < n:
        level = []
        for i in range(len(levels[-1]) * FANOUT):
            if len(rows) >= n:
                break
            pk = len(rows)
            boss = levels[-1][i // FANOUT]
            last = len(levels) == MANAGER_LEVELS - 1
            team = f"Team {pk}" if last else ""
            rows.append(_row(pk, boss, team, "manager" if last else "", reorganised))
            level.append(pk)
        levels.append(level)
    leads = levels[-1]
    while len(rows) < n:
        pk = len(rows)
        lead = leads[(pk + (reorganised and pk % 10 == 3)) % len(leads)]
        role = "hr" if pk % 2_000 == 7 else "programme_admin" if pk % 5_000 == 9 else ""
        rows.append(_row(pk, lead, f"Team {lead}", role, reorganised))
    return HEADER + "".join(rows)


def _row(pk: int, manager: int | None, team: str, role: str, reorganised: bool = False) -> str:
    manager_email = f"person{manager}@bench.example.com" if manager is not None else ""
    zone = ZONES[(pk + (reorganised and pk % 50 == 5)) % len(ZONES)]
    name = f"Person {pk}" + (" Jr" if reorganised and pk % 20 == 1 else "")
    return f"person{pk}@bench.example.com,{name},{manager_email},{team},{zone},{role}\n"


def _run(n: int) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from people import import_worker
    from people import services_imports as services
    from people.models import PeopleImport, User

    admin = User.objects.create_user(email="admin@bench.example.com", display_name="Admin")
    raw = organisation_csv(n).encode()
    print(f"File: {n:,} people, {len(raw) / 1024 / 1024:.1f} MB; PostgreSQL, empty database.")

    rows = []

    def timed(label: str, step, *args, **kwargs):
        started = time.perf_counter()
        result = step(*args, **kwargs)
        seconds = time.perf_counter() - started
        rows.append((label, seconds))
        print(f"  {label:<34} {seconds:8.2f} s", flush=True)
        return result

    # The worker's steps are called here, in process: nothing is queued.
    files = {
        "first import": raw,
        "same file again": raw,
        "reorganised": organisation_csv(n, reorganised=True).encode(),
    }
    with mock.patch.object(services, "_queue"):
        for run, raw in files.items():
            print(f"{run}:")
            job = timed(
                "upload (checks every row)",
                services.import_upload,
                actor=admin,
                file_name="org.csv",
                raw=raw,
            )
            timed("check (trial run, rolled back)", import_worker.import_run, job.pk)
            job.refresh_from_db()
            print(f"    would: {job.checked_counts}")
            services.import_apply(actor=admin, job=job)
            timed("apply (one transaction)", import_worker.import_run, job.pk)
            job = PeopleImport.objects.get(pk=job.pk)
            print(f"    did:   {job.applied_counts} ({job.status})")

    print()
    print("| step | " + " | ".join(files) + " |")
    print("| --- |" + " --- |" * len(files))
    steps = len(rows) // len(files)
    for i in range(steps):
        seconds = " | ".join(f"{rows[i + run * steps][1]:.2f} s" for run in range(len(files)))
        print(f"| {rows[i][0]} | {seconds} |")


if __name__ == "__main__":
    main()
