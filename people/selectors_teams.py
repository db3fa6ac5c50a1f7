"""Teams as the programme admin's Teams pages and the API show them: a page of teams
(searched by name) with their lead and how many are in each now, and one team with its
current members and those who left. A fixed number of queries whatever the sizes."""

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404

from .models import Team, TeamMembership, User

TEAMS_PER_PAGE = 25
LEFT_SHOWN = 10  # the most recent leavers on a team's page


def teams_listed(*, q: str = "") -> QuerySet[Team]:
    """Teams whose name holds `q`, by name, each with its lead and `members_now` (those
    on it who are still here: someone deactivated keeps their place, for when they come
    back, but is not counted)."""
    teams = Team.objects.all()
    if q:
        teams = teams.filter(name__icontains=q)
    return (
        teams.select_related("lead")
        .annotate(
            members_now=Count(
                "memberships",
                filter=Q(memberships__left_at__isnull=True, memberships__person__is_active=True),
            )
        )
        .order_by("name", "pk")
    )


def teams_page(*, q: str = "", page_number: int = 1) -> Page:
    """A page of `teams_listed`: the count and the page, two queries. A page past the
    end shows the last one."""
    page = Paginator(teams_listed(q=q), TEAMS_PER_PAGE).get_page(page_number)
    page.object_list = list(page.object_list)
    return page


def team_with_members(*, pk: int) -> Team:
    """One team with its lead and `current` memberships (people by name): two queries.
    Http404 if there is none."""
    current = (
        TeamMembership.objects.current()
        .select_related("person")
        .order_by("person__display_name", "person__pk")
    )
    return get_object_or_404(
        teams_listed().prefetch_related(Prefetch("memberships", current, to_attr="current")),
        pk=pk,
    )


@dataclass(frozen=True)
class Left:
    person: User
    joined_at: object
    left_at: object


def team_leavers(team: Team) -> list[Left]:
    """The most recent LEFT_SHOWN who left the team (one query)."""
    rows = (
        TeamMembership.objects.filter(team=team, left_at__isnull=False)
        .select_related("person")
        .order_by("-left_at", "-pk")[:LEFT_SHOWN]
    )
    return [Left(m.person, m.joined_at, m.left_at) for m in rows]
