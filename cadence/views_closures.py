"""Closed days (`/programme/closed-days/`), for programme admins: the days the whole
programme pauses, with how many planned sessions each removed (a row still being
cleared by a worker asks for itself again until it is done); close more days, or
open them again. Refusals are 400 with the reason and nothing saved; everyone else
gets 404."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from core.forms import submit
from people.access import role_required
from people.roles import Role

from . import services_closures as services
from .forms_closures import ClosureForm
from .selectors_closures import access_closure, closures_not_over, closures_past


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def closed_days(request):
    return _page(request, ClosureForm())


def _page(request, form, *, status=200):
    context = {
        "form": form,
        "ahead": closures_not_over(),
        "past": closures_past(),
        "longest": services.LONGEST_DAYS,
    }
    return render(request, "cadence/closed_days.html", context, status=status)


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def closure_new(request):
    form = ClosureForm(request.POST)
    ok, closure = submit(form, lambda data: services.closure_create(actor=request.user, **data))
    if ok:
        messages.success(request, f"Closed: {closure.name}. {removal_said(closure)}")
        return redirect("cadence:closed_days")
    return _page(request, form, status=400)


def removal_said(closure) -> str:
    removed = closure.removed
    if removed is None:
        return (
            "No more sessions will be planned on those days; those already planned are "
            "being removed, and the list below says how many when it is done."
        )
    if not removed:
        return "Nothing was planned on those days; nothing will be."
    return (
        f"{removed} planned session{'' if removed == 1 else 's'} on those days "
        f"{'was' if removed == 1 else 'were'} removed; no more will be planned."
    )


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def closure_remove(request, pk: int):
    closure = access_closure(pk=pk)
    services.closure_remove(actor=request.user, closure=closure)
    messages.success(
        request,
        f"Open again: {closure.name}. The plans' sessions on those days come back with "
        "the next planning run, within the hour.",
    )
    return redirect("cadence:closed_days")
