"""Install-plan pages: a team's 30/60/90-day checklist (its lead, the people above
the lead, HR and programme admins; others 404) and the overview of every team in
one's scope (HR, programme admins, managers of managers). The lead ticks the two
items the data cannot tell, with htmx or plain forms; refusals are 400 with the
reason and nothing saved."""

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import Forbidden
from core.forms import submit
from core.paging import page_asked
from people.access import request_roles, role_required
from people.roles import Role

from . import rules
from . import selectors_rollout as selectors
from . import services_rollout as services
from .forms_rollout import RolloutOverviewForm, RolloutStartForm, RolloutTickForm
from .rollout import BY_KEY


def _page(request, state, *, start_form=None, tick_error=None, status=200):
    if state.may_start and start_form is None:
        # Today unless they say otherwise: most rollouts start the day someone opens this.
        start_form = RolloutStartForm(initial={"starts_on": timezone.localdate()})
    context = {"state": state, "start_form": start_form, "tick_error": tick_error}
    return render(request, "cadence/rollout.html", context, status=status)


@require_http_methods(["GET", "POST"])
def team_rollout(request, pk):
    """The checklist; a POST starts the rollout (whoever may start it)."""
    state = selectors.team_rollout(user=request.user, pk=pk)
    if request.method == "GET":
        return _page(request, state)
    if not rules.may_start_rollout(request.user, state.team):
        raise Http404
    form = RolloutStartForm(request.POST)
    ok, _ = submit(
        form,
        lambda data: services.rollout_start(
            team=state.team, actor=request.user, starts_on=data["starts_on"]
        ),
    )
    if ok:
        messages.success(request, "Rollout started: the checklist counts from its first day.")
        return redirect("cadence:team_rollout", pk=state.team.pk)
    return _page(request, state, start_form=form, status=400)


def _tick(request, pk, service, done_message):
    state = selectors.team_rollout(user=request.user, pk=pk)
    if not state.may_tick:
        raise Http404  # the lead's to tick; the page offers it to no one else
    form = RolloutTickForm(request.POST)
    error = None
    if form.is_valid():
        try:
            service(rollout=state.rollout, actor=request.user, item=form.cleaned_data["item"])
        except (ValidationError, Forbidden) as exc:
            error = exc.messages
    else:
        error = [e for errors in form.errors.values() for e in errors]
    status = 400 if error else 200
    if request.htmx:
        state = selectors.team_rollout(user=request.user, pk=pk)
        context = {"state": state, "tick_error": error}
        return render(request, "cadence/_rollout_checklist.html", context, status=status)
    if error:
        return _page(request, state, tick_error=error, status=status)
    messages.success(request, done_message.format(BY_KEY[form.cleaned_data["item"]].title))
    return redirect(
        reverse("cadence:team_rollout", args=[pk]) + f"#item-{form.cleaned_data['item']}"
    )


@require_POST
def rollout_tick(request, pk):
    return _tick(request, pk, services.rollout_tick, "Ticked: {}.")


@require_POST
def rollout_untick(request, pk):
    return _tick(request, pk, services.rollout_untick, "Not done after all: {}.")


@require_GET
@role_required(Role.HR, Role.PROGRAMME_ADMIN, Role.MANAGER_OF_MANAGERS)
def rollout_overview(request):
    """Every team in scope: started or not, how far along, what is overdue — all of
    them or those in one state, a page at a time."""
    overview = selectors.overview(user=request.user, roles=request_roles(request))
    form = RolloutOverviewForm(request.GET)
    if not form.is_valid():
        context = {"overview": overview, "form": form, "choices": overview.choices("")}
        return render(request, "cadence/rollout_overview.html", context, status=400)
    show = form.cleaned_data["show"]
    number, page_error = page_asked(request.GET.get("page"))
    context = {
        "overview": overview,
        "refresh_minutes": settings.DASHBOARD_REFRESH_MINUTES,
        "form": form,
        "show": show,
        "choices": overview.choices(show),
        "page": overview.page(show, number),
        "page_error": page_error,
    }
    return render(
        request, "cadence/rollout_overview.html", context, status=400 if page_error else 200
    )
