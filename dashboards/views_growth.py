"""The rep's page, "My coaching": their growth, what waits on them, what comes next.
Everyone can be coached, so every signed-in person has it."""

from django.shortcuts import render

from coaching import selectors as coaching
from feedback import selectors as feedback
from feedback.models import Stream
from people.selectors import current_teams, management_chain
from scorecards import selectors as scorecards


def home_rep(request):
    user = request.user
    chain = management_chain(person=user)
    return render(
        request,
        "dashboards/growth.html",
        {
            "manager": chain[0] if chain else None,
            "skip_level": chain[1] if len(chain) > 1 else None,
            "teams": current_teams(person=user),
            "goals": list(coaching.goals_of(viewer=user, owner=user).filter(status="active")),
            "goal": coaching.current_goal(person=user),
            "upcoming": coaching.upcoming_sessions(person=user, limit=5),
            "commitments": list(
                coaching.commitments_of(viewer=user, owner=user).filter(status="open")
            ),
            "recent": coaching.recent_sessions(person=user, limit=5),
            "focus_areas": coaching.active_focus_areas(person=user),
            "scorecards_waiting": scorecards.waiting_on(user=user).count(),
            **_feedback_panel(user),
        },
    )


def _feedback_panel(user) -> dict:
    """Requests waiting on me and the latest developmental items I received: two
    queries, whatever the numbers (the list needs no themes or shares)."""
    latest = list(
        feedback.my_feedback(user=user, stream=Stream.DEVELOPMENTAL).prefetch_related(None)[:3]
    )
    for item in latest:
        item.shown_author = feedback.author_shown(item, user)
    return {"feedback_waiting": feedback.inbox(user=user).count(), "feedback_latest": latest}
