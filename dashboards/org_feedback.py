"""Feedback across the organisation, for HR and programme admins: whether feedback is
sought and flows in every direction — two of the leading measures DOMAIN.md names
("feedback sought unprompted", down, up and between peers). Month by month over the
last `MONTHS` calendar months in the reader's time zone: the people who asked for
feedback and the requests they made; the feedback given — down, up, between peers,
and how much of it nobody had asked for — and by how many people; the wins shared.
And over the last `RECENT_DAYS`: the share of the organisation that asked for
feedback, and the share that gave some unasked.

Counts only, of both streams together and never split by stream, team, manager or
person: no text, no name, nothing that says who wrote what or to whom — a team's
count would become a quota, and developmental feedback stays out of every
evaluation. Notes to self are not feedback given. A month in which fewer than
`MIN_GROUP` people asked and fewer than `MIN_GROUP` gave shows no number at all; a
share under `MIN_GROUP` people is not shown either. Six queries whatever the number
of people or items (pinned by tests/dashboards/test_org_feedback.py at two sizes);
too slow per request at 10,000 people with a million items (bench/routes.py), so
`dashboards.snapshots` keeps
it per refresh slot, like skills."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo

from django.db.models import Count, Q
from django.db.models.functions import TruncMonth
from django.utils.safestring import SafeString

from feedback.models import Direction, Feedback, FeedbackRequest, Win
from people.models import User

from .charts import month_bars
from .org_skills import MONTHS, month_starts
from .privacy import too_few

RECENT_DAYS = 90


@dataclass(frozen=True)
class MonthFeedback:
    """One calendar month. `suppressed`: fewer than MIN_GROUP people asked and fewer
    than MIN_GROUP gave, so none of its numbers is shown."""

    month: date  # the 1st
    asked: int = 0  # people who asked for feedback
    requests: int = 0  # requests they made
    givers: int = 0  # people who gave feedback (to someone else)
    unasked_givers: int = 0  # people who gave some that nobody had asked for
    given: int = 0  # items given: down + up + peer
    down: int = 0
    up: int = 0
    peer: int = 0
    unasked: int = 0  # of the items given, those that answered no request
    wins: int = 0  # wins shared with a team

    @property
    def suppressed(self) -> bool:
        return too_few(max(self.asked, self.givers))


@dataclass(frozen=True)
class Share:
    """How many of the organisation's `people` did something; None shown under
    MIN_GROUP."""

    count: int
    people: int

    @property
    def suppressed(self) -> bool:
        return too_few(self.count)

    @property
    def shown(self) -> int | None:
        return None if self.suppressed else self.count

    @property
    def share(self) -> float | None:
        if self.suppressed or not self.people:
            return None
        return self.count / self.people


@dataclass(frozen=True)
class OrgFeedback:
    months: list[MonthFeedback]  # oldest first; the last is the current month, so far
    asked_recently: Share  # active people who asked in the last RECENT_DAYS
    gave_unasked_recently: Share  # active people who gave feedback nobody asked for
    chart: SafeString | str = ""

    @property
    def recent_days(self) -> int:
        return RECENT_DAYS


def organisation_feedback(*, today: date, tz: tzinfo, until: datetime) -> OrgFeedback:
    """The months up to `today` (the reader's date), counting what happened before
    `until`."""
    months = month_starts(today, MONTHS)
    start = datetime.combine(months[0], time.min, tzinfo=tz)
    given = _given(start, until, tz)
    asked = _asked(start, until, tz)
    wins = _wins(start, until, tz)
    found = [
        MonthFeedback(month=m, **asked.get(m, {}), **given.get(m, {}), wins=wins.get(m, 0))
        for m in months
    ]
    people = User.objects.filter(is_active=True).count()
    since = until - timedelta(days=RECENT_DAYS)
    return OrgFeedback(
        months=found,
        asked_recently=Share(_recent_askers(since, until), people),
        gave_unasked_recently=Share(_recent_unasked_givers(since, until), people),
        chart=_chart(found),
    )


def _by_month(queryset, tz: tzinfo, **counts) -> dict[date, dict[str, int]]:
    """One query: `counts` per calendar month of `created_at` in `tz`."""
    rows = (
        queryset.annotate(month=TruncMonth("created_at", tzinfo=tz))
        .values("month")
        .annotate(**counts)
        .order_by()
    )
    return {_day(row.pop("month")): row for row in rows}


def _day(month) -> date:
    return month.date() if isinstance(month, datetime) else month


def _feedback_given(start: datetime, until: datetime):
    """Feedback to someone else (notes to self are not given), both streams."""
    return Feedback.objects.filter(created_at__gte=start, created_at__lt=until).exclude(
        direction=Direction.SELF
    )


def _given(start: datetime, until: datetime, tz: tzinfo) -> dict[date, dict[str, int]]:
    return _by_month(
        _feedback_given(start, until),
        tz,
        givers=Count("author", distinct=True),
        unasked_givers=Count("author", distinct=True, filter=Q(request__isnull=True)),
        given=Count("pk"),
        down=Count("pk", filter=Q(direction=Direction.DOWNWARD)),
        up=Count("pk", filter=Q(direction=Direction.UPWARD)),
        peer=Count("pk", filter=Q(direction=Direction.PEER)),
        unasked=Count("pk", filter=Q(request__isnull=True)),
    )


def _asked(start: datetime, until: datetime, tz: tzinfo) -> dict[date, dict[str, int]]:
    return _by_month(
        FeedbackRequest.objects.filter(created_at__gte=start, created_at__lt=until),
        tz,
        asked=Count("requester", distinct=True),
        requests=Count("pk"),
    )


def _wins(start: datetime, until: datetime, tz: tzinfo) -> dict[date, int]:
    found = _by_month(
        Win.objects.filter(created_at__gte=start, created_at__lt=until), tz, wins=Count("pk")
    )
    return {month: row["wins"] for month, row in found.items()}


def _recent_askers(since: datetime, until: datetime) -> int:
    return FeedbackRequest.objects.filter(
        created_at__gte=since, created_at__lt=until, requester__is_active=True
    ).aggregate(n=Count("requester", distinct=True))["n"]


def _recent_unasked_givers(since: datetime, until: datetime) -> int:
    return (
        _feedback_given(since, until)
        .filter(request__isnull=True, author__is_active=True)
        .aggregate(n=Count("author", distinct=True))["n"]
    )


def _chart(months: list[MonthFeedback]) -> SafeString | str:
    """People who asked for feedback, month by month; no chart while no month may be
    shown."""
    if all(m.suppressed for m in months):
        return ""
    return month_bars(
        months=[m.month for m in months],
        values=[None if m.suppressed else m.asked for m in months],
        label="People who asked for feedback, month by month",
        what="people asked for feedback",
    )
