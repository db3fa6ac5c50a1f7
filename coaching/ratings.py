"""Session usefulness: the rules for rating a session and the reads built on ratings.

After a held 1:1 or manager review its coachee may say how useful it was (1–5, with an
optional comment) for `RATING_DAYS`, and change it meanwhile. Nobody reads a single
rating but its rater. A coach — and anyone above the coach — sees a summary over a
window only once it holds at least `RATING_MIN_RATINGS` ratings from at least
`RATING_MIN_RATERS` people (five ratings from one report would be that report's own);
comments are for the coach alone, inside a shown summary, without names or dates, in
alphabetical order so their order cannot tell which is recent. Dashboards count
only released ratings (`release_usefulness`, `released_summaries`): closed ones (no
longer open to change), up to a coach's count, which moves on at a Monday once the
ratings of at least three people have closed since it last moved — so no reading
differs from an earlier one by one person's ratings, given or changed. HR and
programme admins see nothing of ratings. See docs/coaching.md, "Session usefulness".

Dashboards build on `released_summaries` and `sessions_to_rate`; the rules
(`is_rater`, `rating_closes_at`, `is_open_for_rating`) are pure functions over a
session with its participants prefetched, like `coaching.rules`."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from typing import ClassVar

from django.db.models import (
    Count,
    DateTimeField,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.utils import timezone

from .models import (
    CoachingSession,
    ParticipantRole,
    SessionKind,
    SessionParticipant,
    SessionRating,
    SessionStatus,
    UsefulnessRelease,
)

RATING_DAYS = 14  # a session can be rated (and the rating changed) this long after it was held
RATING_MIN_RATINGS = 5  # a summary is shown over at least this many ratings…
RATING_MIN_RATERS = 3  # …from at least this many different people
RATED_KINDS = (SessionKind.ONE_ON_ONE, SessionKind.MANAGER_REVIEW)  # kinds with a coachee
SCORES = (1, 2, 3, 4, 5)
SCORE_LABELS = {
    1: "1 — not useful",
    2: "2 — a little useful",
    3: "3 — somewhat useful",
    4: "4 — useful",
    5: "5 — very useful",
}
TOO_FEW_RATINGS = "too few ratings to show"


# --- Rules -----------------------------------------------------------------------------


def is_rater(session: CoachingSession, user) -> bool:
    """The one person who may ever rate this session: its coachee, in a kind that has
    one. (Whether it is rateable *now* is `is_open_for_rating`.)"""
    if session.kind not in RATED_KINDS or user is None or not user.is_authenticated:
        return False
    return any(
        p.person_id == user.pk and p.role == ParticipantRole.COACHEE
        for p in session.participants.all()
    )


def rating_closes_at(session: CoachingSession) -> datetime | None:
    """Until when a held session can be rated; None if it was not held."""
    if session.status != SessionStatus.HELD or session.held_at is None:
        return None
    return session.held_at + timedelta(days=RATING_DAYS)


def is_open_for_rating(session: CoachingSession, now: datetime | None = None) -> bool:
    closes = rating_closes_at(session)
    return closes is not None and (now or timezone.now()) < closes


# --- The rater's own rating (the session page) ------------------------------------------


@dataclass(frozen=True)
class RatingPanel:
    """What the session page shows its coachee: their own rating, if any, and whether
    they can still give or change it."""

    rating: SessionRating | None
    is_open: bool
    closes_at: datetime
    days: ClassVar[int] = RATING_DAYS

    @property
    def score_label(self) -> str:
        return SCORE_LABELS[self.rating.score] if self.rating else ""


def rating_panel(*, session: CoachingSession, user, now=None) -> RatingPanel | None:
    """The coachee's own rating of a held session (one query); None for everyone else
    — the coach, people reading along — without a query, and for the coachee of a
    session not held."""
    if not is_rater(session, user):
        return None
    closes = rating_closes_at(session)
    if closes is None:
        return None
    rating = SessionRating.objects.visible_to(user).filter(session=session).first()
    is_open = (now or timezone.now()) < closes
    if rating is None and not is_open:
        return None
    return RatingPanel(rating=rating, is_open=is_open, closes_at=closes)


def own_rating(*, session: CoachingSession, user) -> SessionRating | None:
    return SessionRating.objects.visible_to(user).filter(session=session).first()


# --- Summaries -------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingSummary:
    """How useful a coach's sessions were found over a window. `ratings` and `raters`
    are always counted; the rest only when `shown` — below the threshold the average
    is None, the distribution and comments empty."""

    ratings: int
    raters: int
    average: float | None  # None when not shown
    distribution: dict[int, int] = field(default_factory=dict)  # score → count; {} unless shown
    comments: list[str] = field(default_factory=list)  # with_comments and shown only; else []

    @property
    def shown(self) -> bool:
        return enough(ratings=self.ratings, raters=self.raters)

    @property
    def too_few_label(self) -> str:
        return "" if self.shown else TOO_FEW_RATINGS


def enough(*, ratings: int, raters: int) -> bool:
    return ratings >= RATING_MIN_RATINGS and raters >= RATING_MIN_RATERS


EMPTY_SUMMARY = RatingSummary(ratings=0, raters=0, average=None, distribution={}, comments=[])


def _ids(coaches: Iterable) -> list[int]:
    """Users or ids, each once, in the order given."""
    return list(dict.fromkeys(c if isinstance(c, int) else c.pk for c in coaches))


def rating_summaries(
    *, coaches: Iterable, since: datetime, until: datetime, with_comments: bool = False
) -> dict[int, RatingSummary]:
    """Per coach (users or ids), the ratings of their sessions that started in
    [since, until). Every coach asked for is in the result (a zero summary if none).
    Not for dashboards, which read `released_summaries`.

    One grouped query for the numbers; with `with_comments`, one more for the
    comments, and only of the coaches whose summary is shown. Pass `with_comments=True`
    only when the viewer is the coach themself: their manager sees the numbers, never
    the words."""
    ratings = SessionRating.objects.filter(session_start__gte=since, session_start__lt=until)
    return _summaries(ratings, coaches, comments_for=_ids(coaches) if with_comments else [])


def _summaries(
    ratings: QuerySet[SessionRating], coaches: Iterable, *, comments_for: Iterable = ()
) -> dict[int, RatingSummary]:
    """`ratings` summarised per coach; the comments of `comments_for` among those
    whose summary is shown (one query more, none when none is)."""
    ids = _ids(coaches)
    if not ids:
        return {}
    ratings = ratings.filter(coach_id__in=ids).order_by()
    rows = ratings.values("coach_id").annotate(
        n=Count("pk"),
        people=Count("rater_id", distinct=True),
        total=Sum("score"),
        **{f"s{score}": Count("pk", filter=Q(score=score)) for score in SCORES},
    )
    summaries = {pk: EMPTY_SUMMARY for pk in ids}
    for row in rows:
        n, people = row["n"], row["people"]
        if not enough(ratings=n, raters=people):
            summaries[row["coach_id"]] = RatingSummary(n, people, None, {}, [])
            continue
        summaries[row["coach_id"]] = RatingSummary(
            ratings=n,
            raters=people,
            average=row["total"] / n,
            distribution={score: row[f"s{score}"] for score in SCORES},
            comments=[],
        )
    shown = [pk for pk in _ids(comments_for) if pk in summaries and summaries[pk].shown]
    if not shown:
        return summaries
    words: dict[int, list[str]] = {pk: [] for pk in shown}
    for coach_id, comment in (
        ratings.filter(coach_id__in=shown).exclude(comment="").values_list("coach_id", "comment")
    ):
        words[coach_id].append(comment)
    for pk in shown:
        # Alphabetical, so the order says nothing about who wrote which, or when.
        comments = sorted(words[pk], key=lambda text: (text.casefold(), text))
        summary = summaries[pk]
        summaries[pk] = RatingSummary(
            summary.ratings, summary.raters, summary.average, summary.distribution, comments
        )
    return summaries


# --- What dashboards count: released ratings -------------------------------------------

# A dashboard summary counts the ratings that closed in this many weeks before its
# count: sessions held RATING_DAYS to RATING_DAYS + 8 weeks before it.
USEFULNESS_WEEKS = 8


def counted_until(now: datetime | None = None) -> datetime:
    """Monday 00:00 UTC on or before `now`: where a release may move the count to. UTC,
    so the boundary is the same for every reader whatever their time zone."""
    now = (now or timezone.now()).astimezone(UTC)
    monday = now.date() - timedelta(days=now.weekday())
    return datetime.combine(monday, time.min, tzinfo=UTC)


def release_usefulness(*, now: datetime | None = None) -> int:
    """Move each coach's count (`UsefulnessRelease`) on to the last Monday where the
    ratings of at least RATING_MIN_RATERS people have closed since their count last
    moved; leave the others where they are, their ratings waiting for more people.
    Returns how many coaches' counts moved.

    Why: a summary that took each rating as it came could be read before and after a
    session and compared — one rating more, the spread moved by one — and tell what
    that coachee gave; so could one read as its window passed a rated session, or
    after a coachee changed a rating. Counting only closed ratings, moved only like
    this, two readings differ by the ratings of at least three people coming in (and
    the window's oldest leaving with them), and a counted rating never changes.
    Idempotent, so beat may run it hourly: all week the same Monday, the same answer.
    One query to find the coaches, one statement to move them."""
    monday = counted_until(now)
    counted = UsefulnessRelease.objects.filter(coach=OuterRef("coach_id")).values("counted_until")[
        :1
    ]
    due = list(
        SessionRating.objects.filter(closes_at__lt=monday)
        .annotate(since=Subquery(counted))
        .filter(Q(since__isnull=True) | Q(closes_at__gte=F("since")))
        .values("coach_id")
        .annotate(people=Count("rater_id", distinct=True))
        .filter(people__gte=RATING_MIN_RATERS)
        .values_list("coach_id", flat=True)
        .order_by()
    )
    UsefulnessRelease.objects.bulk_create(
        [UsefulnessRelease(coach_id=pk, counted_until=monday) for pk in due],
        update_conflicts=True,
        unique_fields=["coach"],
        update_fields=["counted_until"],
    )
    return len(due)


@dataclass(frozen=True)
class Released:
    """A coach's dashboard summary and where it counts to (None: nothing yet)."""

    summary: RatingSummary
    counted_until: datetime | None
    weeks: int = USEFULNESS_WEEKS


def released_summaries(
    *, coaches: Iterable, comments_for: int | None = None
) -> dict[int, Released]:
    """What dashboards show of each coach's usefulness: the ratings that closed in the
    USEFULNESS_WEEKS before the coach's `counted_until` — whatever window the page
    shows, since summaries over two windows ending at the same moment could be
    subtracted. The comments only for `comments_for` (the coach reading their own
    dashboard). Two queries (where each count stands, the numbers), one more for the
    comments when shown."""
    ids = _ids(coaches)
    until = dict(
        UsefulnessRelease.objects.filter(coach_id__in=ids).values_list("coach_id", "counted_until")
    )
    released = F("coach__usefulness_release__counted_until")
    ratings = SessionRating.objects.filter(
        closes_at__lt=released,
        closes_at__gte=ExpressionWrapper(
            released - timedelta(weeks=USEFULNESS_WEEKS), output_field=DateTimeField()
        ),
    )
    counted = [pk for pk in ids if pk in until]
    summaries = _summaries(ratings, counted, comments_for=[comments_for] if comments_for else [])
    return {pk: Released(summaries.get(pk, EMPTY_SUMMARY), until.get(pk)) for pk in ids}


# --- Waiting for a rating ----------------------------------------------------------------


def sessions_to_rate(*, person, now: datetime | None = None) -> list[CoachingSession]:
    """The person's held sessions as coachee that are still open for rating and not
    rated yet, newest first — one query. Each carries `coach_name` (the coach's display
    name) for a line like "How useful was your 1:1 with Sofia?"."""
    now = now or timezone.now()
    coach = SessionParticipant.objects.filter(
        session=OuterRef("pk"), role=ParticipantRole.COACH
    ).values("person__display_name")[:1]
    rated = SessionRating.objects.filter(session=OuterRef("pk"), rater=person)
    as_coachee = SessionParticipant.objects.filter(
        session=OuterRef("pk"), person=person, role=ParticipantRole.COACHEE
    )
    return list(
        CoachingSession.objects.filter(
            Exists(as_coachee),
            ~Exists(rated),
            kind__in=RATED_KINDS,
            status=SessionStatus.HELD,
            held_at__gt=now - timedelta(days=RATING_DAYS),
        )
        .annotate(coach_name=Subquery(coach))
        .order_by("-scheduled_start", "-pk")
    )
