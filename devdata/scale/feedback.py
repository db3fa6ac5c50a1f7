"""Feedback over the history, on both streams and in every direction, as the
reporting line stood when it was written (`feedback.services.direction_between`):

- developmental, unasked: peers on the same team (and now and then another team in
  the region), up to the manager (or the one above), down to a report (or a report's
  report), a few notes to self; each person writes at their own pace;
- developmental, asked for: requests to a few colleagues and the manager, about a
  goal or the focus area now and then; most asked answer, some decline, recent ones
  wait; managers ask their reports anonymously (upward, shown once three answered);
- evaluative: each quarter's review from the manager (most reports get one), and a
  small 360 round at year end answered by peers;
- recipients acknowledge about half of what they get, reflect on some, put themes on
  the developmental ones and link some to a goal, and share a few with their manager;
- wins, about one a month per team.

Developmental is by far the larger stream (about 93%)."""

from __future__ import annotations

import math
import random
import uuid
from datetime import date, datetime, timedelta

from feedback.models import (
    DEFAULT_QUESTION,
    Direction,
    Feedback,
    FeedbackRequest,
    FeedbackShare,
    RequestedResponder,
    ResponderStatus,
    Stream,
    Theme,
    Win,
    anonymous_stamp,
)

from . import words
from .org import REP, Org, Person
from .programme import Programme
from .sink import Sink

RATE = 0.66  # unasked developmental items a person writes in a week, on average
MANAGER_PACE = 2.5  # managers write more: to each of their reports
THEME_NAMES = {
    "discovery": "discovery",
    "multithreading": "multi-threading",
    "objections": "objections",
    "pricing": "pricing",
    "next_steps": "next steps",
    "listening": "listening",
}


def _count(rng: random.Random, mean: float) -> int:
    if mean <= 0:
        return 0
    if mean < 30:  # Poisson by multiplication
        limit, k, p = math.exp(-mean), 0, rng.random()
        while p > limit:
            k += 1
            p *= rng.random()
        return k
    return max(0, round(rng.gauss(mean, math.sqrt(mean))))


