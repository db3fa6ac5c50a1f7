"""Scorecards over the history, on the starter library's current versions:

- coach rounds: most managers score one of each report's calls every few weeks, the
  report asked to score it first (most do, a few decline, recent ones wait);
- self-assessments alone, every few months;
- peer rounds, for some reps, with one to three colleagues;
- calibrations: each quarter most directors have the managers below them score one
  call blind, closed after a week or two.

Scores follow a skill that moves: each rep starts somewhere between 1.6 and 2.8 (of
4), their team's trend carries them (up by about a point over the history for a third
of the teams, flat for most, a little down for some), the criteria of the focus area
of the day get extra practice, coaches are a little lenient or strict, and people
rate themselves higher than others do — less so as time goes on. The template of a
call leans towards the focus area's criteria, so the skill trends on the dashboards
have something to show."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from scorecards.models import (
    RaterRole,
    RecordedCall,
    RoundContext,
    RoundRater,
    Score,
    Scorecard,
    ScoringRound,
    WorkKind,
)

from . import words
from .org import DIRECTOR, REP, Org, Person
from .programme import Programme
from .sink import Sink

CALL_TEMPLATES = ("Discovery call", "Objection handling", "Product demo", "Cold-call opener")
KEEP = (
    "The pause after the price.",
    "Your opening question — it got them talking.",
    "Summarising their words back before the demo.",
    "Booking the next meeting before hanging up.",
)
TRY = (
    "Ask one more question before you answer.",
    "Name an owner on their side for the next step.",
    "Leave ten minutes at the end for next steps.",
    "Recap their problem before the first click.",
)


class ScorecardHistory:
    def __init__(self, sink: Sink, org: Org, programme: Programme, *, seed: int):
        self.sink, self.org, self.programme = sink, org, programme
        self.rng = random.Random(f"{seed}:scorecards")
        self.now, self.start = org.clock.now, org.clock.start
        self.total = (org.clock.now - org.clock.start).total_seconds()
        library = programme.library
        self.templates = [t for t in CALL_TEMPLATES if t in library.versions]
        self.offsets = {
            c.lineage: self.rng.uniform(-0.35, 0.35)
            for criteria in library.criteria.values()
            for c in criteria
        }
        self.leniency = {p.id: self.rng.uniform(-0.3, 0.35) for p in org.people if p.coach}

        t, ids = sink.table, sink.next_id
        self.calls = t(
            RecordedCall,
            (
                "id",
                "person_id",
                "kind",
                "url",
                "title",
                "call_date",
                "timestamps",
                "created_by_id",
                "created_at",
            ),
        )
        self.call_id = ids(RecordedCall)
        self.rounds = t(
            ScoringRound,
            (
                "id",
                "work_id",
                "version_id",
                "context",
                "title",
                "created_by_id",
                "created_at",
                "closed_at",
            ),
        )
        self.round_id = ids(ScoringRound)
        self.raters = t(
            RoundRater, ("id", "round_id", "person_id", "role", "declined_at", "invited_at")
        )
        self.rater_id = ids(RoundRater)
        self.cards = t(
            Scorecard,
            (
                "id",
                "round_id",
                "rater_id",
                "rater_role",
                "subject_id",
                "version_id",
                "context",
                "keep",
                "try_next",
                "created_at",
                "submitted_at",
            ),
        )
        self.card_id = ids(Scorecard)
        self.scores = t(
            Score, ("id", "scorecard_id", "criterion_id", "rating", "evidence_at", "evidence")
        )
        self.score_id = ids(Score)
        self.recent_calls: dict[int, list] = {}  # director → [(call id, subject, template, at)]
        self.directors: dict[int, int | None] = {}

    # --- skill ---------------------------------------------------------------------------

    def skill(self, person: Person, lineage: int, at: datetime) -> float:
        progress = max(0.0, (at - self.start).total_seconds() / self.total)
        team_id = person.team_at(at)
        trend = self.org.team_by_id[team_id].trend if team_id else 0.3
        level = person.skill + trend * progress + self.offsets.get(lineage, 0.0)
        area = self.programme.area_on(at.date(), team_id)
        if area is not None and lineage in area.lineages:
            into = (at.date() - area.starts).days / 91
            level += 0.35 * min(1.0, into)
        return level

    def rating(self, level: float, scale: int, noise: float) -> int:
        return max(1, min(scale, round(level + self.rng.gauss(0, noise))))

    def template_at(self, at: datetime) -> str:
        area = self.programme.area_on(at.date())
        weights = [
            (4 if area is not None and name in area.templates else 1)
            * (2 if name == "Discovery call" else 1)
            for name in self.templates
        ]
        return self.rng.choices(self.templates, weights)[0]

    # --- rows ----------------------------------------------------------------------------

    def call(self, person: Person, at: datetime, by: int, kind=WorkKind.CALL) -> tuple[int, str]:
        rng = self.rng
        template = self.template_at(at)
        account = rng.choice(words.ACCOUNT_NAMES)
        day = (at - timedelta(days=rng.randint(1, 5))).date()
        moments = sorted(rng.sample(range(2 * 60, 40 * 60, 5), 3))
        labels = rng.sample(words.CALL_MOMENTS, 3)
        stamps = (
            "\n".join(
                f"{m // 60:02d}:{m % 60:02d} {label}"
                for m, label in zip(moments, labels, strict=True)
            )
            if rng.random() < 0.5
            else ""
        )
        pk = self.call_id()
        self.calls.add(
            (
                pk,
                person.id,
                kind,
                f"https://calls.example.com/{person.id}/{pk}",
                f"{template.split()[0]} — {account}",
                day,
                stamps,
                by,
                at - timedelta(hours=rng.randint(1, 20)),
            )
        )
        return pk, template

    def open_round(
        self, work: int, template: str, context: str, by: int, at: datetime, title="", closed=None
    ) -> int:
        pk = self.round_id()
        self.rounds.add(
            (pk, work, self.programme.library.versions[template], context, title, by, at, closed)
        )
        return pk

    def card(
        self,
        round_id,
        rater: Person,
        role,
        subject: Person,
        template,
        context,
        at,
        submitted,
        level_shift,
        noise,
        notes=False,
    ) -> None:
        rng = self.rng
        pk = self.card_id()
        keep = try_next = ""
        if notes and rng.random() < 0.6:
            keep, try_next = rng.choice(KEEP), rng.choice(TRY)
        self.cards.add(
            (
                pk,
                round_id,
                rater.id,
                role,
                subject.id,
                self.programme.library.versions[template],
                context,
                keep,
                try_next,
                at - timedelta(minutes=rng.randint(5, 90)),
                at if submitted else None,
            )
        )
        for criterion in self.programme.library.criteria[template]:
            level = self.skill(subject, criterion.lineage, at) + level_shift
            evidence_at = evidence = ""
            if rng.random() < 0.25:
                evidence_at = f"{rng.randint(1, 40):02d}:{rng.randint(0, 59):02d}"
                evidence = rng.choice(words.CALL_MOMENTS)
            self.scores.add(
                (
                    self.score_id(),
                    pk,
                    criterion.id,
                    self.rating(level, criterion.scale, noise),
                    evidence_at,
                    evidence,
                )
            )

    # --- the history -----------------------------------------------------------------------

    def run(self, progress=None) -> None:
        reps = [p for p in self.org.people if p.level == REP]
        for i, rep in enumerate(reps):
            self.coached(rep)
            self.alone(rep)
            self.with_peers(rep)
            if progress and i % 2000 == 1999:
                progress(f"{i + 1:,} of {len(reps):,} reps' scorecards")
        self.calibrations()

    def _times(self, begins: datetime, ends: datetime, every_weeks: float):
        rng = self.rng
        moment = begins + timedelta(days=rng.uniform(0, every_weeks * 7))
        while moment < ends:
            yield moment.replace(hour=rng.randint(8, 17))
            moment += timedelta(days=max(7.0, rng.gauss(every_weeks * 7, every_weeks * 2)))

    def _span(self, person: Person, stint) -> tuple[datetime, datetime] | None:
        team = self.org.team_by_id.get(stint.team) if stint.team else None
        adopted = team.adopted if team else self.start
        begins = max(stint.start, adopted) + timedelta(weeks=2)
        ends = min(stint.end or self.now, self.now) - timedelta(hours=2)
        return (begins, ends) if begins < ends else None

    def coached(self, rep: Person) -> None:
        rng, by_id = self.rng, self.org.by_id
        for stint in rep.stints:
            coach = by_id[stint.manager]
            every = coach.coach.scoring_every if coach.coach else None
            span = self._span(rep, stint)
            if every is None or span is None:
                continue
            for at in self._times(*span, every):
                work, template = self.call(rep, at, rng.choice((rep.id, coach.id)))
                age = self.now - at
                director = self._director(coach)
                if director is not None:
                    self.recent_calls.setdefault(director, []).append((work, rep, template, at))
                closed = (
                    at + timedelta(days=rng.randint(10, 30))
                    if age > timedelta(weeks=8) and rng.random() < 0.4
                    else None
                )
                pk = self.open_round(
                    work, template, RoundContext.COACH, coach.id, at, closed=closed
                )
                u = rng.random()
                self_at = at + timedelta(hours=rng.randint(2, 72))
                declined = None
                if u < 0.08:
                    declined = self_at
                self.raters.add((self.rater_id(), pk, coach.id, RaterRole.COACH, None, at))
                self.raters.add(
                    (
                        self.rater_id(),
                        pk,
                        rep.id,
                        RaterRole.SUBJECT,
                        declined if declined and declined < self.now else None,
                        at,
                    )
                )
                if declined is None and u < 0.8 and self_at < self.now:
                    self.card(
                        pk,
                        rep,
                        RaterRole.SUBJECT,
                        rep,
                        template,
                        RoundContext.COACH,
                        self_at,
                        True,
                        self._bias(rep, at),
                        0.5,
                    )
                elif declined is None and u < 0.86 and self_at < self.now:
                    self.card(
                        pk,
                        rep,
                        RaterRole.SUBJECT,
                        rep,
                        template,
                        RoundContext.COACH,
                        self_at,
                        False,
                        self._bias(rep, at),
                        0.5,
                    )
                coach_at = at + timedelta(hours=rng.randint(1, 96))
                if coach_at < self.now and rng.random() < 0.95:
                    self.card(
                        pk,
                        coach,
                        RaterRole.COACH,
                        rep,
                        template,
                        RoundContext.COACH,
                        coach_at,
                        True,
                        self.leniency.get(coach.id, 0.0),
                        0.45,
                        notes=True,
                    )

    def _bias(self, rep: Person, at: datetime) -> float:
        progress = max(0.0, (at - self.start).total_seconds() / self.total)
        return rep.self_bias * (1 - 0.6 * progress)

    def _director(self, person: Person) -> int | None:
        if person.id in self.directors:
            return self.directors[person.id]
        self.directors[person.id] = found = self._walk_to_director(person)
        return found

    def _walk_to_director(self, person: Person) -> int | None:
        current = person
        while current is not None and current.level > DIRECTOR:
            boss = current.manager
            current = self.org.by_id[boss] if boss else None
        return current.id if current is not None and current.level == DIRECTOR else None

    def alone(self, rep: Person) -> None:
        rng = self.rng
        if rng.random() < 0.25:
            return  # some never score themselves unasked
        for stint in rep.stints:
            span = self._span(rep, stint)
            if span is None:
                continue
            for at in self._times(*span, rng.uniform(6, 24)):
                work, template = self.call(rep, at, rep.id)
                pk = self.open_round(work, template, RoundContext.SELF, rep.id, at)
                self.raters.add((self.rater_id(), pk, rep.id, RaterRole.SUBJECT, None, at))
                done = at + timedelta(minutes=rng.randint(10, 600))
                if done < self.now:
                    self.card(
                        pk,
                        rep,
                        RaterRole.SUBJECT,
                        rep,
                        template,
                        RoundContext.SELF,
                        done,
                        rng.random() < 0.92,
                        self._bias(rep, at),
                        0.5,
                    )

    def with_peers(self, rep: Person) -> None:
        rng = self.rng
        if rng.random() >= 0.18:
            return
        by_id = self.org.by_id
        for stint in rep.stints:
            span = self._span(rep, stint)
            if span is None or stint.team is None:
                continue
            team = self.org.team_by_id[stint.team]
            for at in self._times(*span, rng.uniform(8, 16)):
                peers = [pk for pk in team.members_at(at) if pk != rep.id]
                if not peers:
                    continue
                work, template = self.call(rep, at, rep.id)
                pk = self.open_round(work, template, RoundContext.PEER, rep.id, at)
                self.raters.add((self.rater_id(), pk, rep.id, RaterRole.SUBJECT, None, at))
                done = at + timedelta(hours=rng.randint(1, 48))
                if done < self.now:
                    self.card(
                        pk,
                        rep,
                        RaterRole.SUBJECT,
                        rep,
                        template,
                        RoundContext.PEER,
                        done,
                        True,
                        self._bias(rep, at),
                        0.5,
                    )
                for peer_id in rng.sample(peers, min(len(peers), rng.randint(1, 3))):
                    peer = by_id[peer_id]
                    self.raters.add((self.rater_id(), pk, peer_id, RaterRole.PEER, None, at))
                    done = at + timedelta(hours=rng.randint(2, 120))
                    if done < self.now and rng.random() < 0.8:
                        self.card(
                            pk,
                            peer,
                            RaterRole.PEER,
                            rep,
                            template,
                            RoundContext.PEER,
                            done,
                            True,
                            0.1,
                            0.6,
                        )

    def calibrations(self) -> None:
        """A quarter's calibration per director (most of them): one call, the managers
        below them scoring blind, closed a week or two later."""
        rng = self.rng
        managers_below: dict[int, list[Person]] = {}
        for p in self.org.people:
            if p.coach is not None and p.active and p.level > DIRECTOR:
                managers_below.setdefault(self._director(p), []).append(p)
        for director_id in sorted(self.recent_calls):
            below = managers_below.get(director_id, [])
            if len(below) < 2:
                continue
            calls = self.recent_calls[director_id]
            quarter_start = self.start + timedelta(weeks=13)
            while quarter_start < self.now - timedelta(weeks=1):
                quarter_end = quarter_start + timedelta(weeks=13)
                pool = [c for c in calls if quarter_start <= c[3] < quarter_end]
                if pool and rng.random() < 0.75:
                    work, subject, template, at = rng.choice(pool)
                    opened = at + timedelta(days=rng.randint(2, 10))
                    closed = opened + timedelta(days=rng.randint(7, 14))
                    if opened < self.now:
                        quarter = f"Q{(opened.month - 1) // 3 + 1} {opened.year}"
                        title = rng.choice(words.CALIBRATION_TITLES).format(quarter=quarter)
                        pk = self.open_round(
                            work,
                            template,
                            RoundContext.CALIBRATION,
                            director_id,
                            opened,
                            title,
                            closed if closed < self.now else None,
                        )
                        for rater in rng.sample(below, min(len(below), rng.randint(6, 14))):
                            self.raters.add(
                                (self.rater_id(), pk, rater.id, RaterRole.CALIBRATOR, None, opened)
                            )
                            done = opened + timedelta(hours=rng.randint(2, 7 * 24))
                            if done < min(closed, self.now) and rng.random() < 0.85:
                                self.card(
                                    pk,
                                    rater,
                                    RaterRole.CALIBRATOR,
                                    subject,
                                    template,
                                    RoundContext.CALIBRATION,
                                    done,
                                    True,
                                    self.leniency.get(rater.id, 0.0),
                                    0.55,
                                )
                quarter_start = quarter_end
