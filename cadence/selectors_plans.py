"""Every plan of the programme, as Programme → Plans and its API list them for programme
admins: running, paused or ended, of one kind or all, found by the coach's, the
coachee's or the team's name, 25 a page with each plan's next session and its rule in
words. A fixed number of queries whatever the numbers: the page with its next
sessions, its count, and the tabs' counts."""

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from core.paging import StateChoice
from core.queries import in_order

from .models import CadencePlan
from .selectors import plan_decorate, plans_with_next

PLANS_PER_PAGE = 25

# show= → (tab label, filter).
PLAN_STATES = {
    "": ("Running", Q(ended_at__isnull=True, paused=False)),
    "paused": ("Paused", Q(ended_at__isnull=True, paused=True)),
    "ended": ("Ended", Q(ended_at__isnull=False)),
    "all": ("All", Q()),
}


def plans_listed(*, q: str = "", show: str = "", kind: str = "") -> QuerySet[CadencePlan]:
    """Plans in state `show` (of `kind`) whose coach, coachee or team holds `q` in its
    name (or their email), by coach, then kind; ended ones the latest ended first."""
    plans = CadencePlan.objects.filter(PLAN_STATES[show][1])
    if kind:
        plans = plans.filter(kind=kind)
    if q:
        plans = plans.filter(
            Q(coach__display_name__icontains=q)
            | Q(coach__email__icontains=q)
            | Q(coachee__display_name__icontains=q)
            | Q(coachee__email__icontains=q)
            | Q(team__name__icontains=q)
        )
    if show == "ended":
        return plans.order_by("-ended_at", "-pk")
    return plans.order_by("coach__display_name", "kind", "pk")


def plans_page(*, q: str = "", show: str = "", kind: str = "", page_number: int = 1) -> Page:
    """A page of `plans_listed`, each with its next session and rule in words (three
    queries: the count, the page's ids, their rows). A page past the end shows the last
    one. The ids first: PostgreSQL works out the select list — the next session's two
    subqueries — for every row an OFFSET skips (page 300 of every plan; bench/routes.py)."""
    ids = plans_listed(q=q, show=show, kind=kind).values_list("pk", flat=True)
    page = Paginator(ids, PLANS_PER_PAGE).get_page(page_number)
    page.object_list = plans_shown(list(page.object_list))
    return page


def plans_shown(ids: list[int]) -> list[CadencePlan]:
    """The plans with these ids, in their order, each with its next session and rule
    in words (one query)."""
    rows = plans_with_next(CadencePlan.objects.all(), now=timezone.now())
    return [plan_decorate(plan) for plan in in_order(rows, ids)]


def plan_choices(show: str) -> list[StateChoice]:
    """Each state with how many plans are in it (one query)."""
    counts = CadencePlan.objects.aggregate(
        **{key or "running": Count("pk", filter=rule) for key, (_, rule) in PLAN_STATES.items()}
    )
    return [
        StateChoice(key, label, counts[key or "running"], key == show)
        for key, (label, _) in PLAN_STATES.items()
    ]


def plan_record(pk: int) -> CadencePlan:
    """One plan for its page under Programme: with its next session, rule in words,
    who ended it and the policy that made it (one query), or 404."""
    plan = (
        plans_with_next(CadencePlan.objects.all(), now=timezone.now())
        .select_related("ended_by", "assignment__policy")
        .filter(pk=pk)
        .first()
    )
    if plan is None:
        raise Http404
    return plan_decorate(plan)
