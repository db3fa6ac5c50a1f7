"""API routes of the dashboards, mounted under /api/v1/."""

from django.urls import path

from . import api_hr, api_team

urlpatterns = [
    path("dashboards/team/", api_team.MyTeamView.as_view(), name="dashboards-team"),
    path(
        "dashboards/team/<int:manager_id>/",
        api_team.ManagerTeamView.as_view(),
        name="dashboards-team-manager",
    ),
    path("dashboards/managers/", api_team.ManagersView.as_view(), name="dashboards-managers"),
    path("dashboards/growth/", api_team.GrowthView.as_view(), name="dashboards-growth"),
    path("dashboards/skills/", api_hr.SkillsBelowView.as_view(), name="dashboards-skills"),
    path(
        "health/organisation/",
        api_hr.OrganisationHealthView.as_view(),
        name="health-organisation",
    ),
    path("health/teams/", api_hr.TeamsHealthView.as_view(), name="health-teams"),
    path("health/teams/<int:pk>/", api_hr.TeamHealthView.as_view(), name="health-team"),
    path("health/attention/", api_hr.AttentionView.as_view(), name="health-attention"),
    path("health/skills/", api_hr.SkillsView.as_view(), name="health-skills"),
    path("health/peers/", api_hr.PeersView.as_view(), name="health-peers"),
    path("health/feedback/", api_hr.FeedbackView.as_view(), name="health-feedback"),
]
