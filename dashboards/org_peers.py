"""Peer coaching across the organisation, for HR and programme admins: whether people
coach each other — one of the leading measures DOMAIN.md names ("peer
participation"). Month by month over the last `MONTHS` calendar months in the
reader's time zone: how many people were in a peer pair or trio, how many met a peer,
the peer sessions held, the pairs that started and ended; and today's share of the
organisation in a pair.

Participation is voluntary, so this is the organisation's number only: never a team's
or a manager's (a team's count would become a quota and, in a small team, name its
people), never a pair, a name, a note or a habit. A month in which fewer than
`MIN_GROUP` people took part shows no number at all, nor does today's share. Four
queries whatever the number of people, pairs or sessions (pinned by
tests/dashboards/test_org_peers.py at two sizes)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo

from django.db.models import Count, F, Q
from django.db.models.functions import TruncMonth
from django.utils import timezone
from django.utils.safestring import SafeString

from coaching.models import CoachingSession, SessionKind, SessionParticipant, SessionStatus
from peers.models import PairMember, PeerPair
from people.models import User

from .charts import month_bars
from .org_skills import MONTHS, month_starts
from .privacy import too_few


@dataclass(frozen=True)
class MonthPeers:
    """One calendar month. `suppressed`: fewer than MIN_GROUP people took part, so
    none of its numbers is shown."""

    month: date  # the 1st
    in_pairs: int  # people in a started pair or trio at any time in the month
    met: int  # people who held a peer session in the month
    sessions: int  # peer sessions held (by their start)
    started: int  # pairs that started (every member accepted) in the month
    ended: int  # started pairs that ended in the month

    @property
    def suppressed(self) -> bool:
        return too_few(max(self.in_pairs, self.met))


@dataclass(frozen=True)
class OrgPeers:
    months: list[MonthPeers]  # oldest first; the last is the current month, so far
    people: int  # active people in the organisation now
    in_pairs_now: int  # of them, in a live pair or trio now
    chart: SafeString | str = ""

    @property
    def suppressed_now(self) -> bool:
        return too_few(self.in_pairs_now)

    @property
    def in_pairs_shown(self) -> int | None:
        return None if self.suppressed_now else self.in_pairs_now

    @property
    def share_now(self) -> float | None:
        if self.suppressed_now or not self.people:
            return None
        return self.in_pairs_now / self.people


def organisation_peers(*, today: date, tz: tzinfo, until: datetime) -> OrgPeers:
    """The months up to `today` (the reader's date), counting what happened before
    `until` (now)."""
    months = month_starts(today, MONTHS)
    bounds = [datetime.combine(m, time.min, tzinfo=tz) for m in months] + [until]
    in_pairs, now = _memberships(bounds)
    met, sessions = _peer_sessions(bounds, tz)
    started, ended = _pairs_started_and_ended(bounds)
    found = [
        MonthPeers(m, in_pairs[i], met.get(m, 0), sessions.get(m, 0), started[i], ended[i])
        for i, m in enumerate(months)
    ]
    people = User.objects.filter(is_active=True).count()
    return OrgPeers(found, people, now, _chart(found))


@dataclass(frozen=True)
class PeersNow:
    as_of: datetime
    peers: OrgPeers


def peers_now(*, tz: tzinfo) -> PeersNow:
    """As of this moment, in the reader's time zone. Worked out per request — a few
    small aggregates — so the page, its CSV and the API count everything up to the
    moment asked."""
    now = timezone.now()
    return PeersNow(now, organisation_peers(today=now.astimezone(tz).date(), tz=tz, until=now))


def _overlaps(start: datetime, end: datetime) -> Q:
    """A membership that counted at some moment in [start, end): the pair had started
    and not yet ended, and the member had accepted and not yet left — leaving before
    the pair started (a trio's third declining) never counts."""
    return (
        Q(pair__started_at__lt=end)
        & (Q(pair__ended_at__isnull=True) | Q(pair__ended_at__gte=start))
        & (Q(left_at__isnull=True) | Q(left_at__gte=start, left_at__gt=F("pair__started_at")))
    )


def _memberships(bounds: list[datetime]) -> tuple[list[int], int]:
    """One query: the people in a pair in each month, and now (live pair, still a
    member, still with us)."""
    counts = {
        f"m{i}": Count("person", distinct=True, filter=_overlaps(bounds[i], bounds[i + 1]))
        for i in range(len(bounds) - 1)
    }
    live = Q(left_at__isnull=True, pair__ended_at__isnull=True, person__is_active=True)
    row = (
        PairMember.objects.filter(accepted_at__isnull=False, pair__started_at__isnull=False)
        .filter(Q(pair__ended_at__isnull=True) | Q(pair__ended_at__gte=bounds[0]))
        .aggregate(now=Count("person", distinct=True, filter=live), **counts)
    )
    return [row[f"m{i}"] for i in range(len(bounds) - 1)], row["now"]


def _peer_sessions(bounds: list[datetime], tz: tzinfo) -> tuple[dict[date, int], dict[date, int]]:
    """One query: per month, the people who held a peer session and how many were held
    — pairs' sessions and ad hoc ones alike (held peer sessions are few: the partial
    index `session_held_by_kind` finds them)."""
    held = CoachingSession.objects.filter(
        kind=SessionKind.PEER,
        status=SessionStatus.HELD,
        held_at__isnull=False,
        scheduled_start__gte=bounds[0],
        scheduled_start__lt=bounds[-1],
    )
    rows = (
        SessionParticipant.objects.filter(session__in=held)
        .annotate(month=TruncMonth("session__scheduled_start", tzinfo=tz))
        .values("month")
        .annotate(people=Count("person", distinct=True), sessions=Count("session", distinct=True))
        .order_by()
    )
    met, sessions = {}, {}
    for row in rows:
        month = row["month"].date() if isinstance(row["month"], datetime) else row["month"]
        met[month], sessions[month] = row["people"], row["sessions"]
    return met, sessions


def _pairs_started_and_ended(bounds: list[datetime]) -> tuple[list[int], list[int]]:
    """One query: pairs that started in each month, and started pairs that ended in it
    (a pair that ended before it started never met: not counted)."""
    n = len(bounds) - 1
    started = {
        f"s{i}": Count("pk", filter=Q(started_at__gte=bounds[i], started_at__lt=bounds[i + 1]))
        for i in range(n)
    }
    ended = {
        f"e{i}": Count(
            "pk",
            filter=Q(started_at__isnull=False, ended_at__gte=bounds[i], ended_at__lt=bounds[i + 1]),
        )
        for i in range(n)
    }
    row = PeerPair.objects.filter(
        Q(started_at__gte=bounds[0]) | Q(ended_at__gte=bounds[0])
    ).aggregate(**started, **ended)
    return [row[f"s{i}"] for i in range(n)], [row[f"e{i}"] for i in range(n)]


def _chart(months: list[MonthPeers]) -> SafeString | str:
    """People who met a peer, month by month; no chart while no month may be shown."""
    if all(m.suppressed for m in months):
        return ""
    return month_bars(
        months=[m.month for m in months],
        values=[None if m.suppressed else m.met for m in months],
        label="People who met a peer, month by month",
        what="people met a peer",
    )
