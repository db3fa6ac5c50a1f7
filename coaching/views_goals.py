"""Development goals in the browser: "My goals" for the owner, the same list on a
coachee's page for the people above them, an edit page, and close / reopen buttons.

Everything a goal's owner can do, the people above them can do too (a coach writes
the goal down in the 1:1). Refusals come back as 400 on the page they came from."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from core.forms import submit
from people.models import User
from people.selectors import access_person

from . import selectors, services
from .forms import GoalCloseForm, GoalForm
from .models import Goal
from .views_person import goals_context, render_person


def goals_page_url(owner: User, viewer: User) -> str:
    """Where someone's goals are listed for this viewer."""
    if owner.pk == viewer.pk:
        return reverse("coaching:goal_list")
    return reverse("coaching:person_detail", args=[owner.pk]) + "#goals-heading"


def _render_goal_list(request, *, form=None, error=None, status=200):
    context = goals_context(viewer=request.user, owner=request.user, form=form)
    return render(
        request, "coaching/goal_list.html", {**context, "goal_error": error}, status=status
    )


def _create(request, owner: User):
    """Create from the posted form; on a refusal, the form with its errors."""
    form = GoalForm(request.POST, owner=owner)
    ok, _ = submit(form, lambda data: services.goal_create(owner=owner, actor=request.user, **data))
    return None if ok else form


@require_http_methods(["GET", "POST"])
def goal_list(request):
    """My goals: what I am working on, what I achieved or let go of, and a new one."""
    if request.method == "GET":
        return _render_goal_list(request)
    form = _create(request, request.user)
    if form is not None:
        return _render_goal_list(request, form=form, status=400)
    messages.success(request, "Goal added. Bring it to your next 1:1.")
    return redirect("coaching:goal_list")


@require_POST
def person_goal_add(request, pk):
    """A coach writes down the goal a coachee named."""
    person = access_person(user=request.user, pk=pk)
    if person.pk == request.user.pk:
        return goal_list(request)
    form = _create(request, person)
    if form is not None:
        return render_person(request, person, goal_form=form, status=400)
    messages.success(request, f"Goal added for {person.display_name}.")
    return redirect(goals_page_url(person, request.user))


@require_http_methods(["GET", "POST"])
def goal_edit(request, pk):
    goal = selectors.access_goal(user=request.user, pk=pk)
    status = 200
    if request.method == "POST":
        form = GoalForm(request.POST, owner=goal.owner, kept_focus_area=goal.focus_area)
        ok, _ = submit(
            form, lambda data: services.goal_update(goal=goal, actor=request.user, **data)
        )
        if ok:
            messages.success(request, "Goal saved.")
            return redirect(goals_page_url(goal.owner, request.user))
        status = 400
    else:
        form = GoalForm(
            owner=goal.owner,
            kept_focus_area=goal.focus_area,
            initial={"title": goal.title, "success": goal.success, "focus_area": goal.focus_area},
        )
    return render(request, "coaching/goal_edit.html", {"goal": goal, "form": form}, status=status)


def _after_change(request, goal: Goal, error: list[str] | None, done: str):
    if error is None:
        messages.success(request, done)
        return redirect(goals_page_url(goal.owner, request.user))
    if goal.owner_id == request.user.pk:
        return _render_goal_list(request, error=error, status=400)
    return render_person(request, goal.owner, goal_error=error, status=400)


@require_POST
def goal_close(request, pk):
    goal = selectors.access_goal(user=request.user, pk=pk)
    form = GoalCloseForm(request.POST)
    error = None
    if not form.is_valid():
        error = [e for errors in form.errors.values() for e in errors]
    else:
        try:
            goal = services.goal_close(
                goal=goal, actor=request.user, status=form.cleaned_data["status"]
            )
        except ValidationError as exc:
            error = exc.messages
    done = "Achieved — well done." if goal.status == "achieved" else "Goal dropped."
    return _after_change(request, goal, error, done)


@require_POST
def goal_reopen(request, pk):
    goal = selectors.access_goal(user=request.user, pk=pk)
    error = None
    try:
        goal = services.goal_reopen(goal=goal, actor=request.user)
    except ValidationError as exc:
        error = exc.messages
    return _after_change(request, goal, error, "Back to working on it.")
