"""Benchmark: materialising the weeks ahead for N live plans (default 50,000).

    make bench-generate                   # PostgreSQL database tandem_bench_generate on localhost
    BENCH_DATABASE_URL=postgres://... .venv/bin/python bench/generate.py --plans 50000

It builds a fresh database shaped like an organisation that runs the programme:
teams of five to ten reps, each with a weekly 1:1 per rep (mostly 30 minutes, some
45, on every weekday), a weekly team call review, a monthly role-play (2nd Wednesday;
one organisation-wide focus area is active) and a monthly manager review between the
lead and the lead's manager (last Friday); leads and their managers in a dozen time
zones, half-hour and 45-minute offsets included. No plan has anything generated yet;
the tables are analysed, as autovacuum would have.
Then it times one `engine.occurrences_generate()` for the CADENCE_HORIZON_WEEKS (6)
horizon and counts what it made: rows inserted are sessions, participants, shared
notes and occurrences. Two more runs follow, what beat's hourly run costs afterwards:
one an hour later, at once (planned on the statistics of the tables before the
insert), which finds only the plans whose next slot came within the horizon in that
hour — a plan is due again only then — and one a day later, after an ANALYZE (as autovacuum
would have by then), which makes the day's new slots: what that day's 24 hourly runs
make between them, in one run.

It runs `config.settings.local` with DEBUG off, as a deployment would, and drops its
database at the end (`--keep` keeps it; `--profile FILE` writes a cProfile of the
first run). Reports seconds; a measurement, never a test that fails on a slow machine."""

import argparse
import cProfile
import os
import sys
import time
from datetime import time as wall
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scratch_database import scratch_database  # noqa: E402 - bench/ sibling

# Where teams sit: a lead's zone is the team's; the lead's manager keeps their own.
ZONES = [
    "Europe/Berlin",
    "America/New_York",
    "Europe/London",
    "America/Los_Angeles",
    "Asia/Kolkata",
    "Australia/Sydney",
    "America/Chicago",
    "Asia/Singapore",
    "America/Sao_Paulo",
    "Europe/Paris",
    "Asia/Kathmandu",
    "Asia/Tokyo",
]
TEAM_SIZES = [8, 6, 9, 7, 10, 5, 8, 9]  # reps per team, cycled: 7.75 on average
LEADS_PER_MANAGER = 6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plans", type=int, default=50_000)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--profile", metavar="FILE", help="cProfile the first run into FILE")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="the first run as this many processes, one id range each (as CADENCE_GENERATORS)",
    )
    args = parser.parse_args()
    with scratch_database("tandem_bench_generate", keep=args.keep):
        _run(args)


def _run(args) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    populate_seconds, kinds = _populate(args.plans)
    from django.db import connection

    # Statistics as a deployment's autovacuum keeps them (it may be off on the machine
    # measuring): people, teams and plans analysed, sessions and occurrences analysed
    # while still empty — the first run's inserts come after.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")

    from cadence.engine import occurrences_generate

    load_before = os.getloadavg()
    profile = cProfile.Profile() if args.profile else None
    cpu_before = _cpu_seconds()
    started = time.perf_counter()
    if profile:
        profile.enable()
    if args.processes > 1:
        created = _generate_in_processes(args.processes)
    else:
        created = occurrences_generate()
    seconds = time.perf_counter() - started
    cpu = {k: v - cpu_before[k] for k, v in _cpu_seconds().items()}
    if profile:
        profile.disable()
        profile.dump_stats(args.profile)
    counts = _counts()
    from django.utils import timezone

    first_at = timezone.now()
    cpu_before = _cpu_seconds()
    started = time.perf_counter()
    hour_later = occurrences_generate(now=first_at + timedelta(hours=1))
    hour_seconds = time.perf_counter() - started
    cpu_hour = {k: v - cpu_before[k] for k, v in _cpu_seconds().items()}
    # A day on, autovacuum has analysed the new rows; straight after a big insert the
    # run plans its queries on statistics of empty tables.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    cpu_before = _cpu_seconds()
    started = time.perf_counter()
    day_later = occurrences_generate(now=first_at + timedelta(days=1))
    day_seconds = time.perf_counter() - started
    cpu_day = {k: v - cpu_before[k] for k, v in _cpu_seconds().items()}
    load_after = os.getloadavg()

    rows = sum(counts.values())
    print(
        "Plans: "
        + ", ".join(f"{n:,} {kind}" for kind, n in kinds.items())
        + f". Load average before/after: {_load(load_before)} / {_load(load_after)}."
    )
    print(
        "CPU seconds, Python + its PostgreSQL backend (the work, whatever the load):"
        + (f" first run {_cpu(cpu)}," if args.processes == 1 else "")
        + f" an hour later {_cpu(cpu_hour)}, a day later {_cpu(cpu_day)}."
    )
    print(
        "| plans | occurrences | sessions | participants | rows inserted "
        "| generate seconds | rows/second | an hour later: made, seconds "
        "| a day later: made, seconds | setup seconds |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    row = [
        f"{args.plans:,}",
        f"{counts['occurrences']:,}",
        f"{counts['sessions']:,}",
        f"{counts['participants']:,}",
        f"{rows:,}",
        f"{seconds:.2f}",
        f"{rows / seconds:,.0f}",
        f"{hour_later:,}, {hour_seconds:.2f}",
        f"{day_later:,}, {day_seconds:.2f}",
        f"{populate_seconds:.1f}",
    ]
    print("| " + " | ".join(row) + " |")
    assert created == counts["occurrences"] == counts["sessions"], "one session per occurrence"


