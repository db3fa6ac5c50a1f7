"""Cadence policies as the programme admin's Team cadence page shows them: each policy
in words with how many teams keep it, and every team — a page at a time — with the
policy it keeps (or none). A fixed number of queries whatever the number of teams."""

from collections import defaultdict
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, Exists, OuterRef, Prefetch, Q, Subquery, Value, When

from coaching.models import SessionKind
from core.paging import StateChoice
from people.models import Team, TeamMembership

from . import policy_plans
from .models import PLANNED_KINDS, CadencePlan, CadencePolicy, PolicyAssignment, PolicyItem
from .placement import plan_words
from .selectors import describe_rule
from .services_policies import KIND_NAMES

TEAMS_PER_PAGE = 25


def items_in_order() -> Prefetch:
    """A policy's items in the programme's order: 1:1, call review, role-play, manager
    review."""
    order = Case(*[When(kind=kind, then=Value(i)) for i, (kind, _) in enumerate(PLANNED_KINDS)])
    return Prefetch("items", queryset=PolicyItem.objects.order_by(order))


_LIVE = PolicyAssignment.objects.filter(team=OuterRef("pk"), ended_at__isnull=True)
TEAM_STATES = {
    "": ("All teams", Q()),
    "without": ("Without a policy", ~Exists(_LIVE)),
    "with": ("With a policy", Exists(_LIVE)),
}


def policies_with_items() -> list[CadencePolicy]:
    """Every policy, its items in words (`rule_text`) and how many teams keep it now
    (two queries)."""
    policies = list(
        CadencePolicy.objects.annotate(
            teams_now=Count("assignments", filter=Q(assignments__ended_at__isnull=True))
        ).prefetch_related(items_in_order())
    )
    for policy in policies:
        for item in policy.items.all():
            item.rule_text = describe_rule(item, time_zone="")
            item.kind_name = KIND_NAMES[item.kind]
    return policies


def team_choices(show: str) -> list[StateChoice]:
    """Each state with how many teams are in it (one query)."""
    counts = Team.objects.aggregate(
        **{key or "all": Count("pk", filter=rule) for key, (_, rule) in TEAM_STATES.items()}
    )
    return [
        StateChoice(key, label, counts[key or "all"], key == show)
        for key, (label, _) in TEAM_STATES.items()
    ]


@dataclass(frozen=True)
class Kept:
    assignment_id: int
    policy_id: int
    policy_name: str
    applied_at: object
    plans: int = 0  # the live plans it made
    changed: int = 0  # of them, those that no longer say what the policy says


def teams_with_policy(show: str = ""):
    """Teams in one state, by name, each with its lead (and the lead's manager) and the
    live assignment's id, policy id and name and start (`assignment_id`,
    `kept_policy_id`, `kept_policy_name`, `kept_since`; None without one) — one query."""
    return (
        Team.objects.filter(TEAM_STATES[show][1])
        .select_related("lead__reports_to")
        .annotate(
            assignment_id=Subquery(_LIVE.values("pk")[:1]),
            kept_policy_id=Subquery(_LIVE.values("policy_id")[:1]),
            kept_policy_name=Subquery(_LIVE.values("policy__name")[:1]),
            kept_since=Subquery(_LIVE.values("applied_at")[:1]),
        )
        .order_by("name", "pk")
    )


def needs_lead(team) -> bool:
    """The team can keep no cadence now: it has no lead, or its lead is deactivated
    (`policy_plans.lead_left`; `policy_apply_check` refuses either). No query with the
    lead selected (`teams_with_policy`)."""
    return team.lead_id is None or policy_plans.lead_left(team)


def policy_teams_page(*, show: str = "", page_number: int = 1) -> Page:
    """A page of `teams_with_policy`, each with `kept` (the live assignment, or
    None), `missing` (`note_plans_missing`) and `lead_left` (why it needs a new lead,
    in words, when its lead is deactivated; else ""): the count and the page, two queries,
    and those of `_plans_changed` and `plans_missing`. A page past
    the end shows the last."""
    page = Paginator(teams_with_policy(show), TEAMS_PER_PAGE).get_page(page_number)
    page.object_list = list(page.object_list)
    counts = _plans_changed([t.assignment_id for t in page.object_list if t.assignment_id])
    note_plans_missing(page.object_list)
    for team in page.object_list:
        team.lead_left = policy_plans.lead_left_reason(team) if policy_plans.lead_left(team) else ""
        team.kept = (
            Kept(
                team.assignment_id,
                team.kept_policy_id,
                team.kept_policy_name,
                team.kept_since,
                *counts.get(team.assignment_id, (0, 0)),
            )
            if team.assignment_id
            else None
        )
    return page


MISSING_NAMED = 5  # more than this many missing plans: the first few named, then "and n more"


@dataclass(frozen=True)
class Missing:
    """The plans a team's policy makes that the team lacks, each in words, in the
    programme's order: the 1:1s by member's name, the team's sessions, the lead's
    review."""

    plans: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.plans)

    def __str__(self) -> str:
        named = ", ".join(self.plans)
        if self.count > MISSING_NAMED:
            rest = self.count - (MISSING_NAMED - 1)
            named = f"{', '.join(self.plans[: MISSING_NAMED - 1])} and {rest} more"
        return f"{self.count} plan{'s' * (self.count != 1)} missing: {named}"


_TEAM_SESSION_WORDS = {
    SessionKind.TEAM_CALL_REVIEW: "the team's call review",
    SessionKind.ROLE_PLAY: "the team's role-play",
}