class FeedbackHistory:
    def __init__(self, sink: Sink, org: Org, programme: Programme, *, seed: int):
        self.sink, self.org, self.programme = sink, org, programme
        self.rng = random.Random(f"{seed}:feedback")
        self.now = org.clock.now
        self.by_id = org.by_id
        # Who reported to whom, when: manager → [(report, start, end)].
        self.reports: dict[int, list[tuple[int, datetime, datetime | None]]] = {}
        for p in org.people:
            for stint in p.stints:
                self.reports.setdefault(stint.manager, []).append((p.id, stint.start, stint.end))
        self.region_teams: dict[int, list] = {}
        for team in org.teams:
            self.region_teams.setdefault(team.region, []).append(team)
        self.acks = {p.id: self.rng.uniform(0.2, 0.8) for p in org.people}
        self.public_ids = random.Random(f"{seed}-anonymous-answers")

        t, ids = sink.table, sink.next_id
        self.items = t(
            Feedback,
            (
                "id",
                "stream",
                "direction",
                "author_id",
                "recipient_id",
                "anonymous",
                "public_id",
                "request_id",
                "observation",
                "impact",
                "suggestion",
                "created_at",
                "acknowledged_at",
                "reflection",
                "goal_id",
            ),
        )
        self.item_id = ids(Feedback)
        through = Feedback.themes.through
        self.item_themes = t(through, ("id", "feedback_id", "theme_id"))
        self.item_theme_id = ids(through)
        self.shares = t(
            FeedbackShare, ("id", "feedback_id", "person_id", "created_at", "revoked_at")
        )
        self.share_id = ids(FeedbackShare)
        self.requests = t(
            FeedbackRequest,
            (
                "id",
                "requester_id",
                "question",
                "stream",
                "topic",
                "goal_id",
                "focus_area_id",
                "anonymous",
                "due_on",
                "created_at",
            ),
        )
        self.request_id = ids(FeedbackRequest)
        self.responders = t(
            RequestedResponder,
            ("id", "request_id", "responder_id", "status", "answered_at", "declined_at"),
        )
        self.responder_id = ids(RequestedResponder)
        self.wins = t(Win, ("id", "author_id", "team_id", "title", "link", "text", "created_at"))
        self.win_id = ids(Win)
        self.theme_ids = self._themes()

    def _themes(self) -> dict[str, int]:
        existing = dict(Theme.objects.using(self.sink.using).values_list("name", "pk"))
        missing = [n for n in words.FEEDBACK_THEMES if n not in existing]
        Theme.objects.using(self.sink.using).bulk_create(Theme(name=n) for n in missing)
        return dict(Theme.objects.using(self.sink.using).values_list("name", "pk"))

    # --- who is where, when ------------------------------------------------------------

    def span(self, p: Person) -> tuple[datetime, datetime] | None:
        if not p.stints:
            return None
        first = p.stints[0]
        team = self.org.team_by_id.get(first.team) if first.team else None
        adopted = team.adopted if team else self.org.region_adopted[p.region]
        begins = max(p.joined, adopted)
        ends = p.left or self.now
        return (begins, ends) if begins < ends else None

    def reports_at(self, manager: int, moment: datetime) -> list[int]:
        return [
            pk
            for pk, start, end in self.reports.get(manager, ())
            if start <= moment and (end is None or moment < end)
        ]

    def peers_at(self, p: Person, moment: datetime) -> list[int]:
        rng = self.rng
        team_id = p.team_at(moment)
        if p.level == REP and team_id:
            if rng.random() < 0.15:  # someone on another team in the region
                team = rng.choice(self.region_teams[p.region])
            else:
                team = self.org.team_by_id[team_id]
            return [pk for pk in team.members_at(moment) if pk != p.id]
        boss = p.manager_at(moment)
        if boss is None:
            return []
        return [pk for pk in self.reports_at(boss, moment) if pk != p.id]

    # --- writing ---------------------------------------------------------------------------

    def item(
        self,
        *,
        stream: str,
        direction: str,
        author: int,
        recipient: int,
        at: datetime,
        text: tuple[str, str, str],
        request: int | None = None,
        anonymous: bool = False,
    ) -> None:
        rng = self.rng
        pk = self.item_id()
        public_id = None
        if anonymous:
            # As `services.feedback_give`: a random address and the day only. From a
            # generator of its own, so the rest of the history is drawn as before.
            public_id = uuid.UUID(int=self.public_ids.getrandbits(128), version=4).hex
            at = anonymous_stamp(at)
        acknowledged = reflection = goal = None
        reflection = ""
        if rng.random() < self.acks[recipient]:
            acknowledged = at + timedelta(minutes=rng.randint(20, 60 * 24 * 10))
            if acknowledged >= self.now:
                acknowledged = None
        if acknowledged is not None:
            if rng.random() < 0.3:
                reflection = rng.choice(words.REFLECTIONS)
            span = self.programme.goal_at(recipient, acknowledged)
            if span is not None and rng.random() < 0.15:
                goal = span.id
            if stream == Stream.DEVELOPMENTAL and rng.random() < 0.6:
                names = {
                    THEME_NAMES.get(span.theme, "discovery")
                    if span
                    else rng.choice(words.FEEDBACK_THEMES)
                }
                if rng.random() < 0.4:
                    names.add(rng.choice(words.FEEDBACK_THEMES))
                for name in sorted(names):
                    self.item_themes.add((self.item_theme_id(), pk, self.theme_ids[name]))
        self.items.add(
            (
                pk,
                stream,
                direction,
                author,
                recipient,
                anonymous,
                public_id,
                request,
                text[0],
                text[1],
                text[2],
                at,
                acknowledged,
                reflection,
                goal,
            )
        )
        if stream == Stream.DEVELOPMENTAL and direction != Direction.SELF and rng.random() < 0.05:
            boss = self.by_id[recipient].manager_at(at)
            if boss is not None and boss != author:
                shared = at + timedelta(hours=rng.randint(1, 24 * 14))
                if shared < self.now:
                    revoked = (
                        shared + timedelta(days=rng.randint(1, 60)) if rng.random() < 0.05 else None
                    )
                    self.shares.add(
                        (
                            self.share_id(),
                            pk,
                            boss,
                            shared,
                            revoked if revoked and revoked < self.now else None,
                        )
                    )

    def text(self, direction: str, recipient: Person) -> tuple[str, str, str]:
        rng = self.rng
        if direction == Direction.UPWARD:
            bank = words.UPWARD_FEEDBACK
        elif direction == Direction.DOWNWARD and rng.random() < 0.5:
            bank = words.OBSERVATIONS
        else:
            bank = words.PEER_FEEDBACK if rng.random() < 0.7 else words.OBSERVATIONS
        o, i, s = rng.choice(bank)
        account = rng.choice(words.ACCOUNT_NAMES)
        return (
            o.format(account=account, first=recipient.first),
            i.format(account=account, first=recipient.first),
            s.format(account=account, first=recipient.first),
        )

    # --- the history ---------------------------------------------------------------------

    def run(self, progress=None) -> None:
        people = self.org.people
        for i, p in enumerate(people):
            self.unasked(p)
            self.asked(p)
            if progress and i % 2000 == 1999:
                progress(f"{i + 1:,} of {len(people):,} people's feedback")
        self.reviews()
        self.year_end_360()
        self.team_wins()

    def unasked(self, author: Person) -> None:
        span = self.span(author)
        if span is None:
            return
        rng = self.rng
        begins, ends = span
        weeks = (ends - begins).days / 7
        seconds = int((ends - begins).total_seconds())
        is_manager = author.coach is not None
        pace = RATE * author.activity * (MANAGER_PACE if is_manager else 1.0)
        for _ in range(_count(rng, pace * weeks)):
            at = begins + timedelta(seconds=rng.randrange(seconds))
            if not 8 <= at.hour <= 20:
                at = at.replace(hour=rng.randint(8, 18))
                if at >= ends:
                    continue
            roll = rng.random()
            direction, recipient = Direction.PEER, None
            if roll < 0.015:
                direction, recipient = Direction.SELF, author.id
            elif is_manager and roll < 0.65:
                below = self.reports_at(author.id, at)
                if below:
                    recipient = rng.choice(below)
                    if rng.random() < 0.1:  # a report's report
                        further = self.reports_at(recipient, at)
                        recipient = rng.choice(further) if further else recipient
                    direction = Direction.DOWNWARD
            elif roll < (0.75 if is_manager else 0.14):
                boss = author.manager_at(at)
                if boss is not None:
                    if rng.random() < 0.1 and self.by_id[boss].manager_at(at) is not None:
                        boss = self.by_id[boss].manager_at(at)
                    direction, recipient = Direction.UPWARD, boss
            if recipient is None:
                peers = self.peers_at(author, at)
                if not peers:
                    continue
                direction, recipient = Direction.PEER, rng.choice(peers)
            self.item(
                stream=Stream.DEVELOPMENTAL,
                direction=direction,
                author=author.id,
                recipient=recipient,
                at=at,
                text=self.text(direction, self.by_id[recipient]),
            )

    def asked(self, requester: Person) -> None:
        """Requests for feedback: a few colleagues and the manager, every couple of
        months; managers ask their reports anonymously about twice a year."""
        span = self.span(requester)
        if span is None:
            return
        rng = self.rng
        begins, ends = span
        weeks = (ends - begins).days / 7
        seconds = int((ends - begins).total_seconds())
        is_manager = requester.coach is not None
        for _ in range(_count(rng, weeks / 9 * rng.uniform(0.2, 1.4))):
            at = begins + timedelta(seconds=rng.randrange(seconds))
            boss = requester.manager_at(at)
            peers = self.peers_at(requester, at)
            asked = rng.sample(peers, min(len(peers), rng.randint(1, 3)))
            if boss is not None and rng.random() < 0.6:
                asked.append(boss)
            if not asked:
                continue
            goal = self.programme.goal_at(requester.id, at)
            area = self.programme.area_on(at.date())
            topic = ""
            goal_id = area_id = None
            if goal is not None and rng.random() < 0.5:
                goal_id, topic = goal.id, rng.choice(("", "My next two calls", goal.title[:200]))
            elif area is not None and rng.random() < 0.25:
                area_id, topic = area.id, area.name
            self.request(
                requester,
                asked,
                at,
                stream=Stream.DEVELOPMENTAL,
                question=DEFAULT_QUESTION,
                topic=topic,
                goal=goal_id,
                area=area_id,
            )
        if is_manager:
            for _ in range(_count(rng, weeks / 26)):
                at = begins + timedelta(seconds=rng.randrange(seconds))
                below = self.reports_at(requester.id, at)
                if len(below) >= 3:
                    self.request(
                        requester,
                        below,
                        at,
                        stream=Stream.DEVELOPMENTAL,
                        question="What's one thing I could do differently in our 1:1s?",
                        anonymous=True,
                    )

    def request(
        self,
        requester,
        asked,
        at,
        *,
        stream,
        question,
        topic="",
        goal=None,
        area=None,
        anonymous=False,
    ) -> None:
        rng = self.rng
        pk = self.request_id()
        due: date = at.date() + timedelta(days=rng.randint(5, 21))
        self.requests.add(
            (pk, requester.id, question, stream, topic, goal, area, anonymous, due, at)
        )
        recent = at > self.now - timedelta(weeks=6)
        for responder in asked:
            u = rng.random()
            answered_at = declined_at = None
            status = ResponderStatus.WAITING
            if u < 0.72:
                answered_at = at + timedelta(hours=rng.randint(2, 24 * 12))
                if answered_at < self.now:
                    status = ResponderStatus.ANSWERED
                else:
                    answered_at = None
            elif u < 0.82 or (not recent and u < 0.95):
                declined_at = at + timedelta(hours=rng.randint(2, 24 * 10))
                if declined_at < self.now:
                    status = ResponderStatus.DECLINED
                else:
                    declined_at = None
            answered_on = anonymous_stamp(answered_at) if anonymous and answered_at else None
            self.responders.add(
                (
                    self.responder_id(),
                    pk,
                    responder,
                    status,
                    answered_on or answered_at,
                    declined_at,
                )
            )
            if status != ResponderStatus.ANSWERED:
                continue
            if anonymous:
                direction = Direction.UPWARD
            else:
                direction = self.direction(responder, requester.id, answered_at)
            self.item(
                stream=stream,
                direction=direction,
                author=responder,
                recipient=requester.id,
                at=answered_at,
                text=self.text(direction, requester),
                request=pk,
                anonymous=anonymous,
            )

    def direction(self, author: int, recipient: int, at: datetime) -> str:
        """Above, below or beside, by the reporting line at the time."""
        if author == recipient:
            return Direction.SELF
        if self._above(author, recipient, at):
            return Direction.DOWNWARD
        if self._above(recipient, author, at):
            return Direction.UPWARD
        return Direction.PEER

    def _above(self, manager: int, person: int, at: datetime) -> bool:
        current = self.by_id[person].manager_at(at)
        while current is not None:
            if current == manager:
                return True
            current = self.by_id[current].manager_at(at)
        return False

    def reviews(self) -> None:
        """Each quarter's evaluative review, from the manager, for most reports."""
        rng, clock = self.rng, self.org.clock
        quarter = date(clock.start.year, ((clock.start.month - 1) // 3) * 3 + 1, 1)
        while True:
            month = quarter.month + 3
            quarter = date(quarter.year + (month > 12), (month - 1) % 12 + 1, 1)
            at = datetime.combine(quarter, datetime.min.time(), tzinfo=clock.now.tzinfo)
            if at >= self.now:
                return
            if at < clock.start:
                continue
            for manager, lines in self.reports.items():
                if self.by_id[manager].coach is None:
                    continue
                team = self.by_id[manager].led
                adopted = self.org.team_by_id[team].adopted if team else self.org.region_adopted[0]
                if at < adopted:
                    continue
                for report, start, end in lines:
                    if start <= at and (end is None or at < end) and rng.random() < 0.7:
                        when = at + timedelta(days=rng.randint(1, 20), hours=rng.randint(8, 17))
                        if when >= self.now or (end is not None and when >= end):
                            continue
                        o, i, s = rng.choice(words.EVALUATIVE_FEEDBACK)
                        n, m = rng.randint(5, 14), rng.randint(12, 16)
                        account = rng.choice(words.ACCOUNT_NAMES)
                        self.item(
                            stream=Stream.EVALUATIVE,
                            direction=Direction.DOWNWARD,
                            author=manager,
                            recipient=report,
                            at=when,
                            text=(o.format(n=n, m=m, account=account), i, s),
                        )

    def year_end_360(self) -> None:
        """At each year end, a few people ask peers for evaluative feedback."""
        rng, clock = self.rng, self.org.clock
        for year in range(clock.start.year, clock.now.year + 1):
            at = datetime(year, 11, 20, 10, tzinfo=clock.now.tzinfo)
            if not clock.start <= at < self.now:
                continue
            for p in self.org.people:
                if rng.random() >= 0.05:
                    continue
                span = self.span(p)
                if span is None or not span[0] <= at < span[1]:
                    continue
                peers = self.peers_at(p, at)
                if len(peers) < 2:
                    continue
                when = at + timedelta(days=rng.randint(0, 10), hours=rng.randint(0, 8))
                self.request(
                    p,
                    rng.sample(peers, min(4, len(peers))),
                    when,
                    stream=Stream.EVALUATIVE,
                    question="Year-end review: what should my manager know about working with me?",
                )

    def team_wins(self) -> None:
        rng = self.rng
        for team in self.org.teams:
            moment = team.adopted
            while True:
                moment += timedelta(days=rng.randint(14, 45), hours=rng.randint(0, 9))
                if moment >= self.now:
                    break
                members = team.members_at(moment)
                if not members:
                    continue
                account = rng.choice(words.ACCOUNT_NAMES)
                title = rng.choice(
                    (
                        f"{account} signed",
                        f"Call clip of the week: the {account} discovery call",
                        f"{account} renewal closed without a discount",
                        f"First meeting with the {account} CFO",
                    )
                )
                link = (
                    f"https://calls.example.com/clips/{team.id}-{moment:%Y%m%d}"
                    if rng.random() < 0.5
                    else ""
                )
                self.wins.add(
                    (self.win_id(), rng.choice(members), team.id, title, link, "", moment)
                )
