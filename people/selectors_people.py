"""People as the programme admin's People pages and the API show them: a page of people
(searched by name or email, in one state: here, left, or everyone) with their manager
and appointments, and one person's record — manager and the history of the line,
direct reports, teams, teams led. A fixed number of queries whatever the sizes."""

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from core.paging import StateChoice

from .models import ReportingLine, Team, TeamMembership, User
from .roles import ROLE_FOR_GROUP, Role
from .welcome import link_expired, without_working_link

PEOPLE_PER_PAGE = 25
LINES_SHOWN = 10  # the most recent reporting lines on a person's page
REPORTS_SHOWN = 50  # direct reports named on a person's page; the count says the rest

# show= → (tab label, filter): the people in each state. "Never signed in" is who a
# welcome email is still for (an import adds people without sending one).
PEOPLE_STATES = {
    "": ("Here", Q(is_active=True)),
    "new": ("Never signed in", Q(is_active=True, last_login__isnull=True)),
    "left": ("Deactivated", Q(is_active=False)),
    "all": ("Everyone", Q()),
}


def people_listed(*, q: str = "", show: str = "") -> QuerySet[User]:
    """People in state `show` whose name or email holds `q`, by name, each with their
    manager and their groups (for `appointments_of`)."""
    people = User.objects.filter(PEOPLE_STATES[show][1])
    if q:
        people = people.filter(Q(display_name__icontains=q) | Q(email__icontains=q))
    return (
        people.select_related("reports_to")
        .prefetch_related("groups")
        .order_by("display_name", "pk")
    )


def people_page(*, q: str = "", show: str = "", page_number: int = 1) -> Page:
    """A page of `people_listed`, each person with their `appointments` and whether
    their latest welcome's link has expired (`welcome_expired`): count, page and groups,
    three queries. A page past the end shows the last one."""
    page = Paginator(people_listed(q=q, show=show), PEOPLE_PER_PAGE).get_page(page_number)
    page.object_list = list(page.object_list)
    now = timezone.now()
    for person in page.object_list:
        person.appointments = appointments_of(person)
        person.welcome_expired = link_expired(person, now)
    return page


def people_choices(show: str) -> list[StateChoice]:
    """Each state with how many people are in it (one query)."""
    counts = User.objects.aggregate(
        **{key or "here": Count("pk", filter=rule) for key, (_, rule) in PEOPLE_STATES.items()}
    )
    return [
        StateChoice(key, label, counts[key or "here"], key == show)
        for key, (label, _) in PEOPLE_STATES.items()
    ]


def welcome_due() -> QuerySet[User]:
    """Those here who never signed in and hold no welcome link that still works: whom
    "email them a welcome" emails."""
    return User.objects.filter(PEOPLE_STATES["new"][1]).filter(without_working_link())


def appointments_of(person: User) -> list[Role]:
    """The appointed roles (HR, programme admin) of someone read with their groups
    prefetched — no query."""
    held = {ROLE_FOR_GROUP.get(group.name) for group in person.groups.all()}
    return [role for role in ROLE_FOR_GROUP.values() if role in held]


@dataclass(frozen=True)
class PersonRecord:
    person: User
    appointments: list[Role]
    lines: list[ReportingLine]  # the most recent first, LINES_SHOWN at most
    reports: list[User]  # active direct reports by name, REPORTS_SHOWN at most
    reports_count: int
    memberships: list[TeamMembership]  # current, by team name
    teams_led: list[Team]


def person_record(*, pk: int) -> PersonRecord:
    """Everything the People page shows of one person (six queries). Http404 if there is
    nobody with that id."""
    person = get_object_or_404(
        User.objects.select_related("reports_to")
        .prefetch_related("groups")
        .annotate(reports_count=Count("direct_reports", filter=Q(direct_reports__is_active=True))),
        pk=pk,
    )
    lines = (
        ReportingLine.objects.filter(report=person)
        .select_related("manager")
        .order_by("-started_at", "-pk")[:LINES_SHOWN]
    )
    reports = User.objects.filter(reports_to=person, is_active=True).order_by("display_name", "pk")[
        :REPORTS_SHOWN
    ]
    memberships = (
        TeamMembership.objects.current()
        .filter(person=person)
        .select_related("team")
        .order_by("team__name", "team__pk")
    )
    return PersonRecord(
        person=person,
        appointments=appointments_of(person),
        lines=list(lines),
        reports=list(reports),
        reports_count=person.reports_count,
        memberships=list(memberships),
        teams_led=list(Team.objects.filter(lead=person).order_by("name", "pk")),
    )
