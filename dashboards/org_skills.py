"""Skills across the organisation, for HR and programme admins: whether coaching moves
skill. For each current focus area, month by month over the last `MONTHS` calendar
months (in the reader's time zone), the average of the scores coaches, peers and
reviewers gave on its criteria to the people it is for, beside those people's own
self-assessments — the lift to report to leadership, long before quota moves.

Beside each area's months, whether the people whose 1:1s held moved further than the
rest (`skill_lift`), from the same aggregate.

Aggregates only: no scorecard, score or name, and a month's average over fewer than
`MIN_GROUP` people is not shown (nor an area whose audience is smaller). Calibrations
measure raters, not people, so they are left out, as in every trend; so is every
round still being scored (`scorecards.models.scoring_over`). Seven queries,
eight once a team has a focus area of its own, whatever the number of people, scores
or focus areas (pinned by tests/dashboards/test_org_skills.py at two sizes)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime, time, tzinfo

from django.db.models import Count, DateField, F, Q, Sum
from django.db.models.functions import TruncMonth
from django.utils import timezone
from django.utils.safestring import SafeString

from cadence import health
from coaching.models import FocusArea
from people.models import Team, TeamMembership, User
from people.selectors import ids_below
from scorecards.charts import OTHERS_COLOUR, SELF_COLOUR, Series, trend_chart
from scorecards.models import CriterionVersion, RaterRole, RoundContext, Score, scoring_over

from . import skill_lift
from .privacy import too_few

MONTHS = 6  # the current month and the five before it


@dataclass(frozen=True)
class MonthSkill:
    """One month of one focus area. `others`/`self` are None when fewer than
    MIN_GROUP people were scored / assessed themselves that month."""

    month: date  # the 1st
    people: int  # scored by a coach, peer or reviewer this month
    others: float | None
    self_people: int  # who assessed themselves this month
    self: float | None

    @property
    def suppressed(self) -> bool:
        return self.others is None

    @property
    def gap(self) -> float | None:
        """Self minus others, where both are shown."""
        if self.others is None or self.self is None:
            return None
        return round(self.self - self.others, 2)


@dataclass(frozen=True)
class Change:
    """How far the others' average moved between the first and the last shown month."""

    first: date
    last: date
    points: float


@dataclass(frozen=True)
class AreaSkills:
    area: FocusArea
    teams: list[Team]  # empty: the whole organisation
    people: int  # the people the area is for, now
    scale_max: int
    months: list[MonthSkill]  # oldest first, every month of the window; [] when suppressed
    chart: SafeString | str = ""
    lift: skill_lift.Lift | None = None  # None when suppressed

    @property
    def suppressed(self) -> bool:
        return too_few(self.people)

    @property
    def start_month(self) -> date:
        """The month the focus area started: the months before it are its baseline."""
        return self.area.starts_on.replace(day=1)

    @property
    def change(self) -> Change | None:
        shown = [m for m in self.months if not m.suppressed]
        if len(shown) < 2:
            return None
        return Change(shown[0].month, shown[-1].month, round(shown[-1].others - shown[0].others, 2))


@dataclass(frozen=True)
class OrgSkills:
    months: list[date]  # the 1st of each month, oldest first; the last is the current one
    areas: list[AreaSkills]


def month_starts(today: date, n: int = MONTHS) -> list[date]:
    first = today.replace(day=1)
    months = [first]
    while len(months) < n:
        previous = months[-1]
        months.append(
            previous.replace(year=previous.year - 1, month=12)
            if previous.month == 1
            else previous.replace(month=previous.month - 1)
        )
    return months[::-1]


