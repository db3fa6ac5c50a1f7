"""A coachee's page for the people above them (`person_detail`), rendered again by the
goal views when a goal form comes back with errors, and the goals part of it that
"My goals" shows too. Below views.py and views_goals.py, which both render it."""

from django.core.paginator import Paginator
from django.shortcuts import render

from core.paging import page_asked
from people.models import User

from . import person_page, selectors, selectors_goals
from .forms import GoalForm
from .models import MAX_ACTIVE_GOALS
from .views_diagnosis import diagnosis_context


def goals_context(*, viewer: User, owner: User, form: GoalForm | None = None) -> dict:
    goals = list(selectors.goals_of(viewer=viewer, owner=owner))
    active = [g for g in goals if g.is_active]
    return {
        "goals_active": active,
        "goals_closed": [g for g in goals if not g.is_active],
        "goal_form": form or GoalForm(owner=owner),
        "goal_room": len(active) < MAX_ACTIVE_GOALS,
        "goal_limit": MAX_ACTIVE_GOALS,
        "goal_owner": owner,
    }


# A person's sessions under every manager they had, a page at a time.
HISTORY_PER_PAGE = 50


def render_person(request, person, *, goal_form=None, goal_error=None, status=200):
    """A coachee's page for the people above them: goals, open commitments, and the
    coaching history under every manager they had (`?page=`: a bad number is a 400
    saying so, the first page shown)."""
    number, history_error = page_asked(request.GET.get("page"))
    if history_error:
        status = 400
    history = Paginator(
        selectors.coaching_history(viewer=request.user, person=person), HISTORY_PER_PAGE
    ).get_page(number)
    return render(
        request,
        "coaching/person_detail.html",
        {
            "person": person,
            "notes_goal": selectors_goals.current_goal(person=person),
            **goals_context(viewer=request.user, owner=person, form=goal_form),
            "goal_error": goal_error,
            "commitments": list(selectors.commitments_of(viewer=request.user, owner=person)),
            "close_rate": selectors.close_rate_of(person=person),
            "history": history,
            "history_error": history_error,
            **person_page.panels(viewer=request.user, person=person),
            **diagnosis_context(viewer=request.user, person=person),
        },
        status=status,
    )
