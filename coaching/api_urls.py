"""API routes of the coaching app, mounted under /api/v1/."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import (
    api,
    api_agenda,
    api_commitments,
    api_diagnosis,
    api_focus_areas,
    api_goals,
    api_since_last,
)

# path() routes with `<int:pk>`, so ids are checked by the resolver and every route
# reads like the project's other URL patterns.
router = SimpleRouter(use_regex_path=False)
router.register("sessions", api.SessionViewSet, basename="session")
router.register("agenda-items", api_agenda.AgendaItemViewSet, basename="agenda-item")
router.register("commitments", api_commitments.CommitmentViewSet, basename="commitment")
router.register("goals", api_goals.GoalViewSet, basename="goal")
router.register("focus-areas", api_focus_areas.FocusAreaViewSet, basename="focus-area")
router.register("prompts", api_focus_areas.PromptViewSet, basename="prompt")

api_diagnosis.register(router)

urlpatterns = [
    *router.urls,
    path(
        "sessions/<int:pk>/since-last/",
        api_since_last.SinceLastView.as_view(),
        name="session-since-last",
    ),
]
