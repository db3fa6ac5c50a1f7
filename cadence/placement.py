"""Where a policy's plans go: each member's 1:1 in a distinct slot, spread over the
coach's working hours, never on the coach's or the member's other plans (1:1s, call
reviews, role-plays, manager reviews, peer plans) — and, when no such slot exists,
who could not be placed and why.

`policy_placement` is the read behind the preview on Team cadence (page and API) and
the very one `services.policy_apply` writes from, so what the preview shows is what
applying makes. `place` lays out any list of unsaved plans the same way (a member
joining a team that keeps a policy gets their 1:1 placed by it too).

Two plans clash when any of their sessions over the next `HORIZON` overlap, computed
from their rules in their own time zones (`recurrence.slots`): a monthly role-play on
the second Wednesday clashes with a weekly 1:1 at the same Wednesday hour, two
fortnightly plans in alternate weeks do not. A plan is laid at the policy's own day
and time when that is free. Otherwise it is **spread**: the first free time on that
day from the policy's time on, then earlier that day, then on the coach's next working
days likewise — on the half hour, inside everyone's working hours (their own setting
and zone: `cadence.availability.in_working_hours`), with a free half hour either side
of the coach's other sessions (`BREAK`) and no more than `COACH_DAY_LIMIT` 1:1s for
the coach in a day. Only when that finds nothing are those two eased: back to back
on a fuller day is better than no 1:1 at all.

Reads: the live plans that ends nothing — the people's team and pair memberships,
their live plans — a fixed number of queries whatever the size of the team."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta

from django.db.models import Q
from django.utils import timezone

from coaching.models import SessionKind
from peers.models import PairMember
from people.models import Team, TeamMembership, User

from . import policy_plans, recurrence
from .availability import LONGEST, STEP, in_working_hours
from .models import CadencePlan, CadencePolicy, PolicyAssignment, Weekday

HORIZON = timedelta(weeks=13)  # a quarter: monthly and every-n-weeks rules meet in it
# Spreading a coach's 1:1s: time to write up and breathe between sessions, and a day
# that is not all 1:1s (the coach has a job besides).
BREAK = STEP
COACH_DAY_LIMIT = 4


@dataclass(frozen=True)
class Placed:
    plan: CadencePlan  # unsaved; its weekday and local_time chosen
    who: str  # "Rita Rep's 1:1", "the team's call review"
    moved_because: str = ""  # why not at the policy's own day and time ("" when there)

    @property
    def when(self) -> str:
        return f"{Weekday(self.plan.weekday).label} {self.plan.local_time:%H:%M}"


@dataclass(frozen=True)
class Unplaced:
    who: str
    why: str


@dataclass(frozen=True)
class Placement:
    policy: CadencePolicy
    team: Team
    current: PolicyAssignment | None  # what the team keeps now
    placed: list[Placed] = field(default_factory=list)
    unplaced: list[Unplaced] = field(default_factory=list)
    ending: list[CadencePlan] = field(default_factory=list)  # another policy's, ended first

    @property
    def replacing(self) -> bool:
        return self.current is not None and self.current.policy_id != self.policy.pk

    @property
    def kept_already(self) -> bool:
        return self.current is not None and not self.replacing


def policy_placement(*, policy: CadencePolicy, team: Team, today=None) -> Placement:
    """What applying `policy` to `team` would do, nothing written: the plans it would
    make, each at its day and time (and why, when not the policy's), who could not be
    placed and why, and the plans of another policy the team keeps that would end
    first. Refusals as `policy_plans.policy_apply_check` (a ValidationError)."""
    current = policy_plans.policy_apply_check(policy=policy, team=team)
    replacing = current is not None and current.policy_id != policy.pk
    ending = (
        list(current.plans.live().select_related("coach", "coachee", "team").order_by("kind", "pk"))
        if replacing
        else []
    )
    keeping = current is not None and not replacing
    assignment = current if keeping else PolicyAssignment(policy=policy, team=team)
    members = policy_plans.team_members(team)
    wanted = policy_plans.plans_wanted(
        assignment, members=members, ending=[plan.pk for plan in ending]
    )
    placed, unplaced = place(
        wanted, team_members=members, ending=[p.pk for p in ending], today=today
    )
    for plan in ending:
        plan.words = plan_words(plan)
    return Placement(policy, team, current, placed, unplaced, ending)


# --- Laying plans out -----------------------------------------------------------------


class _Calendar:
    """Per person, their busy intervals over the horizon, sorted by start."""

    def __init__(self):
        self.busy: dict[int, list[tuple[datetime, datetime, str]]] = defaultdict(list)
        # (coach, weekday) → how many live 1:1s they run that day.
        self.coaching_days: Counter = Counter()

    def add(self, person_id: int, start: datetime, end: datetime, what: str) -> None:
        insort(self.busy[person_id], (start, end, what))

    def clash(self, person_id: int, start: datetime, end: datetime) -> str | None:
        """What of theirs overlaps [start, end), or None."""
        rows = self.busy.get(person_id, [])
        i = bisect_left(rows, (start - LONGEST,))
        while i < len(rows) and rows[i][0] < end:
            if rows[i][1] > start:
                return rows[i][2]
            i += 1
        return None


# A team's session after "the team's" or "East's".
TEAM_SESSION = {SessionKind.TEAM_CALL_REVIEW: "call review", SessionKind.ROLE_PLAY: "role-play"}


def plan_words(plan: CadencePlan) -> str:
    """A plan in words for whoever lays out plans (programme admins)."""
    if plan.kind in TEAM_SESSION:
        return f"{plan.team.name}'s {TEAM_SESSION[plan.kind]}"
    if plan.kind == SessionKind.MANAGER_REVIEW:
        return f"{plan.coachee.display_name}'s manager review with {plan.coach.display_name}"
    if plan.kind == SessionKind.PEER:
        return f"{plan.coach.display_name} and {plan.coachee.display_name}'s peer coaching"
    return f"{plan.coachee.display_name}'s 1:1 with {plan.coach.display_name}"


def _wanted_words(plan: CadencePlan) -> str:
    if plan.kind == SessionKind.ONE_ON_ONE:
        return f"{plan.coachee.display_name}'s 1:1"
    if plan.kind == SessionKind.MANAGER_REVIEW:
        return f"{plan.coachee.display_name}'s review with {plan.coach.display_name}"
    return f"the team's {TEAM_SESSION[plan.kind]}"


def _order(plan: CadencePlan) -> tuple:
    """The team's sessions first (everyone is in them), the lead's review, then the
    1:1s by the member's name."""
    rank = {
        SessionKind.TEAM_CALL_REVIEW: 0,
        SessionKind.ROLE_PLAY: 1,
        SessionKind.MANAGER_REVIEW: 2,
    }
    name = plan.coachee.display_name if plan.coachee_id else ""
    return rank.get(plan.kind, 3), name, plan.coachee_id or 0


def place(
    plans: list[CadencePlan],
    *,
    team_members: list[User],
    ending: list[int] = (),
    today=None,
) -> tuple[list[Placed], list[Unplaced]]:
    """Lay out unsaved `plans` (their day and time set from the policy): each where
    none of its people has another plan then (their live plans but `ending`, and those
    placed before it here), inside everyone's working hours. Returns the placed ones
    (their weekday and local_time set) and those that fit nowhere, with why."""
    if not plans:
        return [], []
    today = today or timezone.localdate()
    since = datetime.combine(today, time(), tzinfo=UTC)
    until = since + HORIZON
    attendees = {}
    for plan in plans:
        people = [plan.coach] + ([plan.coachee] if plan.coachee_id else list(team_members))
        attendees[id(plan)] = list({p.pk: p for p in people}.values())
    calendar = _busy_calendar(
        {p.pk for people in attendees.values() for p in people}, ending, since, until
    )
    placed, unplaced = [], []
    for plan in sorted(plans, key=_order):
        people = attendees[id(plan)]
        who = _wanted_words(plan)
        first = _refusal(plan, people, calendar, since, until)
        spot = None if first else (plan.weekday, plan.local_time)
        for spread in (True, False):
            if spot is not None:
                break
            spot = next(
                (
                    (day, at)
                    for day, at in _candidates(plan)
                    if not _refusal(_at(plan, day, at), people, calendar, since, until)
                    and (not spread or _spread(_at(plan, day, at), calendar, since, until))
                ),
                None,
            )
        if spot is None:
            unplaced.append(
                Unplaced(
                    who,
                    f"{first}; and no other {plan.duration_minutes}-minute time in the week is "
                    f"free for {_names(people)} within their working hours.",
                )
            )
            continue
        plan.weekday, plan.local_time = spot
        for start in _starts(plan, since, until):
            for person in people:
                calendar.add(person.pk, start, start + _length(plan), who)
        if plan.kind == SessionKind.ONE_ON_ONE:
            calendar.coaching_days[plan.coach_id, plan.weekday] += 1
        placed.append(Placed(plan, who, first or ""))
    return placed, unplaced


def _names(people: list[User]) -> str:
    names = [p.display_name for p in people]
    if len(names) > 3:
        return f"{', '.join(names[:2])} and {len(names) - 2} others"
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def _length(plan: CadencePlan) -> timedelta:
    return timedelta(minutes=plan.duration_minutes)


def _at(plan: CadencePlan, weekday: int, at: time) -> CadencePlan:
    moved = CadencePlan(**{f.attname: getattr(plan, f.attname) for f in plan._meta.concrete_fields})
    moved.weekday, moved.local_time = weekday, at
    return moved


def _starts(plan: CadencePlan, since: datetime, until: datetime) -> list[datetime]:
    return recurrence.slots(recurrence.Rule.of(plan), since, until)


def _refusal(plan, people, calendar: _Calendar, since, until) -> str:
    """Why `plan` at its day and time does not fit, in words, or ""."""
    when = f"{Weekday(plan.weekday).label} {plan.local_time:%H:%M}"
    starts = _starts(plan, since, until)
    length = _length(plan)
    for person in people:  # working hours first: no clash matters outside them
        if not all(in_working_hours(person, start, start + length) for start in starts):
            return f"{when} is outside {person.display_name}'s working hours"
    for start in starts:
        for person in people:
            taken = calendar.clash(person.pk, start, start + length)
            if taken:
                return f"{when} clashes with {taken}"
    return ""


def _spread(plan: CadencePlan, calendar: _Calendar, since, until) -> bool:
    """Whether a 1:1 at its day and time leaves the coach a `BREAK` either side of
    their other sessions and keeps their day under `COACH_DAY_LIMIT` 1:1s."""
    if plan.kind != SessionKind.ONE_ON_ONE:
        return True
    if calendar.coaching_days[plan.coach_id, plan.weekday] >= COACH_DAY_LIMIT:
        return False
    length = _length(plan)
    return not any(
        calendar.clash(plan.coach_id, start - BREAK, start + length + BREAK)
        for start in _starts(plan, since, until)
    )


def _candidates(plan: CadencePlan) -> Iterator[tuple[int, time]]:
    """Day and time to try, on the half hour: the policy's day from its time on, then
    earlier that day; then each of the coach's following working days (wrapping round
    the week) the same way, so 1:1s keep near the time of day the policy asked for."""
    coach = plan.coach
    length = _length(plan)

    def times(day_from: time, day_to: time) -> Iterator[time]:
        day = datetime.min.date()
        at = datetime.combine(day, day_from)
        while (at + length).date() == day and (at + length).time() <= day_to:
            yield at.time()
            at += STEP

    later = max(plan.local_time, coach.work_starts)
    for k in range(7):
        day = (plan.weekday + k) % 7
        if day in coach.working_weekdays:
            yield from ((day, at) for at in times(later, coach.work_ends))
            yield from ((day, at) for at in times(coach.work_starts, coach.work_ends) if at < later)


def _busy_calendar(person_ids: set[int], ending: list[int], since, until) -> _Calendar:
    """The people's live plans (but `ending`) as busy intervals: those they run or are
    coached in, their teams' sessions, their pairs'. Three queries."""
    teams: dict[int, set[int]] = defaultdict(set)
    for team_id, person_id in (
        TeamMembership.objects.current()
        .filter(person_id__in=person_ids)
        .values_list("team_id", "person_id")
    ):
        teams[team_id].add(person_id)
    pairs: dict[int, set[int]] = defaultdict(set)
    for pair_id, person_id in PairMember.objects.filter(
        person_id__in=person_ids, left_at__isnull=True
    ).values_list("pair_id", "person_id"):
        pairs[pair_id].add(person_id)
    plans = (
        CadencePlan.objects.live()
        .filter(
            Q(coach_id__in=person_ids)
            | Q(coachee_id__in=person_ids)
            | Q(team_id__in=list(teams), coachee__isnull=True)
            | Q(pair_id__in=list(pairs))
        )
        .exclude(pk__in=list(ending))
        .select_related("coach", "coachee", "team")
    )
    calendar = _Calendar()
    for plan in plans:
        involved = {plan.coach_id, plan.coachee_id} | teams.get(plan.team_id, set())
        involved |= pairs.get(plan.pair_id, set())
        involved &= person_ids
        if not involved:
            continue
        what = plan_words(plan)
        for start in _starts(plan, since, until):
            for person_id in involved:
                calendar.add(person_id, start, start + _length(plan), what)
        if plan.kind == SessionKind.ONE_ON_ONE:
            calendar.coaching_days[plan.coach_id, plan.weekday] += 1
    return calendar


def clashes_of(*, plan: CadencePlan, today=None) -> list[str]:
    """The other live plans of `plan`'s people (coach, coachee, team members, pair
    members) that its sessions overlap over the next `HORIZON`, in words: what a plan
    moved or restarted onto a clash is warned of. Five queries."""
    today = today or timezone.localdate()
    since = datetime.combine(today, time(), tzinfo=UTC)
    until = since + HORIZON
    people = {plan.coach_id, plan.coachee_id} - {None}
    if plan.team_id:
        people |= set(
            TeamMembership.objects.current()
            .filter(team_id=plan.team_id)
            .values_list("person_id", flat=True)
        )
    if plan.pair_id:
        people |= set(
            PairMember.objects.filter(pair_id=plan.pair_id, left_at__isnull=True).values_list(
                "person_id", flat=True
            )
        )
    calendar = _busy_calendar(people, [plan.pk], since, until)
    found: list[str] = []
    for start in _starts(plan, since, until):
        for person_id in people:
            what = calendar.clash(person_id, start, start + _length(plan))
            if what and what not in found:
                found.append(what)
    return found