def organisation_skills(
    *, today: date, tz: tzinfo, until: datetime | None = None, below: User | None = None
) -> OrgSkills:
    """Every focus area current on `today` (the reader's date) that names criteria,
    organisation-wide ones first, then by name; the scores submitted before `until`
    (None: all); with `below`, only of the people below that manager, at every level
    — their own view of it, without the areas meant for none of them. Pages read it
    through `snapshots.skills`, as of a slot."""
    months = month_starts(today)
    areas = list(
        FocusArea.objects.active_on(today)
        .filter(criteria__isnull=False)
        .distinct()
        .prefetch_related("criteria", "teams")
        .order_by("name", "pk")
    )
    areas.sort(key=lambda a: bool(a.teams.all()))  # stable: organisation-wide first
    if not areas:
        return OrgSkills(months, [])
    among = ids_below(person=below) if below is not None else None
    audiences = {area.pk: _audience(area) for area in areas}
    people = _people_counts(areas, audiences, among)
    if below is not None:
        # A manager follows the areas meant for their people: another team's is not
        # theirs to read (HR still sees an area whose teams are empty, to fix it).
        areas = [area for area in areas if people[area.pk]]
        if not areas:
            return OrgSkills(months, [])
    versions = _versions({c.pk for area in areas for c in area.criteria.all()})
    since = datetime.combine(months[0], time.min, tzinfo=tz)
    counted = [a for a in areas if not too_few(people[a.pk])]
    found = _by_person_month(
        counted, audiences, versions, since=since, until=until, among=among, tz=tz
    )
    held = health.one_on_ones_by_coachee(since=since, until=until or timezone.now(), among=among)
    result = []
    for area in areas:
        scale = max((versions.scale.get(c.pk, 4) for c in area.criteria.all()), default=4)
        by_month = found.months.get(area.pk, {})
        shown = [by_month.get(month) or MonthSkill(month, 0, None, 0, None) for month in months]
        skills = AreaSkills(
            area,
            list(area.teams.all()),
            people[area.pk],
            scale,
            [] if area not in counted else shown,
            lift=skill_lift.lift(found.series[area.pk], held) if area in counted else None,
        )
        result.append(_with_chart(skills, months))
    return OrgSkills(months, result)


@dataclass(frozen=True)
class _Versions:
    ids: dict[int, list[int]]  # criterion lineage → the ids of its versions
    scale: dict[int, int]  # lineage → its widest scale

    def of(self, lineages) -> list[int]:
        return [pk for lineage in lineages for pk in self.ids.get(lineage, [])]


def _versions(lineages: set[int]) -> _Versions:
    """One query. Scores name a criterion's version; filtering them by version ids,
    rather than through a join to the lineage, lets the planner see how many there are
    (at 10,000 people it then hash-joins the window's scorecards; bench/routes.py)."""
    ids: dict[int, list[int]] = {}
    scale: dict[int, int] = {}
    rows = CriterionVersion.objects.filter(criterion_id__in=lineages).values_list(
        "pk", "criterion_id", "scale_max"
    )
    for pk, lineage, top in rows:
        ids.setdefault(lineage, []).append(pk)
        scale[lineage] = max(scale.get(lineage, 0), top)
    return _Versions(ids, scale)


def _audience(area: FocusArea) -> Q | None:
    """Whose scores count for the area, as a filter on Score: the current members of
    its teams (their leads aside, as in team distributions), or — None — everyone.
    (A manager's view narrows the whole query to the people below them instead.)"""
    teams = [team.pk for team in area.teams.all()]
    if not teams:
        return None
    members = (
        TeamMembership.objects.current()
        .filter(team__in=teams, person__is_active=True)
        .exclude(person_id=F("team__lead_id"))
        .values("person_id")
    )
    return Q(scorecard__subject__in=members)


def _people_counts(areas: list[FocusArea], audiences: dict[int, Q | None], among) -> dict[int, int]:
    """How many people each area is for: everyone active (`among` them), or its teams'
    members — two queries, whatever the number of areas."""
    active = User.objects.filter(is_active=True)
    everyone = (active if among is None else active.filter(pk__in=among)).count()
    scoped = [area.pk for area in areas if area.teams.all()]
    counts = {area.pk: everyone for area in areas if area.pk not in scoped}
    if scoped:
        current = TeamMembership.objects.current().filter(person__is_active=True)
        if among is not None:
            current = current.filter(person_id__in=among)
        rows = (
            current.filter(team__focus_areas__in=scoped)
            .exclude(person_id=F("team__lead_id"))
            .values("team__focus_areas")
            .annotate(people=Count("person", distinct=True))
            .order_by()
        )
        counts.update({pk: 0 for pk in scoped})
        counts.update({row["team__focus_areas"]: row["people"] for row in rows})
    return counts