def _generate_in_processes(n: int) -> int:
    """The first run as `n` processes side by side, each `occurrences_generate` for
    one id range from `occurrences_due_ranges` — what beat's task hands to
    CADENCE_GENERATORS workers (cadence/tasks.py). Counted from the moment the ranges
    are read."""
    import multiprocessing

    from django.db import connections
    from django.utils import timezone

    from cadence.engine import occurrences_due_ranges

    now = timezone.now()
    ranges = occurrences_due_ranges(n, now=now)
    connections.close_all()  # each child opens its own
    with multiprocessing.get_context("fork").Pool(len(ranges)) as pool:
        return sum(pool.starmap(_generate_part, [(r, now) for r in ranges]))


def _generate_part(id_range, now) -> int:
    from django.db import connections

    from cadence.engine import occurrences_generate

    try:
        return occurrences_generate(now=now, id_range=id_range)
    finally:
        connections.close_all()


def _cpu_seconds() -> dict[str, float]:
    """CPU time so far of this process and of its PostgreSQL backend (same machine;
    0 for the backend when /proc does not show it)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        backend = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        backend = 0.0
    return {"python": time.process_time(), "postgres": backend}


def _cpu(seconds: dict[str, float]) -> str:
    return f"{seconds['python']:.1f} + {seconds['postgres']:.1f}"


def _load(triple) -> str:
    return " ".join(f"{x:.2f}" for x in triple)


def _counts() -> dict[str, int]:
    from cadence.models import Occurrence
    from coaching.models import CoachingSession, SessionParticipant, SharedNotes

    return {
        "occurrences": Occurrence.objects.count(),
        "sessions": CoachingSession.objects.count(),
        "participants": SessionParticipant.objects.count(),
        "notes": SharedNotes.objects.count(),
    }


def _populate(n: int) -> tuple[float, dict[str, int]]:
    """Teams with leads, reps and the leads' managers, and exactly N live plans with
    nothing generated, in bulk. Returns the seconds taken and the plans per kind."""
    from django.utils import timezone

    from cadence.models import CadencePlan, Recurrence
    from coaching.models import FocusArea, SessionKind
    from people.models import Team, TeamMembership, User

    started = time.perf_counter()
    today = timezone.now().date()
    FocusArea.objects.create(
        name="Discovery questions",
        behaviours="Open questions before the demo\nConfirm the pain in their words",
        starts_on=today - timedelta(days=30),
    )
    plans: list[CadencePlan] = []
    kinds = {k: 0 for k in SessionKind.values if k != SessionKind.PEER}
    serial = 0  # people made so far, for unique emails
    team_no = 0

    def person(label: str, zone: str, boss=None) -> User:
        nonlocal serial
        serial += 1
        return User(
            email=f"{label}{serial}@bench.test",
            display_name=f"{label.title()} {serial:06d}",
            time_zone=zone,
            reports_to=boss,
        )

    def plan(kind, coach, zone, **fields) -> None:
        kinds[kind] += 1
        plans.append(
            CadencePlan(
                kind=kind,
                coach=coach,
                time_zone=zone,
                starts_on=today - timedelta(days=21),
                **fields,
            )
        )

    made = 0
    while made < n:
        # One manager of managers with up to six teams below.
        boss_zone = ZONES[team_no % len(ZONES)]
        (boss,) = User.objects.bulk_create([person("director", boss_zone)])
        leads = User.objects.bulk_create(
            person("lead", ZONES[(team_no + i) % len(ZONES)], boss)
            for i in range(LEADS_PER_MANAGER)
        )
        teams = Team.objects.bulk_create(
            Team(name=f"Team {team_no + i:05d}", lead=lead) for i, lead in enumerate(leads)
        )
        reps_of = {}
        for i, (team, lead) in enumerate(zip(teams, leads, strict=True)):
            size = TEAM_SIZES[(team_no + i) % len(TEAM_SIZES)]
            reps_of[team.pk] = [person("rep", lead.time_zone, lead) for _ in range(size)]
        User.objects.bulk_create(r for reps in reps_of.values() for r in reps)
        TeamMembership.objects.bulk_create(
            [TeamMembership(team=t, person=t.lead) for t in teams]
            + [TeamMembership(team_id=t, person=r) for t, reps in reps_of.items() for r in reps]
        )
        for team, lead in zip(teams, leads, strict=True):
            zone = lead.time_zone
            for j, rep in enumerate(reps_of[team.pk]):
                plan(
                    SessionKind.ONE_ON_ONE,
                    lead,
                    zone,
                    coachee=rep,
                    weekday=j % 5,
                    local_time=wall(9 + j % 8, 30 * (j % 2)),
                    duration_minutes=45 if j % 4 == 3 else 30,
                )
            plan(
                SessionKind.TEAM_CALL_REVIEW,
                lead,
                zone,
                team=team,
                weekday=3,
                local_time=wall(15, 0),
                duration_minutes=45,
            )
            plan(
                SessionKind.ROLE_PLAY,
                lead,
                zone,
                team=team,
                recurrence=Recurrence.MONTHLY_NTH,
                weekday=2,
                week_of_month=2,
                local_time=wall(14, 0),
                duration_minutes=60,
            )
            plan(
                SessionKind.MANAGER_REVIEW,
                boss,
                boss.time_zone,
                coachee=lead,
                recurrence=Recurrence.MONTHLY_LAST,
                weekday=4,
                local_time=wall(11, 0),
                duration_minutes=45,
            )
        team_no += LEADS_PER_MANAGER
        if len(plans) >= 5_000 or made + len(plans) >= n:
            for dropped in plans[n - made :]:  # the last teams, cut to exactly N plans
                kinds[dropped.kind] -= 1
            made += len(CadencePlan.objects.bulk_create(plans[: n - made]))
            plans.clear()
    return time.perf_counter() - started, kinds


if __name__ == "__main__":
    main()
