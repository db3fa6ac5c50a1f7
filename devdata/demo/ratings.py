"""Session usefulness for the demo organisation, on top of `devdata.demo.coaching`'s history:
the coachees' "was this useful?" ratings of their held 1:1s and manager reviews.

What it tells, over the last 13 weeks (week 13 is this week, 12 last week, as in
`devdata.demo.coaching`):
- Sofia Alvarez's Enterprise East rate most of their 1:1s 4 or 5, with a few
  comments; the 1:1s logged with nothing written get a 3.
- Lena Fischer's EMEA Growth dipped in weeks 5–8 (the escalations: short, moved,
  pipeline instead of coaching) and rate her better again since.
- Marcus Chen's Mid-Market Central hardly rate at all: five ratings from two people —
  "too few ratings to show", whatever the window.
- Daniel Mensah's manager reviews are rated by his three managers, and about half of
  his weekly 1:1s with them, so his summary shows (numbers to anyone above him —
  nobody — and the comments to him alone).
- Not everything is rated yet: some of last week's 1:1s still wait, aisha.bello's
  latest among them, so her session page asks her.

Every rating goes through `services.session_rating_save`, which checks that only the
coachee rates, only a held session, only within 14 days after it was held. History
is older than that, so — as `devdata.demo.coaching` creates sessions in a shifted frame and
moves them back — a session held longer ago has its `held_at` moved to an hour ago
for the call and put back straight after; the rating's own times are then backdated
to a day or two after the session with `.update()`.

Idempotent: if a demo person has rated anything, nothing is written. Deterministic
for a given day."""

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from coaching.models import (
    CoachingSession,
    ParticipantRole,
    SessionKind,
    SessionParticipant,
    SessionRating,
    SessionStatus,
)
from coaching.ratings import (
    RATED_KINDS,
    RATING_DAYS,
    Released,
    counted_until,
    rating_summaries,
    release_usefulness,
    released_summaries,
)
from coaching.services import session_rating_save
from devdata.demo.coaching import _demo_people, _monday
from devdata.demo.people import HEAD, TEAMS
from people.models import User

EAST, CENTRAL, EMEA = "Enterprise East", "Mid-Market Central", "EMEA Growth"
WEEKS = 13
# Marcus's team: the only two people who ever rate, and how many of their 1:1s.
CENTRAL_RATERS = {"jordan.lee": 3, "maria.gonzalez": 2}
# The rep whose latest held 1:1 is left for them to rate in the demo.
STILL_TO_RATE = "aisha.bello"

# (score weights 1..5, share of held 1:1s rated, share of ratings with a comment)
MOOD = {
    "east": ((0, 0, 1, 4, 5), 0.85, 0.18),
    "emea_steady": ((0, 0, 2, 6, 2), 0.7, 0.12),
    "emea_rough": ((0, 3, 5, 2, 0), 0.7, 0.3),
    "emea_better": ((0, 0, 1, 5, 4), 0.75, 0.2),
    "central": ((0, 1, 3, 1, 0), 1.0, 0.4),
    "head": ((0, 0, 1, 5, 3), 0.5, 0.15),  # Daniel's weekly 1:1s with his managers
}
COMMENTS = {
    "east": (
        "Listening to the recording together was the useful part — I heard myself rush "
        "the pricing.",
        "Good challenge on my discovery questions. I know what to try on Thursday.",
        "She let me find the answer myself instead of giving it. Slower, but it stuck.",
        "Clear next step and a way to know if it worked.",
        "Short this week, but the one thing we picked was the right one.",
        "Helpful to look at my own numbers before the forecast call.",
    ),
    "emea_steady": (
        "Useful to go through the Hanse call minute by minute.",
        "Good session, a bit long on pipeline.",
    ),
    "emea_rough": (
        "Felt rushed — half of it was the escalation.",
        "We went through the pipeline, not much coaching.",
        "Moved twice this week, hard to prepare for.",
        "Short, but she still asked what I wanted to work on.",
    ),
    "emea_better": (
        "Much better — we used the recording again.",
        "The economic buyer question worked on the Nordlys deal.",
        "Back to proper 1:1s. I came out with one thing to try.",
    ),
    "central": (
        "Mostly forecast talk.",
        "OK, but we ran out of time for my call.",
    ),
}
COMMENTS["head"] = (
    "Talked about my team's numbers without it feeling like an inspection.",
    "He asked what I'd try before saying what he would do.",
    "Left with one thing to change in Thursday's review.",
)
# Daniel's reviews, by manager: the score of each of the three (weeks 4, 8, 12).
REVIEW_SCORES = {
    "sofia.alvarez": ((5, ""), (5, "Good push on letting the reps host."), (4, "")),
    "marcus.chen": (
        (4, ""),
        (3, ""),
        (3, "Hard conversation about the forecast call. Probably the right one."),
    ),
    "lena.fischer": (
        (4, ""),
        (3, "Helpful to see my own numbers, even the bad month."),
        (5, "Pointing at the recovery helped more than I expected."),
    ),
}


