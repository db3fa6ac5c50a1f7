"""Skill on the active focus area, for the dashboards: which focus area is a person's
active one, and the monthly averages of the scores on its criteria over the last six
months — for many people in a fixed number of queries.

Definitions (the team page and the growth page quote these):

Active focus area
    Of the focus areas active today that apply to the person (organisation-wide, or
    scoped to a team they are currently on) and name scorecard criteria: a team's
    own before an organisation-wide one, then the one that started last.

Skill trend
    Per calendar month (in the viewer's time zone), the mean of every score on the
    focus area's criteria given by anyone but the person (coach, peers, reviewers),
    over the scorecards the viewer may see (`Scorecard.objects.visible_to`: the
    reveal rule), calibrations aside. The six months end with the current one.

Self-vs-coach gap
    In the latest month with both, the mean of the person's own scores on the same
    criteria minus the others' mean (same scorecards): above zero, they rate
    themselves higher than their coach and peers do."""

from dataclasses import dataclass, field
from datetime import date, datetime, time

from django.db.models import Exists, OuterRef, Prefetch
from django.utils import timezone

from coaching.models import FocusArea
from people.models import Team, TeamMembership, User
from scorecards import selectors as scorecards
from scorecards.charts import OTHERS_COLOUR, SELF_COLOUR, Series, sparkline, trend_chart

MONTHS = 6


def month_starts(today: date, months: int = MONTHS) -> list[date]:
    """The first day of each of the last `months` months, oldest first, ending with
    the month of `today`."""
    starts, year, month = [], today.year, today.month
    for _ in range(months):
        starts.append(date(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return starts[::-1]


@dataclass
class SkillTrend:
    area: FocusArea | None
    months: list[date]
    others: list[float | None]
    self: list[float | None]
    scale_max: int = 4
    latest: float | None = None  # the others' mean in the latest month with one
    gap: float | None = None
    gap_month: date | None = None
    sparkline: str = ""
    chart: str = ""
    rows: list[tuple] = field(default_factory=list)  # (month, others, self, gap): the table

    @property
    def has_scores(self) -> bool:
        return any(v is not None for v in self.others + self.self)


def active_areas(*, today: date, team_ids: set[int] | None = None) -> list[FocusArea]:
    """Focus areas active today with their teams and criteria (three queries). With
    `team_ids`, only those that can apply to someone on one of these teams (every
    organisation-wide one, and those scoped to one of them): a page about a few people
    need not read every team's own area (75 at 10,000 people)."""
    areas = FocusArea.objects.active_on(today)
    if team_ids is not None:
        scoped = FocusArea.teams.through.objects.filter(focusarea=OuterRef("pk"))
        areas = areas.filter(~Exists(scoped) | Exists(scoped.filter(team_id__in=team_ids)))
    return list(
        areas.prefetch_related(
            Prefetch("teams", queryset=Team.objects.only("pk")),
            "criteria",
        ).order_by("-starts_on", "pk")
    )


def _scope(area: FocusArea) -> frozenset[int]:
    """The ids of the teams `area` is scoped to (none: organisation-wide), read from its
    prefetched teams once per instance: a dashboard asks it for every person, and each
    `area.teams.all()` builds a related manager (at 10,000 people, with 75 areas, that
    was a third of a team lead's /team/)."""
    if not hasattr(area, "_scope_ids"):
        area._scope_ids = frozenset(t.pk for t in area.teams.all())
    return area._scope_ids


def _scored(area: FocusArea) -> bool:
    """Whether `area` names scorecard criteria, from its prefetched criteria, once."""
    if not hasattr(area, "_scored"):
        area._scored = bool(area.criteria.all())
    return area._scored


def applying(team_ids: set[int], areas: list[FocusArea]) -> list[FocusArea]:
    """Of `active_areas`, those that apply to someone on these teams."""
    return [area for area in areas if not _scope(area) or not team_ids.isdisjoint(_scope(area))]


def area_for(team_ids: set[int], areas: list[FocusArea]) -> FocusArea | None:
    """The person's active focus area (see the module docstring), from `active_areas`."""
    applying_ = [area for area in applying(team_ids, areas) if _scored(area)]
    applying_.sort(key=lambda a: (not _scope(a), -a.starts_on.toordinal(), a.pk))
    return applying_[0] if applying_ else None


def current_team_ids(person: User) -> set[int]:
    """From `current_memberships` when prefetched (as `people_overview` does)."""
    memberships = getattr(person, "current_memberships", None)
    if memberships is None:
        memberships = TeamMembership.objects.current().filter(person=person)
    return {m.team_id for m in memberships}


def skill_trends(
    *,
    viewer: User,
    people: list[User],
    today: date | None = None,
    charts: str = "sparkline",
    areas: list[FocusArea] | None = None,
    team_ids: dict[int, set[int]] | None = None,
) -> dict[int, SkillTrend]:
    """Each person's trend on their active focus area, keyed by person id. Four
    queries whatever the number of people: the focus areas, their teams, their
    criteria (none when `areas` come from `active_areas` already), the monthly
    averages. A person's current teams come from `team_ids`, else from their
    prefetched memberships. `charts`: "sparkline" (the team table), "chart" (the
    growth page: both lines) or "" (the API)."""
    today = today or timezone.localdate()
    teams_of = {
        person.pk: team_ids[person.pk] if team_ids is not None else current_team_ids(person)
        for person in people
    }
    if areas is None:
        areas = active_areas(today=today, team_ids=set().union(*teams_of.values()))
    months = month_starts(today)
    since = datetime.combine(months[0], time.min, tzinfo=timezone.get_current_timezone())
    chosen = {person.pk: area_for(teams_of[person.pk], areas) for person in people}
    averages = scorecards.monthly_averages(
        viewer=viewer,
        criteria={
            pk: [c.pk for c in area.criteria.all()] for pk, area in chosen.items() if area
        },
        since=since,
    ) if any(chosen.values()) else {}  # fmt: skip
    return {
        person.pk: _trend(person, chosen[person.pk], months, averages.get(person.pk), charts)
        for person in people
    }


def _trend(person, area, months, monthly, charts) -> SkillTrend:
    by_month = {m.month: m for m in monthly.months} if monthly else {}
    others = [by_month[m].others if m in by_month else None for m in months]
    own = [by_month[m].self if m in by_month else None for m in months]
    trend = SkillTrend(area, months, others, own, scale_max=monthly.scale_max if monthly else 4)
    trend.rows = [
        (month, o, s, None if o is None or s is None else round(s - o, 2))
        for month, o, s in zip(months, others, own, strict=True)
    ]
    trend.latest = next((v for v in reversed(others) if v is not None), None)
    for month in reversed(months):
        point = by_month.get(month)
        if point is not None and point.gap is not None:
            trend.gap, trend.gap_month = point.gap, month
            break
    if area is None or not trend.has_scores:
        return trend
    name = person.display_name
    if charts == "sparkline" and trend.latest is not None:
        trend.sparkline = sparkline(
            values=others,
            scale_max=trend.scale_max,
            label=f"{name}, {area.name}: others' monthly average, last {len(months)} months, "
            f"latest {trend.latest:g} of {trend.scale_max}",
        )
    elif charts == "chart":
        trend.chart = trend_chart(
            months=months,
            series=[
                Series("Coaches and peers", others, OTHERS_COLOUR),
                Series("Your own", own, SELF_COLOUR, dashed=True),
            ],
            scale_max=trend.scale_max,
            label=f"{area.name}: monthly average of your scores, 1 to {trend.scale_max}, "
            f"last {len(months)} months",
        )
    return trend
