"""Plans under Programme (`/programme/plans/`), for programme admins (404 to everyone
else): every plan of the programme — running, paused or ended — found by the coach's,
the coachee's or the team's name and by kind, 25 a page; and one plan's page, where its
day, time and length change, it pauses or resumes, or it ends with a reason. The forms
post to the same views as My cadence (`cadence.views.plan_edit` and the rest), which
come back here (`back`); programme admins may adjust any plan (`services.may_manage`).
A plan holds names and times, never anyone's words."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from core.paging import page_asked
from people.access import request_roles, role_required
from people.roles import Role

from .forms import PlanSearchForm, plan_with_forms
from .selectors_plans import plan_choices, plan_record, plans_page

# The `back` a plan's forms send from its page under Programme.
BACK_TO_PROGRAMME = "programme"


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def plan_list(request):
    search = PlanSearchForm(request.GET)
    valid = search.is_valid()
    data = search.cleaned_data if valid else {}
    q, show, kind = data.get("q", "").strip(), data.get("show", ""), data.get("kind", "")
    number, page_error = page_asked(request.GET.get("page"))
    context = {
        "search": search,
        "q": q,
        "choices": plan_choices(show),
        "page": plans_page(q=q, show=show, kind=kind, page_number=number),
        "page_error": page_error,
        "kept": {"q": q, "show": show, "kind": kind},
    }
    failed = page_error or not valid
    return render(request, "cadence/plan_list.html", context, status=400 if failed else 200)


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def plan_detail(request, pk: int):
    return programme_plan_page(request, pk)


def back_to_programme(request, plan) -> bool:
    """Whether the answer to a change of `plan` goes back to its page under Programme:
    for a programme admin who sent it from there, or who does not run the plan (My
    cadence lists only the plans one runs). Anyone else goes back to My cadence."""
    if Role.PROGRAMME_ADMIN not in request_roles(request):
        return False
    return request.POST.get("back") == BACK_TO_PROGRAMME or plan.coach_id != request.user.pk


def programme_plan_page(request, pk: int, *, status: int = 200, **bound):
    """The plan's page; after a refused change (`bound`: the forms with the input), the
    page again with it, as a 400."""
    plan = plan_with_forms(plan_record(pk), **bound)
    context = {"plan": plan, "back": BACK_TO_PROGRAMME}
    return render(request, "cadence/plan_detail.html", context, status=status)