@dataclass(frozen=True)
class Rated:
    session: CoachingSession
    rater: User
    score: int
    comment: str
    at: datetime  # when it was given


def _week(moment: datetime, tz: str, now: datetime) -> int:
    """Week 13 is this week, 12 last week (as `devdata.demo.coaching`)."""
    this_monday = _monday(now.astimezone(ZoneInfo(tz)).date())
    that_monday = _monday(moment.astimezone(ZoneInfo(tz)).date())
    return WEEKS - (this_monday - that_monday).days // 7


class _Builder:
    def __init__(self, people: dict[str, User], *, now: datetime, rng: random.Random):
        self.people = people
        self.now = now
        self.rng = rng
        self.by_pk = {u.pk: key for key, u in people.items()}
        self.team_of_lead = {people[spec.key].pk: team for team, spec in TEAMS.items()}

    def held_sessions(self) -> list[CoachingSession]:
        """The demo coaches' held 1:1s and manager reviews of the last 13 weeks, oldest
        first, with their people."""
        coaches = [self.people[HEAD.key], *(self.people[spec.key] for spec in TEAMS.values())]
        return list(
            CoachingSession.objects.filter(
                kind__in=RATED_KINDS,
                status=SessionStatus.HELD,
                scheduled_start__gte=self.now - timedelta(weeks=WEEKS),
                participants__person__in=coaches,
                participants__role=ParticipantRole.COACH,
            )
            .prefetch_related(
                Prefetch(
                    "participants", queryset=SessionParticipant.objects.select_related("person")
                )
            )
            .order_by("scheduled_start", "pk")
        )

    def given_at(self, session: CoachingSession) -> datetime:
        """A few hours to two days after the session, never in the future."""
        at = session.held_at + timedelta(minutes=self.rng.randint(20, 48 * 60))
        return min(at, self.now - timedelta(minutes=5))

    def plan(self) -> list[Rated]:
        rng, planned = self.rng, []
        sessions = self.held_sessions()
        latest = {}  # coachee pk → their latest held 1:1 (left unrated for STILL_TO_RATE)
        for session in sessions:
            latest[session.coachee.pk] = session.pk
        central_left = {
            self.people[key].pk: n for key, n in CENTRAL_RATERS.items() if key in self.people
        }
        central_from = self.now - timedelta(weeks=8)
        reviews: dict[int, int] = {}
        for session in sessions:
            coach, coachee = session.coach, session.coachee
            key = self.by_pk.get(coachee.pk)
            head = coach.pk == self.people[HEAD.key].pk
            if head and session.kind == SessionKind.MANAGER_REVIEW:
                number = reviews.get(coachee.pk, 0)
                reviews[coachee.pk] = number + 1
                scores = REVIEW_SCORES.get(key, ())
                if number < len(scores):
                    score, comment = scores[number]
                    planned.append(Rated(session, coachee, score, comment, self.given_at(session)))
                continue
            team = "head" if head else self.team_of_lead.get(coach.pk)
            if team is None:
                continue
            if key == STILL_TO_RATE and latest[coachee.pk] == session.pk:
                continue  # aisha.bello's latest: hers to rate in the demo
            if team == CENTRAL:
                if central_left.get(coachee.pk, 0) <= 0 or session.scheduled_start < central_from:
                    continue
                central_left[coachee.pk] -= 1
                mood = "central"
            elif team in ("head", EAST):
                mood = "east" if team == EAST else "head"
            else:
                week = _week(session.scheduled_start, coach.time_zone, self.now)
                mood = "emea_steady" if week < 5 else "emea_rough" if week <= 8 else "emea_better"
            weights, share, with_comment = MOOD[mood]
            recent = session.held_at > self.now - timedelta(days=7)
            if rng.random() >= (share * 0.6 if recent else share) and mood != "central":
                continue  # not rated (yet)
            score = rng.choices((1, 2, 3, 4, 5), weights=weights)[0]
            if session.held_but_empty:
                score = min(score, 3)  # nothing written down: it shows
            comment = rng.choice(COMMENTS[mood]) if rng.random() < with_comment else ""
            planned.append(Rated(session, coachee, score, comment, self.given_at(session)))
        return planned

    def write(self, rated: Rated) -> SessionRating:
        """Through the service, in its frame: a session held more than RATING_DAYS ago
        has its `held_at` moved to an hour ago for the call, then put back."""
        session, held_at = rated.session, rated.session.held_at
        shifted = held_at <= self.now - timedelta(days=RATING_DAYS) + timedelta(hours=1)
        if shifted:
            frame = timezone.now() - timedelta(hours=1)
            CoachingSession.objects.filter(pk=session.pk).update(held_at=frame)
        rating = session_rating_save(
            session=session, rater=rated.rater, score=rated.score, comment=rated.comment
        )
        if shifted:
            CoachingSession.objects.filter(pk=session.pk).update(held_at=held_at)
        SessionRating.objects.filter(pk=rating.pk).update(
            created_at=rated.at,
            updated_at=rated.at,
            closes_at=held_at + timedelta(days=RATING_DAYS),
        )
        return rating

    def build(self) -> int:
        planned = self.plan()
        for rated in planned:
            self.write(rated)
        return len(planned)


