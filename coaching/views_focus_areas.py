"""The programme admin's focus areas (`/programme/focus-areas/`): what is the focus
now, what comes next and what ended; add one, change one, end one today. Programme
admins only — everyone else gets 404, and meets the focus areas where they coach."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.forms import submit
from people.access import role_required
from people.roles import Role

from .forms_focus_areas import FocusAreaForm
from .selectors_focus_areas import access_focus_area, focus_areas_by_state
from .services_focus_areas import focus_area_end, focus_area_save


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def focus_area_list(request):
    return _list(request)


def _list(request, *, error=None, status=200):
    areas = focus_areas_by_state(today=timezone.localdate())
    nothing_now = "No focus area right now: add one, so coaching has a focus."
    sections = [  # title, heading id, areas, when there are none, may end today
        ("Now", "now-heading", areas.now, nothing_now, True),
        ("Coming", "coming-heading", areas.coming, "Nothing planned after the current.", False),
        ("Ended", "ended-heading", areas.ended, "None has ended yet.", False),
    ]
    context = {"sections": sections, "error": error}
    return render(request, "coaching/focus_areas.html", context, status=status)


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def focus_area_new(request):
    return _editor(request, None)


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def focus_area_edit(request, pk: int):
    return _editor(request, access_focus_area(pk=pk))


def _editor(request, area):
    if request.method == "GET":
        initial = FocusAreaForm.initial_for(area) if area else {"starts_on": timezone.localdate()}
        form = FocusAreaForm(initial=initial, user=request.user)
        return render(request, "coaching/focus_area_form.html", {"area": area, "form": form})
    form = FocusAreaForm(request.POST, user=request.user)
    ok, saved = submit(form, lambda data: focus_area_save(actor=request.user, area=area, **data))
    if ok:
        messages.success(request, f"“{saved.name}” saved.")
        return redirect("coaching:focus_area_list")
    context = {"area": area, "form": form}
    return render(request, "coaching/focus_area_form.html", context, status=400)


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def focus_area_end_today(request, pk: int):
    area = access_focus_area(pk=pk)
    try:
        focus_area_end(actor=request.user, area=area)
    except ValidationError as exc:
        return _list(request, error=exc.messages, status=400)
    messages.success(request, f"“{area.name}” ended today; what used it keeps it.")
    return redirect("coaching:focus_area_list")
