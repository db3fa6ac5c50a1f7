"""Team cadence (`/programme/cadence/`), for programme admins: the cadence policies in
words (written in `views_policy_editor`), and every team with the policy it keeps:
apply one (its plans are made at once, never doubled; another policy the team kept
ends first; the one it keeps is not offered, and refused if sent — unless the team
lacks plans it makes: "Make the missing plans" applies it again) or end it (its plans
end; what was held stays). A team with no lead, or whose lead is deactivated, is offered none
and links to its page, where a lead is named. Everyone else gets 404."""

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from core.paging import page_asked
from people.access import role_required
from people.models import Team
from people.roles import Role

from . import services
from .forms_policies import PolicyApplyForm, TeamsShownForm
from .placement import policy_placement
from .selectors_policies import (
    TEAM_STATES,
    offer_policies,
    plans_ending,
    policies_with_items,
    policy_teams_page,
    team_choices,
)


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def team_cadence(request):
    return _page(request)


def _page(request, *, error=None):
    """A wrong state, page number or form is a 400 with the reason."""
    form = TeamsShownForm(request.GET)
    valid = form.is_valid()
    show = form.cleaned_data["show"] if valid else ""
    number, page_error = page_asked(request.GET.get("page"))
    policies = policies_with_items()
    page = policy_teams_page(show=show, page_number=number) if valid else None
    if page is not None:
        offer_policies(page.object_list, policies)
    kept = {"show": show, "page": str(page.number)} if page is not None else {}
    context = {
        "form": form,
        "policies": policies,
        "back": urlencode(_kept(kept)),
        "choices": team_choices(show),
        "page": page,
        "page_error": page_error,
        "error": error,
    }
    status = 400 if error or page_error or not valid else 200
    return render(request, "cadence/team_cadence.html", context, status=status)


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def team_policy_apply(request, pk: int):
    """GET: the preview — every plan applying would make, at its day and time, every
    clash it stepped round, who could not be placed and why, the plans it would end —
    nothing written. POST (from the preview): apply."""
    team = get_object_or_404(Team.objects.select_related("lead__reports_to"), pk=pk)
    form = PolicyApplyForm(request.POST if request.method == "POST" else request.GET)
    if not form.is_valid():
        return _page(request, error=[e for errors in form.errors.values() for e in errors])
    policy = form.cleaned_data["policy"]
    if request.method == "GET":
        try:
            placement = policy_placement(policy=policy, team=team)
        except ValidationError as exc:
            return _page(request, error=exc.messages)
        context = {"placement": placement, "team": team, "back": urlencode(_kept(request.GET))}
        return render(request, "cadence/team_policy_apply.html", context)
    try:
        assignment = services.policy_apply(policy=policy, team=team, actor=request.user)
    except ValidationError as exc:
        return _page(request, error=exc.messages)
    live = assignment.plans.live().count()
    done = f"{live} plan{'s' * (live != 1)} live."
    if assignment.kept_already:  # applied again: what was missing is made
        made = assignment.plans_made
        done = f"{made} missing plan{'s' * (made != 1)} made; {done}"
    messages.success(request, f"{team} keeps “{policy}”: {done}")
    for unplaced in assignment.unplaced:
        messages.warning(request, f"Not placed — {unplaced.who}: {unplaced.why}")
    return redirect(_back(request))


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def team_policy_end(request, pk: int):
    """GET: what ending would end (the team's live plans of the policy), to confirm.
    POST (from that page): end it."""
    team = get_object_or_404(Team, pk=pk)
    if request.method == "GET":
        ending = plans_ending(team=team)
        if ending is None:
            return _page(request, error=[f"{team} keeps no policy now."])
        context = {"team": team, "ending": ending, "back": urlencode(_kept(request.GET))}
        return render(request, "cadence/team_policy_end.html", context)
    try:
        assignment = services.team_policy_end(team=team, actor=request.user)
    except ValidationError as exc:
        return _page(request, error=exc.messages)
    messages.success(request, f"{team} no longer keeps “{assignment.policy}”; its plans ended.")
    return redirect(_back(request))


def _kept(query) -> dict[str, str]:
    """The list's state and page from a query string (anything else is dropped, so
    the redirect only ever goes back to this page)."""
    kept = {}
    if query.get("show") in TEAM_STATES and query.get("show"):
        kept["show"] = query["show"]
    if query.get("page", "").isdigit():
        kept["page"] = query["page"]
    return kept


def _back(request) -> str:
    """The list as it was when the form was sent (its action carries the state and
    page in its query string)."""
    kept = _kept(request.GET)
    base = reverse("cadence:team_cadence")
    return f"{base}?{urlencode(kept)}" if kept else base
