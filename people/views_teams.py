"""Teams (`/programme/teams/`), for programme admins: every team, searched by name, a
page at a time, with its lead and how many are on it; a new team; one team's page to
rename it, change its lead, add people and take them off (their history stays). All
through `people.services_teams`, so each change is audited and the cadence follows
(someone added to a team that keeps a policy gets their 1:1 plan; someone taken off,
theirs ends). Refusals are 400 with the reason, nothing saved; everyone else gets 404."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.forms import submit
from core.paging import page_asked

from .access import role_required
from .forms_teams import MemberAddForm, TeamForm, TeamSearchForm
from .roles import Role
from .selectors_teams import team_leavers, team_with_members, teams_page
from .services_teams import team_create, team_member_add, team_member_remove, team_update


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def team_list(request):
    return _list(request, TeamForm(user=request.user))


def _list(request, new_form, *, status=200):
    search = TeamSearchForm(request.GET)
    q = search.cleaned_data["q"].strip() if search.is_valid() else ""
    number, page_error = page_asked(request.GET.get("page"))
    context = {
        "search": search,
        "q": q,
        "page": teams_page(q=q, page_number=number),
        "page_error": page_error,
        "new_form": new_form,
    }
    failed = status != 200 or page_error or search.errors
    return render(request, "people/team_list.html", context, status=400 if failed else 200)


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def team_new(request):
    form = TeamForm(request.POST, user=request.user)
    ok, team = submit(form, lambda data: team_create(actor=request.user, **data))
    if ok:
        messages.success(request, f"{team} is made. Add its people.")
        return redirect("people:team_detail", pk=team.pk)
    return _list(request, form, status=400)


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def team_detail(request, pk: int):
    team = team_with_members(pk=pk)
    if request.method == "GET":
        initial = {"name": team.name, "lead": team.lead_id}
        return _detail(request, team, team_form=TeamForm(initial=initial, user=request.user))
    form = TeamForm(request.POST, user=request.user)
    ok, changed = submit(form, lambda data: team_update(team=team, actor=request.user, **data))
    if ok:
        messages.success(request, "Saved." if changed else "Nothing changed.")
        return redirect("people:team_detail", pk=pk)
    return _detail(request, team_with_members(pk=pk), team_form=form, status=400)


def _detail(request, team, *, team_form=None, add_form=None, status=200):
    context = {
        "team": team,
        "team_form": team_form
        or TeamForm(initial={"name": team.name, "lead": team.lead_id}, user=request.user),
        "add_form": add_form or MemberAddForm(user=request.user, team=team),
        "leavers": team_leavers(team),
    }
    return render(request, "people/team_detail.html", context, status=status)


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def team_member_add_view(request, pk: int):
    team = team_with_members(pk=pk)
    form = MemberAddForm(request.POST, user=request.user, team=team)
    if not form.is_valid():
        return _detail(request, team, add_form=form, status=400)
    person = form.cleaned_data["person"]
    team_member_add(team=team, person=person, actor=request.user)
    messages.success(request, f"{person} is on {team} now.")
    return redirect(f"{reverse('people:team_detail', args=[pk])}#members-heading")


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def team_member_remove_view(request, pk: int, person_pk: int):
    team = team_with_members(pk=pk)
    member = next((m.person for m in team.current if m.person_id == person_pk), None)
    if member is None:
        raise Http404  # not on the team now: nothing to take off
    team_member_remove(team=team, person=member, actor=request.user)
    messages.success(request, f"{member} is off {team}; their history stays.")
    return redirect(f"{reverse('people:team_detail', args=[pk])}#members-heading")
