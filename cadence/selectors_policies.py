"""Cadence policies as the programme admin's Team cadence page shows them: each policy
in words with how many teams keep it, and every team — a page at a time — with the
policy it keeps (or none). A fixed number of queries whatever the number of teams."""

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, Exists, OuterRef, Prefetch, Q, Subquery, Value, When

from people.models import Team
from people.paging import StateChoice

from .models import PLANNED_KINDS, CadencePlan, CadencePolicy, PolicyAssignment, PolicyItem
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
    """Teams in one state, by name, each with its lead and the live assignment's id,
    policy id and name and start (`assignment_id`, `kept_policy_id`,
    `kept_policy_name`, `kept_since`; None without one) — one query."""
    return (
        Team.objects.filter(TEAM_STATES[show][1])
        .select_related("lead")
        .annotate(
            assignment_id=Subquery(_LIVE.values("pk")[:1]),
            kept_policy_id=Subquery(_LIVE.values("policy_id")[:1]),
            kept_policy_name=Subquery(_LIVE.values("policy__name")[:1]),
            kept_since=Subquery(_LIVE.values("applied_at")[:1]),
        )
        .order_by("name", "pk")
    )


def teams_page(*, show: str = "", page_number: int = 1) -> Page:
    """A page of `teams_with_policy`, each with `kept` (the live assignment, or
    None): the count and the page, two queries. A page past the end shows the last."""
    page = Paginator(teams_with_policy(show), TEAMS_PER_PAGE).get_page(page_number)
    page.object_list = list(page.object_list)
    counts = plans_changed([t.assignment_id for t in page.object_list if t.assignment_id])
    for team in page.object_list:
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


def offer_policies(teams, policies: list[CadencePolicy]) -> None:
    """Give each team `offered`: the policies it may apply — every one but the one it
    keeps already, since applying that again would change nothing (the service
    refuses it). No query."""
    for team in teams:
        kept = team.kept.policy_id if team.kept else None
        team.offered = [policy for policy in policies if policy.pk != kept]


def _rule(rule) -> tuple[str, int]:
    return describe_rule(rule, time_zone=""), rule.duration_minutes


def plans_changed(assignment_ids: list[int]) -> dict[int, tuple[int, int]]:
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
