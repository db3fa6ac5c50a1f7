"""Reads of install plans. Whose a person may see is `RolloutQuerySet.team_scope`
(the lead, the people above the lead, HR and programme admins); a team outside it is
404. Lists cost a fixed number of queries whatever the number of teams."""

from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from django.core.paginator import Page, Paginator
from django.db.models import Q
from django.http import Http404
from django.utils import timezone

from core.slots import slot_start
from people.models import Team, User
from people.roles import Role
from people.selectors import people_below, roles_of

from . import rules
from .models import Rollout, RolloutQuerySet
from .rollout import Progress, kept_evidence, progress_for


def teams_in_scope(*, user: User):
    """The teams whose install plan `user` may see, with lead and rollout (one query)."""
    if not (user and user.is_authenticated and user.is_active):
        return Team.objects.none()
    return Team.objects.filter(RolloutQuerySet.team_scope(user)).select_related("lead", "rollout")


def rollouts(*, user: User):
    """The rollouts `user` may see, with their teams, newest start first."""
    return (
        Rollout.objects.visible_to(user)
        .select_related("team", "team__lead")
        .order_by("-starts_on", "team__name", "pk")
    )


def _rollout_of(team: Team) -> Rollout | None:
    try:
        return team.rollout
    except Rollout.DoesNotExist:
        return None


@dataclass
class TeamRollout:
    team: Team
    rollout: Rollout | None
    progress: Progress | None
    may_start: bool
    may_tick: bool


def _team_in_scope_or_404(*, user: User, pk: int) -> Team:
    """A team whose install plan `user` may see; else 404."""
    team = teams_in_scope(user=user).filter(pk=pk).first()
    if team is None:
        raise Http404
    return team


def team_rollout(*, user: User, pk: int, today: date | None = None) -> TeamRollout:
    """A team's install plan as `user` sees it, or 404."""
    team = _team_in_scope_or_404(user=user, pk=pk)
    rollout = _rollout_of(team)
    progress = None
    if rollout is not None:
        rollout.team = team
        progress = progress_for([rollout], today=today)[rollout.pk]
    return TeamRollout(
        team=team,
        rollout=rollout,
        progress=progress,
        may_start=rollout is None and rules.may_start_rollout(user, team),
        may_tick=rollout is not None and rules.may_tick_rollout(user, rollout),
    )


@dataclass
class OverviewRow:
    team: Team
    progress: Progress | None  # None: not started

    @property
    def started(self) -> bool:
        return self.progress is not None

    @property
    def finished(self) -> bool:
        return self.progress is not None and self.progress.finished

    @property
    def behind(self) -> bool:
        return self.progress is not None and bool(self.progress.overdue_count)


# What the overview can be narrowed to ("" is every team): a label and a test of a row.
SHOWING = {
    "": ("All", lambda row: True),
    "behind": ("Something overdue", lambda row: row.behind),
    "under_way": ("Under way", lambda row: row.started and not row.finished),
    "in_place": ("Everything in place", lambda row: row.finished),
    "not_started": ("Not started", lambda row: not row.started),
}
TEAMS_PER_PAGE = 50


@dataclass
class Overview:
    rows: list[OverviewRow]
    # The refresh slot the checklists' evidence is of (`rollout.kept_evidence`); None
    # when no team has started.
    as_of: datetime | None = None
    # The teams not started that the reader may start (`rules.may_start_rollout`, as a set).
    startable: frozenset[int] = frozenset()

    @property
    def started(self) -> int:
        return sum(1 for r in self.rows if r.started)

    @property
    def finished(self) -> int:
        return sum(1 for r in self.rows if r.finished)

    @property
    def behind(self) -> int:
        return sum(1 for r in self.rows if r.behind)

    def choices(self, current: str) -> list[dict]:
        """Each `SHOWING` choice with how many teams it holds, the current one marked."""
        return [
            {"key": key, "label": label, "count": sum(1 for r in self.rows if test(r)),
             "current": key == current}
            for key, (label, test) in SHOWING.items()
        ]  # fmt: skip

    def page(self, show: str, number) -> Page:
        """The page asked for of the teams `show` holds, TEAMS_PER_PAGE long (past the
        last page, the last; not a number, the first)."""
        test = SHOWING[show][1]
        return Paginator([r for r in self.rows if test(r)], TEAMS_PER_PAGE).get_page(number)


def overview(
    *, user: User, roles: frozenset[Role] | None = None, today: date | None = None
) -> Overview:
    """Every team in `user`'s scope with its progress, by name: a fixed number of
    queries however many teams there are, the evidence kept per refresh slot."""
    found = _overview(teams_in_scope(user=user), today=today, tz=timezone.get_current_timezone())
    roles = roles_of(user) if roles is None else roles
    found.startable = _startable(user=user, roles=roles, rows=found.rows)
    return found


def _startable(*, user: User, roles: frozenset[Role], rows: list[OverviewRow]) -> frozenset[int]:
    """`rules.may_start_rollout` for every team not started, in one query at most: a
    programme admin starts any; anyone else the teams they or someone below them lead."""
    waiting = [row.team.pk for row in rows if not row.started]
    if not waiting:
        return frozenset()
    if Role.PROGRAMME_ADMIN in roles:
        return frozenset(waiting)
    led = Q(lead=user) | Q(lead__in=people_below(person=user).values("pk"))
    return frozenset(Team.objects.filter(led, pk__in=waiting).values_list("pk", flat=True))


def organisation_overview(*, tz: tzinfo, now: datetime | None = None) -> Overview:
    """Every team's progress, as HR and programme admins see it, as of the refresh slot
    `now` falls in (for cadence health, computed without a reader). Kept in the cache
    with HR's snapshot, so each lead is read as their name alone: not their whole row,
    password hash and all."""
    teams = Team.objects.select_related("lead", "rollout").only(
        *(f.name for f in Team._meta.concrete_fields),
        "lead__display_name",
        *(f"rollout__{f.name}" for f in Rollout._meta.concrete_fields),
    )
    today = slot_start(now).astimezone(tz).date()
    return _overview(teams, today=today, tz=tz, now=now)


def _overview(teams, *, today: date | None, tz: tzinfo, now: datetime | None = None) -> Overview:
    today = today or timezone.localdate()
    teams = list(teams.order_by("name", "pk"))
    started = []
    for team in teams:
        rollout = _rollout_of(team)
        if rollout is not None:
            rollout.team = team
            started.append(rollout)
    kept = kept_evidence(tz=tz, now=now) if started else None
    progress = progress_for(started, today=today, evidence=kept.evidence if kept else None)
    return Overview(
        rows=[
            OverviewRow(
                team=t,
                progress=progress.get(r.pk) if (r := _rollout_of(t)) is not None else None,
            )
            for t in teams
        ],
        as_of=kept.as_of if kept else None,
    )
