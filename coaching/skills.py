"""Skill trends and team distributions, read through the focus areas that say which
scorecard criteria matter now. Composes `scorecards.selectors` (which knows nothing
of focus areas) with the focus areas that apply to a person or a team."""

from dataclasses import dataclass, field, replace
from datetime import date, datetime, time

from django.db.models import Max, Q
from django.http import Http404
from django.utils import timezone

from people.models import Team, TeamMembership, User
from people.roles import Role
from people.selectors import leads_or_above
from scorecards import selectors as scorecards
from scorecards.charts import OTHERS_COLOUR, SELF_COLOUR, Series, distribution_bar, trend_chart
from scorecards.models import CriterionVersion

from .models import FocusArea

# Aggregates over fewer people than this are never shown to HR or programme admins.
K_ANONYMITY = 5


@dataclass
class Trend:
    """One criterion lineage over months, with its chart."""

    data: scorecards.CriterionTrend
    scale_max: int
    chart: str = ""

    @property
    def latest_gap(self) -> float | None:
        gaps = [p.gap for p in self.data.points if p.gap is not None]
        return gaps[-1] if gaps else None


@dataclass
class FocusSection:
    area: FocusArea
    trends: list[Trend] = field(default_factory=list)


def _scales(lineages: set[int]) -> dict[int, int]:
    rows = (
        CriterionVersion.objects.filter(criterion_id__in=lineages)
        .values("criterion_id")
        .annotate(top=Max("scale_max"))
    )
    return {row["criterion_id"]: row["top"] for row in rows}


def _with_charts(trends, person: User, scales: dict[int, int]) -> list[Trend]:
    shown = []
    for data in trends:
        scale = scales.get(data.criterion_id, 4)
        months = [p.month for p in data.points]
        chart = trend_chart(
            months=months,
            series=[
                Series("Coaches and peers", [p.others for p in data.points], OTHERS_COLOUR),
                Series(
                    f"{person.get_short_name()}'s own", [p.self for p in data.points], SELF_COLOUR,
                    dashed=True,
                ),
            ],
            scale_max=scale,
            label=f"{data.title}: monthly average, 1 to {scale}",
        )  # fmt: skip
        shown.append(Trend(data, scale, chart))
    return shown


def _start_of(day: date, person: User) -> datetime:
    return datetime.combine(day, time.min, tzinfo=person.tzinfo)


def skill_overview(*, viewer: User, person: User, today: date) -> dict:
    """The person's trends: first those of the criteria that measure their current
    focus areas (with the change since each focus area started), then the rest.
    Only the scores `viewer` may see count (self-assessment first, as everywhere).
    A fixed number of queries, whatever the number of focus areas: the trends, the
    changes since each area started and the scales are each read once for all."""
    areas = list(FocusArea.objects.active_on(today).for_person(person).prefetch_related("criteria"))
    windows = {
        area.pk: (_start_of(area.starts_on, person), [c.pk for c in area.criteria.all()])
        for area in areas
        if area.criteria.all()
    }
    trends = scorecards.person_trends(viewer=viewer, person=person)
    changes = (
        scorecards.trend_changes(viewer=viewer, person=person, windows=windows) if trends else {}
    )
    scales = _scales({t.criterion_id for t in trends})
    sections, in_focus = [], set()
    for area in areas:
        if area.pk not in windows:
            continue
        lineages = set(windows[area.pk][1])
        shown = [
            replace(t, change_since=changes.get((area.pk, t.criterion_id)))
            for t in trends
            if t.criterion_id in lineages
        ]
        sections.append(FocusSection(area, _with_charts(shown, person, scales)))
        in_focus |= lineages
    rest = [t for t in trends if t.criterion_id not in in_focus]
    return {
        "focus_sections": sections,
        "focus_without_criteria": [a for a in areas if not a.criteria.all()],
        "other_trends": _with_charts(rest, person, scales),
    }


# --- Teams ----------------------------------------------------------------------------------


def access_team_skills(*, user: User, roles, pk: int) -> tuple[Team, bool]:
    """The team's lead and the people above the lead see its distributions; HR and
    programme admins too, anonymised (only for groups of K_ANONYMITY or more).
    Returns the team and whether to anonymise."""
    team = Team.objects.select_related("lead").filter(pk=pk).first()
    if team is None:
        raise Http404
    if leads_or_above(user=user, team=team):
        return team, False
    if {Role.HR, Role.PROGRAMME_ADMIN} & set(roles):
        return team, True
    raise Http404


@dataclass
class TeamDistribution:
    area: FocusArea
    rows: list  # (scorecards.Distribution, chart)
    suppressed: bool = False


def team_distributions(*, team: Team, today: date, anonymise: bool) -> dict:
    """How the team's scores spread over the levels on each criterion of its current
    focus areas, since each focus area started. `anonymise`: suppress groups smaller
    than K_ANONYMITY (for HR and programme admins)."""
    members = list(
        TeamMembership.objects.current()
        .filter(team=team, person__is_active=True)
        .exclude(person_id=team.lead_id)
        .values_list("person_id", flat=True)
    )
    areas = list(
        FocusArea.objects.active_on(today)
        .filter(Q(teams__isnull=True) | Q(teams=team))
        .distinct()
        .prefetch_related("criteria")
    )
    too_few = anonymise and len(members) < K_ANONYMITY
    windows = {
        area.pk: (
            timezone.make_aware(datetime.combine(area.starts_on, time.min)),
            [c.pk for c in area.criteria.all()],
        )
        for area in areas
        if area.criteria.all()
    }
    # Every area's spread in one aggregate query (and the scales in one), not per area.
    by_area, scales = {}, {}
    if windows and not too_few:
        by_area = scorecards.team_distribution_windows(people=members, windows=windows)
        scales = _scales({pk for _, lineages in windows.values() for pk in lineages})
    result = []
    for area in areas:
        if area.pk not in windows:
            continue
        if too_few:
            result.append(TeamDistribution(area, [], suppressed=True))
            continue
        dists = by_area[area.pk]
        rows = [
            (
                dist,
                distribution_bar(
                    counts=dist.counts,
                    scale_max=scales.get(dist.criterion_id, 4),
                    label=f"{dist.title}: how {dist.total} scores spread over the levels",
                ),
                [
                    (level, dist.counts.get(level, 0))
                    for level in range(1, scales.get(dist.criterion_id, 4) + 1)
                ],
            )
            for dist in dists
        ]
        result.append(TeamDistribution(area, rows))
    return {"distributions": result, "member_count": len(members), "k": K_ANONYMITY}