def plans_missing(teams) -> dict[int, Missing]:
    """Per team keeping a policy (`teams_with_policy` rows, their lead loaded), the
    plans applying that policy again would make — the answer of
    `policy_plans._plans_missing` (which `policy_apply_check` asks one team at a time),
    for a page of teams at once: a 1:1 with the lead for each current, active member
    who lacks a live one, each team session the policy has and the team lacks, the
    lead's review with their manager — none with someone deactivated (a lead who left
    runs nothing until the team has a new one). Teams missing nothing are left out; a
    test holds the two to the same answer. Three queries (the policies' kinds, the members, the
    live plans) whatever the number of teams; none when no team keeps a policy."""
    keeping = [t for t in teams if t.kept_policy_id and not needs_lead(t)]
    if not keeping:
        return {}
    kinds: dict[int, set[str]] = defaultdict(set)
    for policy_id, kind in PolicyItem.objects.filter(
        policy_id__in={t.kept_policy_id for t in keeping}
    ).values_list("policy_id", "kind"):
        kinds[policy_id].add(kind)
    members: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for team_id, person_id, name in (
        TeamMembership.objects.current()
        .filter(team_id__in=[t.pk for t in keeping], person__is_active=True)
        .order_by("person__display_name", "person_id")
        .values_list("team_id", "person_id", "person__display_name")
    ):
        members[team_id].append((person_id, name))
    key = policy_plans.plan_key  # what the database keeps one live plan of, as the service
    wanted: dict[int, list[tuple[tuple, str]]] = {}
    for team in keeping:
        lead, has = team.lead, kinds[team.kept_policy_id]
        plans = []
        if SessionKind.ONE_ON_ONE in has:
            plans += [
                (key(SessionKind.ONE_ON_ONE.value, lead.pk, pk, None), f"{name}'s 1:1")
                for pk, name in members[team.pk]
                if pk != lead.pk
            ]
        for kind, words in _TEAM_SESSION_WORDS.items():
            if kind in has:
                plans.append((key(kind.value, lead.pk, None, team.pk), words))
        manager = lead.reports_to
        if SessionKind.MANAGER_REVIEW in has and manager is not None and manager.is_active:
            review = key(SessionKind.MANAGER_REVIEW.value, manager.pk, lead.pk, None)
            plans.append((review, f"{lead.display_name}'s review with their manager"))
        wanted[team.pk] = plans
    coachees = {k[2] for plans in wanted.values() for k, _ in plans if k[1] != "team"}
    taken = {
        key(*row)
        for row in CadencePlan.objects.live()
        .filter(Q(coachee_id__in=coachees) | Q(team_id__in=wanted, coachee__isnull=True))
        .values_list("kind", "coach_id", "coachee_id", "team_id")
    }
    missing = {}
    for team_id, plans in wanted.items():
        lacking = [words for k, words in plans if k not in taken]
        if lacking:
            missing[team_id] = Missing(tuple(lacking))
    return missing


def note_plans_missing(teams: list) -> list:
    """Give each team `missing` (`plans_missing`, or None when nothing is): three
    queries for the lot."""
    missing = plans_missing(teams)
    for team in teams:
        team.missing = missing.get(team.pk)
    return teams


def offer_policies(teams, policies: list[CadencePolicy]) -> None:
    """Give each team `offered`: the policies it may apply — every one but the one it
    keeps already, since applying that again would change nothing (the service
    refuses it). No query."""
    for team in teams:
        kept = team.kept.policy_id if team.kept else None
        team.offered = [policy for policy in policies if policy.pk != kept]


def _rule(rule) -> tuple[str, int]:
    return describe_rule(rule, time_zone=""), rule.duration_minutes


def _plans_changed(assignment_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Per assignment: how many live plans it made, and how many of them no longer say
    what the policy's item of their kind says now: a policy sets the day, time, rhythm
    and length a plan starts with, each coach may change their own later (My cadence),
    and a changed policy leaves the plans it made as they are. Two queries, whatever
    the number of teams."""
    plans = list(
        CadencePlan.objects.live()
        .filter(assignment_id__in=assignment_ids)
        .select_related("assignment")
        .only(
            "kind",
            "assignment__policy_id",
            *("recurrence", "weekday", "interval_weeks", "week_of_month"),
            *("local_time", "duration_minutes"),
        )
    )
    items = {
        (item.policy_id, item.kind): _rule(item)
        for item in PolicyItem.objects.filter(
            policy_id__in={plan.assignment.policy_id for plan in plans}
        )
    }
    counts: dict[int, tuple[int, int]] = {}
    for plan in plans:
        made, changed = counts.get(plan.assignment_id, (0, 0))
        differs = items.get((plan.assignment.policy_id, plan.kind)) != _rule(plan)
        counts[plan.assignment_id] = (made + 1, changed + differs)
    return counts


@dataclass(frozen=True)
class Ending:
    """What ending a team's policy ends: its live plans, each in words."""

    assignment: PolicyAssignment
    plans: list[CadencePlan]


def plans_ending(*, team) -> Ending | None:
    """The team's live assignment and the live plans it made (each with `words`), or
    None when it keeps no policy: the End confirmation. Two queries."""
    assignment = (
        PolicyAssignment.objects.filter(team=team, ended_at__isnull=True)
        .select_related("policy", "team")
        .first()
    )
    if assignment is None:
        return None
    plans = list(
        assignment.plans.live().select_related("coach", "coachee", "team").order_by("kind", "pk")
    )
    for plan in plans:
        plan.words = plan_words(plan)
    return Ending(assignment, plans)