@dataclass
class _Found:
    """What the one aggregate gave: per area, its months and each person's monthly
    average from coaches and peers (for the lift)."""

    months: dict[int, dict[date, MonthSkill]]
    series: dict[int, dict[int, skill_lift.Series]]


def _by_person_month(
    areas: list[FocusArea],
    audiences: dict[int, Q | None],
    versions: _Versions,
    *,
    since: datetime,
    until: datetime | None,
    among,
    tz: tzinfo,
) -> _Found:
    """One aggregate query for every area, per person and month: the sum and count of
    the others' scores and of the self-assessments, each area's filtered to its
    criteria and its people; the months' averages and head counts are added up from
    its rows. With `among` (the people below a manager, as a subquery), only their
    scores are read, the walk down the reporting lines done once: under a manager of
    ten, a small part of the whole organisation's cost (bench/routes.py)."""
    found = _Found({area.pk: {} for area in areas}, {area.pk: {} for area in areas})
    if not areas:
        return found
    is_self = Q(scorecard__rater_role=RaterRole.SUBJECT)
    sums = {}
    for n, area in enumerate(areas):
        scope = Q(criterion_id__in=versions.of(c.pk for c in area.criteria.all()))
        if audiences[area.pk] is not None:
            scope &= audiences[area.pk]
        for side, rule in (("o", ~is_self), ("s", is_self)):
            sums[f"{side}_sum_{n}"] = Sum("rating", filter=scope & rule)
            sums[f"{side}_n_{n}"] = Count("pk", filter=scope & rule)
    wanted = versions.of({c.pk for area in areas for c in area.criteria.all()})
    scores = Score.objects.filter(scorecard__submitted_at__gte=since, criterion_id__in=wanted)
    if until is not None:
        scores = scores.filter(scorecard__submitted_at__lt=until)
    if among is not None:
        scores = scores.filter(scorecard__subject__in=among)
    rows = (
        scores.exclude(scorecard__context=RoundContext.CALIBRATION)
        .filter(scoring_over("scorecard__round"))  # nothing of a round still being scored
        .annotate(month=TruncMonth("scorecard__submitted_at", tzinfo=tz, output_field=DateField()))
        .values("scorecard__subject", "month")
        .annotate(**sums)
        .order_by()
        .values_list("scorecard__subject", "month", *sums)
    )
    # A few tens of thousands of rows at 10,000 people: positions, not names.
    totals: dict[tuple[int, date], list[int]] = {}
    for subject, month, *numbers in rows:
        for n, area in enumerate(areas):
            o_sum, o_n, s_sum, s_n = numbers[4 * n : 4 * n + 4]
            if o_n:
                total = totals.setdefault((area.pk, month), [0, 0, 0, 0, 0, 0])
                total[0] += o_sum
                total[1] += o_n
                total[2] += 1
                found.series[area.pk].setdefault(subject, {})[month] = o_sum / o_n
            if s_n:
                total = totals.setdefault((area.pk, month), [0, 0, 0, 0, 0, 0])
                total[3] += s_sum
                total[4] += s_n
                total[5] += 1
    for (area_pk, month), (o_sum, o_n, people, s_sum, s_n, assessed) in totals.items():
        found.months[area_pk][month] = MonthSkill(
            month, people, _mean(o_sum, o_n, people), assessed, _mean(s_sum, s_n, assessed)
        )
    return found


def _mean(total: int, n: int, people: int) -> float | None:
    if not n or too_few(people):
        return None
    return round(total / n, 2)


def _with_chart(skills: AreaSkills, months: list[date]) -> AreaSkills:
    if skills.suppressed or all(m.suppressed for m in skills.months):
        return skills
    chart = trend_chart(
        months=months,
        series=[
            Series("Coaches and peers", [m.others for m in skills.months], OTHERS_COLOUR),
            Series("Self-assessment", [m.self for m in skills.months], SELF_COLOUR, dashed=True),
        ],
        scale_max=skills.scale_max,
        label=f"{skills.area.name}: monthly average across the people it is for, "
        f"1 to {skills.scale_max}",
    )
    return replace(skills, chart=chart)
