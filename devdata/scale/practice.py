"""The learning loop and what surrounds it at scale, so the pages that read it have a
deployment's rows: the playbook modules each team picked, the diagnoses coaches make
before coaching, experiments, the learnings library, open requests for a peer, team
channels, private calendar addresses and a programme closure ahead.

- **Playbooks**: each team picks the core module when it adopts the programme (almost
  all of them) and the sales add-on (most).
- **Diagnoses**: a rep's manager of the time diagnoses them every two to four months
  (the four questions in order, landing on the first gap; often a line of notes).
- **Experiments**: about a third of reps and a fifth of managers run one every month
  or two over the last year; older ones are done (with a result and a learning) or
  dropped, recent ones planned or running.
- **Learnings**: about one done experiment in eight becomes a learning for the team or
  everyone; team leads and programme admins publish checklists, templates and case
  studies besides; tagged from a fixed set of tags.
- **Peer requests**: a few reps not in a live pair are asking for a peer.
- **Team channels** for about a third of the teams, **calendar feeds** for about one
  person in seven, and one **closure** of three days just past the cadence horizon
  (so nothing already planned falls on it).

Written elsewhere: a pair's notes, habits and check-ins with its sessions
(`devdata.scale.peers`), a few teams' own focus areas with the organisation's
(`devdata.scale.programme`), notification preferences with the outbox they shape
(`devdata.scale.notifications`)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from cadence.models import CalendarFeed, Closure
from coaching.models import Diagnosis, GapType
from learning.models import (
    Audience,
    Department,
    Experiment,
    ExperimentStatus,
    Learning,
    LearningKind,
    LearningTag,
    PlaybookModule,
)
from notifications.models import TeamChannel
from peers.models import PairMember, PeerRequest

from . import words
from .org import REP, Org, Person
from .programme import Programme
from .sink import Sink

CORE_SHARE, SALES_SHARE = 0.95, 0.7
DIAGNOSED_EVERY_WEEKS = (9, 17)
DIAGNOSIS_NOTES = 0.6
GAPS, GAP_WEIGHTS = (
    (GapType.SKILL, GapType.WILL, GapType.KNOWLEDGE, GapType.SYSTEM, GapType.NONE),
    (45, 15, 20, 15, 5),
)
EXPERIMENT_WEEKS = 52
EXPERIMENTERS = {"rep": 0.3, "manager": 0.2}
EXPERIMENT_EVERY_WEEKS = (4, 10)
RUNS_DAYS = (7, 21)
DONE = 0.75  # of those over: the rest were dropped
SHARED = 0.12  # done experiments written up as a learning
TEAM_AUDIENCE = 0.7
CURATED = 0.3  # team leads who published a learning of their own
PEER_REQUESTS = 0.02
CHANNELS = 0.3
FEEDS = 0.15
CLOSURE_DAYS = 3


class Practice:
    def __init__(self, sink: Sink, org: Org, programme: Programme, *, seed: int):
        self.sink, self.org, self.programme = sink, org, programme
        self.rng = random.Random(f"{seed}:practice")
        self.now = org.clock.now

    def run(self) -> None:
        self._playbooks()
        self._diagnoses()
        done = self._experiments()
        self._learnings(done)
        self._peer_requests()
        self._channels_feeds_and_closure()

    # --- playbooks ---------------------------------------------------------------------

    def _playbooks(self) -> None:
        modules = PlaybookModule.objects.using(self.sink.using).filter(is_active=True)
        core = modules.filter(department=Department.CORE).order_by("position", "pk").first()
        sales = modules.filter(department=Department.SALES).order_by("position", "pk").first()
        through = PlaybookModule.teams.through
        table = self.sink.table(through, ("id", "playbookmodule_id", "team_id"))
        next_id = self.sink.next_id(through)
        for team in self.org.teams:
            if team.adopted >= self.now:
                continue
            for module, share in ((core, CORE_SHARE), (sales, SALES_SHARE)):
                if module is not None and self.rng.random() < share:
                    table.add((next_id(), module.pk, team.id))

    # --- diagnoses ---------------------------------------------------------------------

    def _diagnoses(self) -> None:
        table = self.sink.table(
            Diagnosis,
            ("id", "coachee_id", "author_id", "knows_how", "believes", "has_framework",
             "has_system", "gap", "notes", "created_at"),
        )  # fmt: skip
        next_id, rng = self.sink.next_id(Diagnosis), self.rng
        for person in self.org.people:
            if person.level != REP:
                continue
            for stint in person.stints:
                end = min(stint.end or self.now, person.left or self.now)
                at = stint.start + timedelta(weeks=rng.randint(2, DIAGNOSED_EVERY_WEEKS[1]))
                while at < end:
                    gap = rng.choices(GAPS, GAP_WEIGHTS)[0]
                    notes = (
                        rng.choice(words.DIAGNOSIS_NOTES[gap])
                        if rng.random() < DIAGNOSIS_NOTES
                        else ""
                    )
                    table.add((next_id(), person.id, stint.manager, *_answers(gap), gap,
                               notes, at))  # fmt: skip
                    at += timedelta(
                        weeks=rng.randint(*DIAGNOSED_EVERY_WEEKS), hours=rng.randint(0, 9)
                    )

    # --- experiments -------------------------------------------------------------------

    def _experiments(self) -> list[tuple[int, Person, int, datetime, int | None]]:
        """Writes the experiments; returns the done ones (id, owner, spec, finished,
        focus area) for the learnings."""
        table = self.sink.table(
            Experiment,
            ("id", "owner_id", "hypothesis", "test", "evidence", "result", "learning",
             "status", "focus_area_id", "session_id", "commitment_id", "pair_id",
             "created_at", "started_at", "finished_at"),
        )  # fmt: skip
        next_id, rng, now = self.sink.next_id(Experiment), self.rng, self.now
        first = max(self.org.clock.start, now - timedelta(weeks=EXPERIMENT_WEEKS))
        done = []
        for person in self.org.people:
            kind = "rep" if person.level == REP else "manager" if person.coach else None
            if kind is None or rng.random() >= EXPERIMENTERS[kind]:
                continue
            until = person.left or now
            at = max(first, person.joined) + timedelta(days=rng.randint(0, 60), hours=9)
            while at < until:
                pk, spec = next_id(), rng.randrange(len(words.EXPERIMENTS))
                hypothesis, test, evidence, result, learning = words.EXPERIMENTS[spec]
                area = self.programme.area_on(at.date()) if rng.random() < 0.7 else None
                started = at + timedelta(days=rng.randint(0, 3))
                finished = started + timedelta(days=rng.randint(*RUNS_DAYS))
                if finished < min(until, now):
                    if rng.random() < DONE:
                        status = ExperimentStatus.DONE
                        done.append((pk, person, spec, finished, area.id if area else None))
                    else:
                        status, learning = ExperimentStatus.DROPPED, ""
                        result = rng.choice(words.EXPERIMENT_DROP_NOTES)
                elif started < min(until, now):
                    status, result, learning, finished = ExperimentStatus.RUNNING, "", "", None
                else:
                    status, result, learning = ExperimentStatus.PLANNED, "", ""
                    started = finished = None
                table.add((pk, person.id, hypothesis, test, evidence, result, learning, status,
                           area.id if area else None, None, None, None, at, started,
                           finished))  # fmt: skip
                at += timedelta(weeks=rng.randint(*EXPERIMENT_EVERY_WEEKS))
        return done

    # --- the learnings library ---------------------------------------------------------

    def _learnings(self, done) -> None:
        sink, rng, org = self.sink, self.rng, self.org
        tags = sink.table(LearningTag, ("id", "name"))
        tag_id, tag_ids = sink.next_id(LearningTag), {}
        for name in words.LEARNING_TAGS:
            tag_ids[name] = tag_id()
            tags.add((tag_ids[name], name))
        table = sink.table(
            Learning,
            ("id", "author_id", "kind", "title", "body", "focus_area_id", "audience",
             "team_id", "experiment_id", "session_id", "published_at", "updated_at"),
        )  # fmt: skip
        through = Learning.tags.through
        links = sink.table(through, ("id", "learning_id", "learningtag_id"))
        next_id, link_id = sink.next_id(Learning), sink.next_id(through)

        def publish(author: Person, kind, title, body, names, at, team, area=None, exp=None):
            pk = next_id()
            audience = Audience.TEAM if team is not None else Audience.ORGANISATION
            table.add((pk, author.id, kind, title, body, area, audience, team, exp, None,
                       at, at))  # fmt: skip
            for name in names:
                links.add((link_id(), pk, tag_ids[name]))

        for pk, owner, spec, finished, area in done:
            if rng.random() >= SHARED:
                continue
            hypothesis, test, _, result, learning = words.EXPERIMENTS[spec]
            at = finished + timedelta(days=rng.randint(0, 3), hours=rng.randint(1, 6))
            if at >= self.now:
                continue
            team = owner.team_at(finished) if owner.level == REP else owner.led
            if rng.random() >= TEAM_AUDIENCE:
                team = None
            body = (
                f"Hypothesis: {hypothesis}.\n\nWhat I tried: {test}\n\n"
                f"What happened: {result}\n\nWhat I learned: {learning}"
            )
            names = rng.sample(words.LEARNING_TAGS, rng.randint(1, 3))
            publish(owner, LearningKind.LEARNING, hypothesis, body, names, at, team, area, pk)

        start = org.clock.start
        curators = [org.by_id[t.lead] for t in org.teams if rng.random() < CURATED]
        for author in [*curators, *org.admins]:
            kind, title, body, names = rng.choice(words.LEARNINGS)
            at = start + timedelta(seconds=rng.randrange(int((self.now - start).total_seconds())))
            team = author.led if author.led is not None and rng.random() < 0.5 else None
            publish(author, kind, title, body, names, at, team)

    # --- asking for a peer -------------------------------------------------------------

    def _peer_requests(self) -> None:
        in_a_pair = set(
            PairMember.objects.using(self.sink.using)
            .filter(left_at__isnull=True, pair__ended_at__isnull=True)
            .values_list("person_id", flat=True)
        )
        table = self.sink.table(
            PeerRequest,
            ("id", "person_id", "note", "focus_area_id", "created_at", "updated_at"),
        )
        next_id, rng = self.sink.next_id(PeerRequest), self.rng
        for person in self.org.people:
            if person.level != REP or not person.active or person.id in in_a_pair:
                continue
            if rng.random() < PEER_REQUESTS:
                at = self.now - timedelta(days=rng.randint(1, 30), hours=rng.randint(0, 9))
                area = self.programme.area_on(at.date()) if rng.random() < 0.5 else None
                table.add((next_id(), person.id, rng.choice(words.PEER_REQUEST_NOTES),
                           area.id if area else None, at, at))  # fmt: skip

    # --- channels, calendar feeds, a closure ahead -------------------------------------

    def _channels_feeds_and_closure(self) -> None:
        sink, rng, now = self.sink, self.rng, self.now
        channels = sink.table(
            TeamChannel,
            ("id", "team_id", "webhook_url", "format", "is_active", "last_success_at",
             "last_failure_at", "last_error"),
        )  # fmt: skip
        channel_id = sink.next_id(TeamChannel)
        for team in self.org.teams:
            if rng.random() < CHANNELS:
                teams = rng.random() < 0.2
                url = (
                    f"https://example.webhook.office.com/webhookb2/team-{team.id}"
                    if teams
                    else f"https://hooks.slack.example.com/services/T{team.id:05d}/B{rng.getrandbits(32):08x}"
                )
                last = now - timedelta(days=rng.randint(0, 6), hours=rng.randint(0, 23))
                channels.add((channel_id(), team.id, url, "teams" if teams else "slack", True,
                               last, None, ""))  # fmt: skip
        feeds = sink.table(CalendarFeed, ("id", "person_id", "token", "created_at"))
        feed_id = sink.next_id(CalendarFeed)
        for person in self.org.people:
            if person.active and rng.random() < FEEDS:
                at = max(person.joined, now - timedelta(days=rng.randint(1, 365)))
                feeds.add((feed_id(), person.id, f"{rng.getrandbits(256):064x}", at))
        closures = sink.table(
            Closure,
            ("id", "name", "first_day", "last_day", "created_by_id", "created_at", "removed"),
        )
        first = (self.org.clock.horizon + timedelta(days=5)).date()
        closures.add((sink.next_id(Closure)(), "Company offsite", first,
                      first + timedelta(days=CLOSURE_DAYS - 1), self.org.admins[0].id,
                      now - timedelta(days=20), 0))  # fmt: skip


def _answers(gap: str) -> tuple[bool | None, ...]:
    """The four answers that land on `gap`: yes up to the first no, nothing after it."""
    order = (GapType.SKILL, GapType.WILL, GapType.KNOWLEDGE, GapType.SYSTEM)
    if gap == GapType.NONE:
        return (True, True, True, True)
    at = order.index(gap)
    return tuple(True if i < at else False if i == at else None for i in range(4))
