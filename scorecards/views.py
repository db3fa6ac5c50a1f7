"""Scorecard pages: my scorecards, calls and how they get scored, the scoring round
(score, see what the reveal rule shows, decline, close), calibrations, and the
template library with its editor.

Each view parses input, calls one service or selector, renders. Rounds and calls are
opened through `selectors.access_*` (404 for everyone they do not concern); refusals
come back as 400 with the reason on the page, nothing saved."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from core.errors import Forbidden
from core.forms import add_service_errors, submit
from core.paging import first_of, page_asked
from people.access import request_roles, role_required
from people.roles import Role
from people.selectors import list_ids_below

from . import rules, selectors, services
from .forms import (
    HOW_COACH,
    HOW_PEER,
    HOW_SELF,
    CalibrationForm,
    CallForm,
    CriterionForm,
    CriterionFormSet,
    ScorecardForm,
    StartScoringForm,
    TemplateForm,
)
from .models import RoundContext, Template

LIST_LIMIT = 50
# The home page shows the latest few calls of each list; the calls page all of them.
CALLS_ON_HOME = 10
CALLS_PER_PAGE = 50


# --- My scorecards ------------------------------------------------------------------------


@require_GET
def scorecard_home(request):
    user = request.user
    manages = Role.MANAGER in request_roles(request)
    # Walked once for both lists that need it (the head's walk: 9,600 people).
    below = list_ids_below(person=user)
    return render(
        request,
        "scorecards/home.html",
        {
            "waiting": first_of(
                selectors.waiting_on(user=user).order_by("-created_at"), LIST_LIMIT
            ),
            "my_calls": first_of(selectors.calls_newest_first(user=user, mine=True), CALLS_ON_HOME),
            "people_calls": (
                first_of(
                    selectors.calls_newest_first(user=user, mine=False, below=below),
                    CALLS_ON_HOME,
                )
                if manages
                else None
            ),
            "rounds": list(selectors.rounds_for(user=user, below=below)[:LIST_LIMIT]),
        },
    )


# --- Calls ----------------------------------------------------------------------------------

CALL_LISTS = {"mine": "My calls", "people": "My people's calls"}


@require_GET
def call_list(request):
    """Every call of one list, newest first, CALLS_PER_PAGE a page: `?whose=mine` (the
    default) or `people` (managers: the calls of the people below them and of the
    rounds they opened or score), `?page=`. A bad value is a 400 saying so."""
    whose = request.GET.get("whose") or "mine"
    if whose == "people" and Role.MANAGER not in request_roles(request):
        raise Http404
    errors = []
    if whose not in CALL_LISTS:
        whose = "mine"
        errors.append("Choose whose calls: mine or people.")
    number, page_error = page_asked(request.GET.get("page"))
    errors += [page_error] if page_error else []
    calls = selectors.calls_newest_first(user=request.user, mine=whose == "mine")
    page = Paginator(calls, CALLS_PER_PAGE).get_page(number)
    return render(
        request,
        "scorecards/call_list.html",
        {
            "page": page,
            "title": CALL_LISTS[whose],
            "show_person": whose == "people",
            "errors": errors,
        },
        status=400 if errors else 200,
    )


@require_http_methods(["GET", "POST"])
def call_new(request):
    form = CallForm(request.POST or None, user=request.user)
    if request.method == "POST":
        ok, call = submit(
            form, lambda data: services.recorded_call_create(actor=request.user, **data)
        )
        if ok:
            messages.success(request, "Call added. Now pick how it gets scored.")
            return redirect("scorecards:call_detail", call.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "scorecards/call_new.html", {"form": form}, status=status)


def _render_call(request, call, form=None, status=200):
    return render(
        request,
        "scorecards/call_detail.html",
        {
            "call": call,
            "rounds": list(selectors.rounds_of_call(user=request.user, call=call)),
            "form": form or StartScoringForm(call=call, user=request.user),
        },
        status=status,
    )


@require_GET
def call_detail(request, pk):
    return _render_call(request, selectors.access_call(user=request.user, pk=pk))


OPENERS = {
    HOW_SELF: lambda actor, call, template, peers: services.self_assessment_open(
        actor=actor, work=call, template=template
    ),
    HOW_PEER: lambda actor, call, template, peers: services.peer_scoring_open(
        actor=actor, work=call, template=template, peers=peers
    ),
    HOW_COACH: lambda actor, call, template, peers: services.coach_scoring_open(
        actor=actor, work=call, template=template
    ),
}


@require_POST
def call_score(request, pk):
    """Open a round on the call: by yourself, with colleagues, or as the coach."""
    call = selectors.access_call(user=request.user, pk=pk)
    form = StartScoringForm(request.POST, call=call, user=request.user)
    ok, scoring = submit(
        form,
        lambda data: OPENERS[data["how"]](
            request.user, call, data["template"], list(data.get("peers") or [])
        ),
    )
    if ok:
        return redirect("scorecards:round_detail", scoring.pk)
    return _render_call(request, call, form, status=400)


# --- A scoring round --------------------------------------------------------------------------


def _side_by_side(view) -> list[dict]:
    """Per criterion, one cell per visible scorecard (in the same order as the
    columns, and with it: a phone shows each cell under its rater's name), each
    flagged when that rater is an outlier on it."""
    table = []
    for row in view.rows:
        outliers = set(row.agreement.outliers) if row.agreement else set()
        cells = [
            {
                "card": card,
                "score": row.ratings.get(card.rater_id),
                "outlier": card.rater_id in outliers,
            }
            for card in view.visible
        ]
        table.append({"row": row, "cells": cells})
    return table


def _round_context(request, scoring, form=None):
    view = selectors.round_view(user=request.user, scoring=scoring)
    if form is None and view.waiting_on_me:
        form = ScorecardForm(initial=ScorecardForm.initial_from(view.mine), version=view.version)
    return {
        "view": view,
        "scoring": scoring,
        "form": form,
        "may_close": rules.may_close(request.user, scoring) and not scoring.is_closed,
        "table": _side_by_side(view),
        "summaries": [card for card in view.visible if card.keep or card.try_next],
        "shows_gap": any(row.gap is not None for row in view.rows),
    }


@require_GET
def round_detail(request, pk):
    scoring = selectors.access_round(user=request.user, pk=pk)
    return render(request, "scorecards/round_detail.html", _round_context(request, scoring))


@require_POST
def round_scorecard_save(request, pk):
    """Save my scorecard as a draft, or submit it (final)."""
    scoring = selectors.access_round(user=request.user, pk=pk)
    view = selectors.round_view(user=request.user, scoring=scoring)
    if view.viewer_rater is None:
        raise Http404  # not a rater here: there is no form to post
    form = ScorecardForm(request.POST, version=view.version)
    ok, _ = submit(
        form,
        lambda data: services.scorecard_save(
            actor=request.user,
            scoring=scoring,
            scores=form.score_inputs(),
            keep=data["keep"],
            try_next=data["try_next"],
            submit=form.submitting,
        ),
    )
    if ok:
        if request.htmx and not form.submitting:
            # The form again, as saved, in place.
            context = {**_round_context(request, scoring), "draft_saved": True}
            return render(request, "scorecards/_scorecard_form.html", context)
        done = "Submitted." if form.submitting else "Draft saved: only you see it."
        messages.success(request, done)
        if request.htmx:  # submitted: the whole page changes (scores revealed)
            return HttpResponseClientRedirect(reverse("scorecards:round_detail", args=[scoring.pk]))
        return redirect("scorecards:round_detail", scoring.pk)
    context = _round_context(request, scoring, form)
    template = "scorecards/_scorecard_form.html" if request.htmx else "scorecards/round_detail.html"
    return render(request, template, context, status=400)


def _round_action(request, pk, action, done):
    scoring = selectors.access_round(user=request.user, pk=pk)
    try:
        action(actor=request.user, scoring=scoring)
    except (ValidationError, Forbidden) as exc:
        context = {**_round_context(request, scoring), "action_error": exc.messages}
        return render(request, "scorecards/round_detail.html", context, status=400)
    messages.success(request, done)
    return redirect("scorecards:round_detail", scoring.pk)


@require_POST
def round_decline(request, pk):
    return _round_action(request, pk, services.round_decline, "You will not score this one.")


@require_POST
def round_close(request, pk):
    return _round_action(request, pk, services.round_close, "Closed: everyone's scores show now.")


# --- Calibrations ------------------------------------------------------------------------------


@require_GET
def calibration_list(request):
    rounds = selectors.rounds_for(user=request.user).filter(context=RoundContext.CALIBRATION)
    return render(
        request,
        "scorecards/calibration_list.html",
        {
            "rounds": list(rounds[:LIST_LIMIT]),
            "may_calibrate": rules.may_calibrate(request.user, request_roles(request)),
        },
    )


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN, Role.MANAGER_OF_MANAGERS)
def calibration_new(request):
    form = CalibrationForm(request.POST or None, user=request.user)
    if request.method == "POST":
        ok, scoring = submit(
            form,
            lambda data: services.calibration_open(
                actor=request.user,
                work=data["work"],
                template=data["template"],
                raters=list(data["raters"]),
                title=data["title"],
            ),
        )
        if ok:
            messages.success(request, "Calibration open: each rater scores blind.")
            return redirect("scorecards:round_detail", scoring.pk)
    status = 400 if request.method == "POST" else 200
    # Nothing to calibrate on yet: the page says so and how, rather than a form with
    # an empty list of calls that can only be refused.
    no_calls = request.method == "GET" and not form.has_calls
    context = {"form": form, "no_calls": no_calls}
    return render(request, "scorecards/calibration_new.html", context, status=status)


# --- The template library ------------------------------------------------------------------------


def _is_admin(request) -> bool:
    return Role.PROGRAMME_ADMIN in request_roles(request)


@require_GET
def template_list(request):
    show_retired = _is_admin(request) and request.GET.get("retired") == "1"
    templates = selectors.templates_with_current(include_retired=show_retired)
    return render(
        request,
        "scorecards/template_list.html",
        {"templates": templates, "is_admin": _is_admin(request), "show_retired": show_retired},
    )


@require_GET
def template_detail(request, pk):
    return _render_template_detail(request, get_object_or_404(Template, pk=pk))


def _render_template_detail(request, template, *, error=None, status=200):
    versions = list(template.versions.order_by("-number"))
    number = request.GET.get("version", "")
    chosen = next((v for v in versions if str(v.number) == number), versions[0])
    return render(
        request,
        "scorecards/template_detail.html",
        {
            "template": template,
            "version": selectors.version_with_criteria(chosen.pk),
            "versions": versions,
            "is_admin": _is_admin(request),
            "error": error,
        },
        status=status,
    )


def _render_editor(request, template, form, criteria, status=200):
    return render(
        request,
        "scorecards/template_edit.html",
        {"template": template, "form": form, "criteria": criteria},
        status=status,
    )


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def template_new(request):
    form = TemplateForm(request.POST or None)
    criteria = CriterionFormSet(request.POST or None, prefix="criteria")
    if request.method == "POST":
        if form.is_valid() and criteria.is_valid():
            try:
                template = services.template_create(
                    actor=request.user,
                    name=form.cleaned_data["name"],
                    description=form.cleaned_data["description"],
                    criteria=criteria.specs(),
                )
            except (ValidationError, Forbidden) as exc:
                add_service_errors(form, exc)
            else:
                messages.success(request, f"“{template.name}” is in the library.")
                return redirect("scorecards:template_detail", template.pk)
        return _render_editor(request, None, form, criteria, status=400)
    return _render_editor(request, None, form, criteria)


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def template_edit(request, pk):
    template = get_object_or_404(Template, pk=pk)
    if request.method == "GET":
        version = selectors.version_with_criteria(services.current_version(template).pk)
        form = TemplateForm(initial={"name": template.name, "description": template.description})
        criteria = CriterionFormSet(
            prefix="criteria",
            initial=[CriterionForm.initial_for(c) for c in version.criteria.all()],
        )
        return _render_editor(request, template, form, criteria)
    form = TemplateForm(request.POST)
    criteria = CriterionFormSet(request.POST, prefix="criteria")
    if form.is_valid() and criteria.is_valid():
        try:
            version = services.template_update(
                actor=request.user,
                template=template,
                criteria=criteria.specs(),
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
            )
        except (ValidationError, Forbidden) as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, f"Saved as version {version.number}.")
            return redirect("scorecards:template_detail", template.pk)
    return _render_editor(request, template, form, criteria, status=400)


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def template_retire(request, pk):
    template = get_object_or_404(Template, pk=pk)
    # "1" retires, "0" offers it again; anything else is no choice at all.
    choice = request.POST.get("retired")
    if choice not in ("0", "1"):
        return _render_template_detail(
            request, template, error="Choose to retire the scorecard or offer it again.", status=400
        )
    retire = choice == "1"
    services.template_retire(actor=request.user, template=template, retired=retire)
    messages.success(
        request,
        f"“{template.name}” retired: kept for old scorecards, no longer offered."
        if retire
        else f"“{template.name}” is offered again.",
    )
    return redirect("scorecards:template_detail", template.pk)