def ratings_summary(people: dict[str, User] | None = None) -> list[str]:
    """One line per demo coach: their ratings over the last 13 weeks, and what their
    dashboard counts (`released_summaries`)."""
    people = people or _demo_people()
    now = timezone.now()
    coaches = [people[HEAD.key], *(people[spec.key] for spec in TEAMS.values())]
    found = rating_summaries(coaches=coaches, since=now - timedelta(weeks=WEEKS), until=now)
    released = released_summaries(coaches=coaches)
    lines = []
    for coach in coaches:
        s, counted = found[coach.pk], released[coach.pk]
        line = f"  {coach.display_name}: {s.ratings} ratings by {s.raters} people in {WEEKS} weeks"
        lines.append(f"{line}; {_dashboard_says(counted)}")
    return lines


def _dashboard_says(counted: Released) -> str:
    if counted.counted_until is None:
        return "the dashboard: nothing counted yet"
    s = counted.summary
    shown = f"average {s.average:.1f}" if s.shown else s.too_few_label
    monday = counted.counted_until
    return f"the dashboard, to Monday {monday.day} {monday:%b}: {s.ratings} by {s.raters}, {shown}"


def seed_ratings(people: dict[str, User] | None = None, *, rng_seed: int = 2026) -> list[str]:
    """Rate the history's held sessions as the story goes, unless a demo person has
    rated anything already. Returns the lines to print either way."""
    people = people or _demo_people()
    if SessionRating.objects.filter(rater__in=people.values()).exists():
        return ["Session ratings already present — left as they are.", *ratings_summary(people)]
    if not CoachingSession.objects.filter(created_by__in=people.values()).exists():
        return ["No coaching history to rate — session ratings skipped."]
    now = timezone.now()
    with transaction.atomic():
        written = _Builder(people, now=now, rng=random.Random(rng_seed)).build()
        _count_as_beat_would_have(now)
    return [f"Session usefulness: {written} ratings.", *ratings_summary(people)]


def _count_as_beat_would_have(now: datetime) -> None:
    """Move the coaches' usefulness counts Monday by Monday through the history, as
    beat's hourly run would have, so each stands where it would today."""
    first = SessionRating.objects.order_by("closes_at").values_list("closes_at", flat=True)[:1]
    monday = counted_until(first[0]) + timedelta(weeks=1) if first else now
    while monday <= now:
        release_usefulness(now=monday)
        monday += timedelta(weeks=1)
