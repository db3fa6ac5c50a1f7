"""Data at scale: a whole organisation with years of coaching history, for benchmarks
of the pages and of the cadence engine (`manage.py seed_scale`, `make seed-scale`).

Deterministic: the same `seed`, number of people and day give the same rows. Every
time is relative to that day (UTC): the history runs back from the Monday of the
current week, so the dashboards' last weeks look live, and plans are materialised up
to the cadence horizon ahead. Pass `today` to reproduce another day's rows.

The work is done area by area, each module with its own random stream:
`org` (the organisation in memory) → `people` (users, lines, teams) → `programme`
(policy, install plans, focus areas, goals) → `cadence` (plans, sessions, notes,
commitments, ratings) → `peers` (pairs and their sessions) → `practice` (playbook
picks, diagnoses, experiments, learnings, peer requests, channels, calendar feeds,
a closure ahead) → `feedback` →
`scorecards` → `notifications` (the year of the outbox retention keeps). `sink`
writes: PostgreSQL COPY with ids assigned in Python, or bulk_create on other
databases.

It only ever fills an empty organisation: with anyone in the people table it
refuses (`Refused`), so it can never mix with real data or run twice."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from datetime import time as dt_time

from django.db import transaction

from coaching.models import CoachingSession
from coaching.ratings import release_usefulness
from devdata.demo.people import DEMO_PASSWORD
from feedback.models import Feedback
from people.below import reporting_changed
from people.models import Team, User
from scorecards.models import ScoringRound, refresh_awaiting_scores

from . import (
    cadence,
    feedback,
    notifications,
    org,
    peers,
    people,
    practice,
    programme,
    scorecards,
)
from .sink import Sink

DEFAULT_SEED = 2026


class Refused(Exception):
    """The database already holds an organisation."""


@dataclass
class Phase:
    name: str
    seconds: float
    rows: dict[str, int]


@dataclass
class Result:
    people: int
    phases: list[Phase]
    counts: dict[str, int]
    seconds: float
    size: str | None
    logins: list[tuple[str, str]]  # (what, email)
    triggers_off: bool = False
    foreign_keys_checked: int = 0
    today: date | None = None
    notes: list[str] = field(default_factory=list)


def refusal(using: str = "default") -> str | None:
    """Why this database cannot take the scale data, or None when it can."""
    for model, what in (
        (User, "people"),
        (Team, "teams"),
        (CoachingSession, "sessions"),
        (Feedback, "feedback"),
    ):
        count = model.objects.using(using).count()
        if count:
            return (
                f"This database already has {count:,} {what}. seed_scale fills an empty "
                "organisation only: use a fresh database, e.g. "
                "DATABASE_URL=postgres://postgres@127.0.0.1:5432/tandem_scale "
                "(createdb, then manage.py migrate)."
            )
    return None


def seed(
    *,
    people_count: int,
    years: int = 2,
    seed: int = DEFAULT_SEED,
    today: date,
    using: str = "default",
    progress: Callable[[str], None] = lambda line: None,
    verify: bool = True,
) -> Result:
    reason = refusal(using)
    if reason:
        raise Refused(reason)
    started = time.perf_counter()
    clock = org.Clock(today=today, years=years)
    sink = Sink(using)
    phases: list[Phase] = []
    try:
        built = org.build(
            n=people_count,
            seed=seed,
            clock=clock,
            user_base=_max_id(sink, User),
            team_base=_max_id(sink, Team),
        )

        def phase(name: str, work: Callable[[], object]):
            before = dict(sink.counts)
            began = time.perf_counter()
            progress(f"{name} …")
            if sink.copy:
                value = work()
                sink.commit()
            else:
                with transaction.atomic(using=using):
                    value = work()
                    sink.commit()
            rows = {k: v - before.get(k, 0) for k, v in sink.counts.items() if v - before.get(k, 0)}
            done = Phase(name, time.perf_counter() - began, rows)
            phases.append(done)
            progress(f"{name}: {sum(rows.values()):,} rows in {done.seconds:.1f} s")
            return value

        phase("people and teams", lambda: people.write(sink, built, seed=seed))
        # Written by COPY, maybe with the triggers off: say so, or a summary kept from
        # before the seed (`people.below`) would still be read.
        reporting_changed(using=using)
        prog = phase("programme", lambda: programme.write(sink, built, seed=seed))
        history = cadence.Cadence(sink, built, prog, seed=seed)
        phase("cadence history", lambda: history.run(progress=progress))
        phase("peer coaching", lambda: peers.PeerHistory(history, built, prog, seed=seed).run())
        phase("practice", lambda: practice.Practice(sink, built, prog, seed=seed).run())
        phase(
            "feedback",
            lambda: feedback.FeedbackHistory(sink, built, prog, seed=seed).run(progress=progress),
        )
        phase(
            "scorecards",
            lambda: scorecards.ScorecardHistory(sink, built, prog, seed=seed).run(
                progress=progress
            ),
        )
        phase("notifications", lambda: notifications.Outbox(sink, built, seed=seed).run())
        began = time.perf_counter()
        progress("finishing: sequences, foreign keys, VACUUM ANALYZE …")
        sink.close()
        sink.reset_sequences()
        # Rounds went in by COPY: which still wait for someone's scores (`scoring_over`).
        refresh_awaiting_scores(ScoringRound.objects.using(using))
        checked = sink.verify_foreign_keys() if (verify and sink.triggers_off) else 0
        sink.analyze()
        # Where beat's hourly count of session usefulness would stand today.
        release_usefulness(now=datetime.combine(today, dt_time(12), tzinfo=UTC))
        phases.append(Phase("finish", time.perf_counter() - began, {}))
    finally:
        sink.close()
    return Result(
        people=people_count,
        phases=phases,
        counts=dict(sink.counts),
        seconds=time.perf_counter() - started,
        size=sink.database_size(),
        logins=_logins(built),
        triggers_off=sink.triggers_off,
        foreign_keys_checked=checked,
        today=today,
    )


def _max_id(sink: Sink, model) -> int:
    take = sink.next_id(model)
    base = take() - 1
    sink.ids[model] = base
    return base


def _logins(o: org.Org) -> list[tuple[str, str]]:
    """A few people to sign in as (password: the demo's): a team lead with a full
    team, one of their reps, the manager of managers above them, the head, HR, a
    programme admin. The same people for a seed and size whatever the day."""
    by_id = o.by_id
    lead = next(
        (
            by_id[t.lead]
            for t in o.teams
            if len([m for m in t.members_at(o.clock.now) if by_id[m].active]) >= 9
        ),
        by_id[o.teams[0].lead],
    )
    team = o.team_by_id[lead.led]
    rep = by_id[min(m for m in team.members_at(o.clock.now) if by_id[m].active)]
    boss = by_id[lead.manager]
    return [
        ("manager (team lead)", lead.email),
        ("rep on that team", rep.email),
        ("manager of managers", boss.email),
        ("head of the organisation", o.head.email),
        ("HR", o.hr[0].email),
        ("programme admin", o.admins[0].email),
        ("password", DEMO_PASSWORD),
    ]
