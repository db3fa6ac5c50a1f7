"""Reads about people that carry rules: management chains, who is below whom, roles.

The reporting tree is walked with one recursive CTE, so a chain of any depth costs
one query. UNION (not UNION ALL) stops at a person already seen, so even a cycle
slipped in by hand cannot make the walk run forever. The walk down and up lives on
`User.objects` (`people.models`), where other apps' models read it without importing
selectors; the functions here offer it to everyone else."""

from collections.abc import Iterable

from django.db import connection
from django.db.models import BooleanField, Exists, OuterRef, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.http import Http404

from .models import (  # noqa: F401 - these are offered from here too
    LARGE_SCOPE_FROM,
    Team,
    TeamMembership,
    User,
    _below_sql,
    _up_walk,
    is_below,
    roles_of,
)
from .roles import GROUP_FOR_ROLE, Role

# The only text interpolated into these statements is our own quoted table name;
# every value is a bound parameter.
_USER_TABLE = User._meta.db_table


def ids_below(*, person: User | int) -> RawSQL:
    """The ids of everyone below `person`, as a subquery (`User.objects.ids_below`)."""
    return User.objects.ids_below(person)


def list_ids_below(*, person: User | int) -> list[int]:
    """The ids of everyone below `person`, read now (`User.objects.list_ids_below`)."""
    return User.objects.list_ids_below(person)


def has_active_reports() -> Exists:
    """The person (the outer row) has active direct reports: a manager."""
    return Exists(User.objects.filter(reports_to=OuterRef("pk"), is_active=True))


def people_below(*, person: User | int) -> QuerySet[User]:
    """Everyone who reports to `person`, directly or indirectly (`User.objects.below`)."""
    return User.objects.below(person)


def management_chain(*, person: User | int) -> list[User]:
    """The person's managers from the direct manager upward (one query)."""
    pk = person.pk if isinstance(person, User) else person
    table = connection.ops.quote_name(_USER_TABLE)
    sql = (
        "WITH RECURSIVE chain(id, manager_id, depth) AS ("
        f" SELECT id, reports_to_id, 0 FROM {table} WHERE id = %s"
        " UNION SELECT u.id, u.reports_to_id, c.depth + 1"
        f" FROM {table} u JOIN chain c ON u.id = c.manager_id WHERE c.depth < 100"
        f") SELECT u.* FROM {table} u JOIN chain c ON u.id = c.id"
        " WHERE c.depth > 0 ORDER BY c.depth"
    )
    return list(User.objects.raw(sql, [pk]))


def managers_above(*, people: Iterable[int]) -> dict[int, set[int]]:
    """For each of `people` (ids), the ids of everyone above them in the reporting
    line, in one query (`User.objects.managers_above`)."""
    return User.objects.managers_above(people)


def _is_above() -> str:
    """EXISTS: the person of the first parameter has the manager of the second
    somewhere above them. Walked upward, one primary-key lookup a level — a chain is
    a handful of people, while walking down from someone high up reads everyone below
    them (the head of 10,000 people; bench/routes.py). The same edges as
    `people_below`, so it holds for (p, m) exactly when p is in `people_below(m)`;
    the walk is `managers_above`'s."""
    return f"EXISTS ({_up_walk(1)} SELECT 1 FROM up WHERE manager_id = %s)"


def _has_above(person: User | int, manager: User | int) -> RawSQL:
    """`_is_above` as a condition for `.filter()`."""
    ids = [p.pk if isinstance(p, User) else p for p in (person, manager)]
    return RawSQL(_is_above(), ids, output_field=BooleanField())  # noqa: S611


def is_in_management_chain(*, manager: User, person: User | int) -> bool:
    """True when `manager` is above `person` in the reporting line (one query)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {_is_above()}",
            [person.pk if isinstance(person, User) else person, manager.pk],
        )
        return bool(cursor.fetchone()[0])


def programme_admin_exists() -> bool:
    """Whether anyone active runs the programme: until someone does, the server's
    superuser is offered the role (`people.views.first_programme_admin`)."""
    return User.objects.filter(
        is_active=True, groups__name=GROUP_FOR_ROLE[Role.PROGRAMME_ADMIN]
    ).exists()


def direct_reports(*, manager: User) -> QuerySet[User]:
    """Active direct reports with their current teams and the teams they lead
    prefetched (3 queries)."""
    return (
        User.objects.filter(reports_to=manager, is_active=True)
        .prefetch_related(_current_teams_prefetch(), "led_teams")
        .order_by("display_name")
    )


def current_teams(*, person: User) -> QuerySet[Team]:
    return Team.objects.filter(
        memberships__person=person, memberships__left_at__isnull=True
    ).select_related("lead")


def own_team(*, person: User) -> Q:
    """A filter on people: `person`'s own team, whom pickers offer first — the people
    of the teams they are on now or lead (members now and the lead), and in the
    reporting line their manager, those who share that manager and their direct
    reports; never `person`. As subqueries, so someone on two of the teams is one row."""
    teams = Team.objects.filter(
        Q(pk__in=TeamMembership.objects.current().filter(person=person).values("team_id"))
        | Q(lead=person)
    ).values("pk")
    members = TeamMembership.objects.current().filter(team__in=teams).values("person_id")
    leads = Team.objects.filter(pk__in=teams, lead__isnull=False).values("lead_id")
    line = Q(reports_to=person.pk)
    if person.reports_to_id is not None:
        line |= Q(pk=person.reports_to_id) | Q(reports_to=person.reports_to_id)
    return (Q(pk__in=members) | Q(pk__in=leads) | line) & ~Q(pk=person.pk)


def _current_teams_prefetch():
    from django.db.models import Prefetch

    return Prefetch(
        "memberships",
        queryset=TeamMembership.objects.current().select_related("team"),
        to_attr="current_memberships",
    )


def leads_or_above(*, user: User, team: Team) -> bool:
    """`user` leads `team`, or is above its lead (a team without a lead: nobody)."""
    if team.lead_id is None:
        return False
    return team.lead_id == user.pk or is_in_management_chain(manager=user, person=team.lead_id)


def active_below(*, manager: User, pk: int) -> QuerySet[User]:
    """The active person `pk` if they are below `manager` (walked up from them: see
    `_is_above`), else nothing."""
    return User.objects.filter(_has_above(pk, manager), pk=pk, is_active=True)


def access_person(*, user: User, pk: int) -> User:
    """A person `user` may look at: themselves or someone below them. Else 404."""
    if pk == user.pk:
        return user
    try:
        return active_below(manager=user, pk=pk).get()
    except User.DoesNotExist:
        raise Http404 from None
