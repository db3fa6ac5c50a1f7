"""The programme around the cadence: the team policy (the demo's "Sales team
standard") applied to every team when it adopted the programme, each team's install
plan, focus areas quarter by quarter linked to the starter library's criteria (and a
few teams' own), and development goals that change every few months.

The scorecard library comes from migrations; its current versions and criteria are
read here once (`Library`), for focus areas and for the scorecards phase."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from cadence.models import CadencePolicy, PolicyAssignment, PolicyItem, Rollout, RolloutTick
from coaching.models import FocusArea, Goal, GoalStatus
from devdata.demo.cadence import ITEMS, POLICY, POLICY_DESCRIPTION
from scorecards.models import CriterionVersion, Template

from . import words
from .org import REP, Org
from .sink import Sink


@dataclass
class Criterion:
    id: int  # CriterionVersion id (what a Score names)
    lineage: int  # Criterion id (what focus areas and trends follow)
    title: str
    scale: int
    position: int


@dataclass
class Library:
    """The current version of each template in the library, with its criteria."""

    versions: dict[str, int]  # template name → TemplateVersion id
    criteria: dict[str, list[Criterion]]  # template name → criteria in order

    @classmethod
    def load(cls, using: str) -> Library:
        versions, criteria = {}, {}
        for template in Template.objects.using(using).filter(retired_at__isnull=True):
            version = template.versions.order_by("-number").first()
            if version is None:
                continue
            versions[template.name] = version.pk
            criteria[template.name] = [
                Criterion(c.pk, c.criterion_id, c.title, c.scale_max, c.position)
                for c in CriterionVersion.objects.using(using)
                .filter(version=version)
                .order_by("position")
            ]
        return cls(versions, criteria)


@dataclass
class Area:
    id: int
    name: str
    starts: date
    ends: date | None
    lineages: set[int]
    templates: set[str]
    teams: frozenset[int] = frozenset()  # empty: the whole organisation

    def active_on(self, day: date) -> bool:
        return self.starts <= day and (self.ends is None or day <= self.ends)

    def applies_to(self, team: int | None) -> bool:
        return not self.teams or team in self.teams


@dataclass(slots=True)
class GoalSpan:
    id: int
    title: str
    theme: str
    start: datetime
    end: datetime | None  # when it was closed; None while active


@dataclass
class Programme:
    library: Library
    areas: list[Area]
    assignments: dict[int, int]  # team id → PolicyAssignment id
    goals: dict[int, list[GoalSpan]] = field(default_factory=dict)  # person id → goals

    def area_on(self, day: date, team: int | None = None) -> Area | None:
        """The focus area a role-play of `team` that day practises: the latest started
        of those that apply to it (the engine's rule); without a team, of the
        organisation's."""
        for area in self.areas:  # latest first, as the engine orders them
            if area.active_on(day) and (area.applies_to(team) if team else not area.teams):
                return area
        return None

    def goal_at(self, person: int, moment: datetime) -> GoalSpan | None:
        for goal in self.goals.get(person, ()):
            if goal.start <= moment and (goal.end is None or moment < goal.end):
                return goal
        return None


TEAM_AREAS = 0.08  # teams with a focus area of their own besides the organisation's
TEAM_AREA_WEEKS = 10  # taken up on a Monday this many weeks back at most

THEME_OF_AREA = {
    "Questions before the pitch": "discovery",
    "Find the cost of inaction": "discovery",
    "Curiosity under pushback": "objections",
    "Demo to their problem": "next_steps",
    "Earn the first conversation": "discovery",
    "Hold value on price": "pricing",
    "Let the customer talk": "listening",
    "Multi-threading": "multithreading",
}


def write(sink: Sink, org: Org, *, seed: int) -> Programme:
    rng = random.Random(f"{seed}:programme")
    clock = org.clock
    admin = org.admins[0].id

    policy = CadencePolicy.objects.using(sink.using).filter(name=POLICY).first()
    if policy is None:
        policy = CadencePolicy.objects.using(sink.using).create(
            name=POLICY, description=POLICY_DESCRIPTION, created_at=clock.start
        )
        PolicyItem.objects.using(sink.using).bulk_create(
            PolicyItem(policy=policy, **item) for item in ITEMS
        )
    assignments_table = sink.table(
        PolicyAssignment, ("id", "policy_id", "team_id", "applied_at", "applied_by_id")
    )
    assignment_id = sink.next_id(PolicyAssignment)
    rollouts = sink.table(Rollout, ("id", "team_id", "starts_on", "created_by_id", "created_at"))
    rollout_id = sink.next_id(Rollout)
    ticks = sink.table(RolloutTick, ("id", "rollout_id", "item", "ticked_by_id", "ticked_at"))
    tick_id = sink.next_id(RolloutTick)
    assignments = {}
    for team in org.teams:
        assignments[team.id] = assignment_id()
        assignments_table.add((assignments[team.id], policy.pk, team.id, team.adopted, admin))
        rollout = rollout_id()
        rollouts.add(
            (rollout, team.id, team.adopted.date(), admin, team.adopted - timedelta(days=7))
        )
        for item, share in (("recordings_on", 0.9), ("scorecard_agreed", 0.75)):
            at = team.adopted + timedelta(days=rng.randint(3, 45), hours=rng.randint(0, 8))
            if rng.random() < share and at < clock.now:
                ticks.add((tick_id(), rollout, item, team.lead, at))

    library = Library.load(sink.using)
    areas = _focus_areas(sink, clock, library)
    areas += _team_focus_areas(sink, org, library, rng)
    areas.sort(key=lambda a: (-a.starts.toordinal(), a.id))  # the engine's order
    programme = Programme(library=library, areas=areas, assignments=assignments)
    _goals(sink, org, programme, rng)
    return programme


def _focus_areas(sink: Sink, clock, library: Library) -> list[Area]:
    """One quarter each, back to back; the last two still running."""
    table = sink.table(
        FocusArea, ("id", "name", "behaviours", "starts_on", "ends_on", "created_at")
    )
    area_id = sink.next_id(FocusArea)
    quarters = 4 * clock.years
    areas = []
    for q in range(quarters):
        name, criteria, behaviours = words.FOCUS_AREAS[
            (q + len(words.FOCUS_AREAS) - quarters) % len(words.FOCUS_AREAS)
        ]
        starts = (clock.start + timedelta(weeks=13 * q)).date()
        ends = None if q >= quarters - 2 else starts + timedelta(weeks=13, days=-1)
        pk = area_id()
        table.add((pk, name, behaviours, starts, ends, clock.start - timedelta(days=7)))
        lineages, templates = _link_criteria(sink, pk, criteria, library)
        areas.append(Area(pk, name, starts, ends, lineages, templates))
    return areas


def _link_criteria(sink: Sink, area: int, criteria, library: Library) -> tuple[set, set]:
    """The area's criteria, by template and title, linked; their lineages and
    templates."""
    links_model = FocusArea.criteria.through
    links = sink.table(links_model, ("id", "focusarea_id", "criterion_id"))
    link_id = sink.next_id(links_model)
    lineages, templates = set(), set()
    for template, title in criteria:
        found = next((c for c in library.criteria.get(template, ()) if c.title == title), None)
        if found is not None:
            links.add((link_id(), area, found.lineage))
            lineages.add(found.lineage)
            templates.add(template)
    return lineages, templates


def _team_focus_areas(sink: Sink, org: Org, library: Library, rng: random.Random) -> list[Area]:
    """About one team in twelve (at least one) with a focus area of its own besides the
    organisation's, taken up on a Monday of the last TEAM_AREA_WEEKS weeks and still
    running: its role-plays practise it from then (the latest started area that applies
    to the team, as the engine picks), and its people's scores follow its criteria."""
    table = sink.table(
        FocusArea, ("id", "name", "behaviours", "starts_on", "ends_on", "created_at")
    )
    teams_model = FocusArea.teams.through
    teams = sink.table(teams_model, ("id", "focusarea_id", "team_id"))
    area_id, team_link_id = sink.next_id(FocusArea), sink.next_id(teams_model)
    this_monday = org.clock.now.date() - timedelta(days=org.clock.now.weekday())
    adopted = [team for team in org.teams if team.adopted.date() <= this_monday]
    chosen = rng.sample(adopted, min(len(adopted), max(1, round(len(adopted) * TEAM_AREAS))))
    areas = []
    for team in sorted(chosen, key=lambda t: t.id):
        name, criteria, behaviours = rng.choice(words.TEAM_FOCUS_AREAS)
        starts = max(
            this_monday - timedelta(weeks=rng.randrange(TEAM_AREA_WEEKS)),
            team.adopted.date() + timedelta(days=7 - team.adopted.weekday()),
        )
        pk = area_id()
        created = datetime.combine(starts - timedelta(days=3), time.min, tzinfo=UTC)
        table.add((pk, name, behaviours, starts, None, created))
        teams.add((team_link_id(), pk, team.id))
        lineages, templates = _link_criteria(sink, pk, criteria, library)
        areas.append(Area(pk, name, starts, None, lineages, templates, frozenset({team.id})))
    return areas


def _goals(sink: Sink, org: Org, programme: Programme, rng: random.Random) -> None:
    """Reps write a development goal a few weeks into the programme and replace it
    every few months (achieved, or dropped); about a quarter have none running now.
    Half the managers keep a goal about their coaching."""
    clock = org.clock
    table = sink.table(
        Goal,
        (
            "id",
            "owner_id",
            "title",
            "success",
            "focus_area_id",
            "status",
            "created_by_id",
            "created_at",
            "closed_at",
        ),
    )
    goal_id = sink.next_id(Goal)
    themes = list(words.THEMES)
    for p in org.people:
        if not p.stints:
            continue
        team = org.team_by_id.get(p.stints[-1].team) if p.stints[-1].team else None
        adopted = team.adopted if team else org.region_adopted[p.region]
        moment = max(p.joined, adopted) + timedelta(
            days=rng.randint(7, 60), hours=rng.randint(1, 8)
        )
        end_of_life = p.left or clock.now
        is_rep = p.level == REP
        if not is_rep and rng.random() < 0.5:
            continue
        spans = []
        while moment < end_of_life:
            theme = rng.choice(themes)
            title = (
                rng.choice(words.THEMES[theme].goals)
                if is_rep
                else rng.choice(words.GOAL_LIKE_MANAGER)
            )
            closes = moment + timedelta(weeks=rng.randint(8, 22))
            if closes >= end_of_life:
                closes = None if rng.random() < 0.75 or p.left else end_of_life - timedelta(days=1)
                if closes is not None and closes <= moment:
                    closes = None
            status = (
                GoalStatus.ACTIVE
                if closes is None
                else rng.choices((GoalStatus.ACHIEVED, GoalStatus.DROPPED), (65, 35))[0]
            )
            area = programme.area_on(moment.date())
            linked = (
                area.id
                if area is not None and THEME_OF_AREA.get(area.name) == theme and rng.random() < 0.6
                else None
            )
            pk = goal_id()
            table.add(
                (
                    pk,
                    p.id,
                    title,
                    rng.choice(("", "", "What you would hear on the recordings.")),
                    linked,
                    status,
                    p.id,
                    moment,
                    closes,
                )
            )
            spans.append(GoalSpan(pk, title, theme, moment, closes))
            if closes is None:
                break
            moment = closes + timedelta(days=rng.randint(0, 21))
        programme.goals[p.id] = spans
