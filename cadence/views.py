"""Cadence pages: "My cadence" for the people who run plans, and a manager's weekly
digests. Each view parses, calls one service or selector, renders. Plan forms
post normally and through htmx (the plan's fragment is swapped in); refusals are
400 with the reason and nothing saved."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from core.forms import add_service_errors, submit
from people.access import request_roles
from people.roles import Role

from . import selectors, services
from .forms import (
    EndPlanForm,
    PauseForm,
    PlanRuleForm,
    plan_with_forms,
)
from .placement import clashes_of
from .selectors_closures import closures_coming
from .views_plans import BACK_TO_PROGRAMME, back_to_programme, programme_plan_page


def _errors_of(bound: dict) -> list[str]:
    found = list(bound.get("pause_error") or [])
    for key in ("edit_form", "end_form"):
        form = bound.get(key)
        if form is not None:
            found += [e for errors in form.errors.values() for e in errors]
    return found


# --- My cadence --------------------------------------------------------------------------


def _cadence_page(request, status=200, *, plan_pk=None, **bound):
    cadence = selectors.my_cadence(
        coach=request.user, allow_empty=Role.MANAGER in request_roles(request)
    )
    shown = False
    for plan in cadence.plans:
        plan_with_forms(plan, **(bound if plan.pk == plan_pk else {}))
        shown = shown or plan.pk == plan_pk
    # A refusal on a plan this page does not list (someone above its coach) shows on top.
    error = _errors_of(bound) if plan_pk is not None and not shown else None
    context = {"cadence": cadence, "error": error, "closures": closures_coming()}
    return render(request, "cadence/my_cadence.html", context, status=status)


@require_GET
def my_cadence(request):
    return _cadence_page(request)


def _answer(request, plan, *, status=200, message="", **bound):
    """After a change: the plan's fragment for htmx, else back to the page it was made
    on — My cadence, or the plan's page under Programme — or, on a refusal, that page
    again with the refused input."""
    plan_pk = plan.pk
    back = BACK_TO_PROGRAMME if back_to_programme(request, plan) else ""
    if request.htmx:
        plan = plan_with_forms(selectors.access_plan(user=request.user, pk=plan_pk), **bound)
        context = {"plan": plan, "saved": message if status == 200 else "", "back": back}
        return render(request, "cadence/_plan.html", context, status=status)
    if back:
        if status == 200:
            messages.success(request, message)
            return redirect("cadence:programme_plan", pk=plan_pk)
        return programme_plan_page(request, plan_pk, status=status, **bound)
    if status == 200:
        messages.success(request, message)
        return redirect(f"{reverse('cadence:my_cadence')}#plan-{plan_pk}")
    return _cadence_page(request, status, plan_pk=plan_pk, **bound)


@require_POST
def plan_edit(request, pk):
    plan = selectors.access_plan(user=request.user, pk=pk, manage=True)
    form = PlanRuleForm(request.POST, plan=plan)
    if form.is_valid():
        changes = form.changes()
        if not changes:
            return _answer(request, plan, message="Nothing changed.")
        try:
            changed = services.plan_update(plan=plan, actor=request.user, **changes)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            clashes = clashes_of(plan=changed)
            return _answer(
                request,
                plan,
                message="Plan changed. Sessions nobody has touched yet move to the new time."
                + (f" Note: it now clashes with {'; '.join(clashes)}." if clashes else ""),
            )
    return _answer(request, plan, status=400, edit_form=form)


@require_POST
def plan_pause(request, pk):
    plan = selectors.access_plan(user=request.user, pk=pk, manage=True)
    form = PauseForm(request.POST)
    if not form.is_valid():
        return _answer(request, plan, status=400, pause_error=["Choose pause or resume."])
    paused = form.cleaned_data["paused"]
    try:
        services.plan_update(plan=plan, actor=request.user, paused=paused)
    except ValidationError as exc:
        return _answer(request, plan, status=400, pause_error=exc.messages)
    return _answer(
        request,
        plan,
        message=(
            "Paused: no new sessions are planned. Sessions already planned stay — move or "
            "cancel them if they will not happen."
            if paused
            else "Resumed: sessions are planned again."
        ),
    )


@require_POST
def plan_end(request, pk):
    plan = selectors.access_plan(user=request.user, pk=pk, manage=True)
    form = EndPlanForm(request.POST, plan=plan)
    ok, _ = submit(
        form,
        lambda data: services.plan_end(
            plan=plan, actor=request.user, reason=data["reason"], note=data["note"]
        ),
    )
    if ok:
        return _answer(
            request,
            plan,
            message="Plan ended. Its held sessions stay; future ones nobody touched are gone.",
        )
    return _answer(request, plan, status=400, end_form=form)


@require_POST
def plan_restart(request, pk):
    """An ended plan again, with its times (`services.plan_restart`)."""
    plan = selectors.access_plan(user=request.user, pk=pk, manage=True)
    try:
        restarted = services.plan_restart(plan=plan, actor=request.user)
    except ValidationError as exc:
        return _answer(request, plan, status=400, restart_error=exc.messages)
    clashes = clashes_of(plan=restarted)
    return _answer(
        request,
        restarted,
        message="Plan restarted with its times: sessions are planned again."
        + (f" It clashes with {'; '.join(clashes)}." if clashes else ""),
    )


# --- Digests ----------------------------------------------------------------------------


@require_GET
def digest_detail(request, period):
    """A weekly digest, as its email said it; the digest notification opens it."""
    return render(
        request,
        "cadence/digest_detail.html",
        {"page": selectors.access_digest(user=request.user, period=period)},
    )
