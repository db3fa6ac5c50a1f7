"""API routes of the dashboards, mounted under /api/v1/."""

from django.urls import path

from . import api_hr

urlpatterns = [
    path(
        "health/organisation/",
        api_hr.OrganisationHealthView.as_view(),
        name="health-organisation",
    ),
    path("health/teams/", api_hr.TeamsHealthView.as_view(), name="health-teams"),
    path("health/teams/<int:pk>/", api_hr.TeamHealthView.as_view(), name="health-team"),
    path("health/attention/", api_hr.AttentionView.as_view(), name="health-attention"),
]
