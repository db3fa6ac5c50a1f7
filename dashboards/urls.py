from django.urls import path

from . import views_growth, views_home, views_hr, views_team

app_name = "dashboards"

urlpatterns = [
    path("", views_home.home, name="home"),
    path("programme/", views_home.home_programme, name="home_programme"),
    path("me/", views_growth.home_rep, name="home_rep"),
    path("team/", views_team.home_manager, name="home_manager"),
    path("team/managers/<int:pk>/", views_team.team_manager, name="team_manager"),
    path("team/skills/", views_team.skills_below, name="team_skills_below"),
    path("hr/", views_hr.home_hr, name="home_hr"),
    path("hr/teams/<int:pk>/", views_hr.team_health, name="hr_team"),
    path("hr/skills/", views_hr.skills_hr, name="hr_skills"),
    path("hr/skills/export.csv", views_hr.skills_export, name="hr_skills_export"),
    path("hr/skills/lift.csv", views_hr.skills_lift_export, name="hr_skills_lift_export"),
    path("hr/peers/", views_hr.peers_hr, name="hr_peers"),
    path("hr/peers/export.csv", views_hr.peers_export, name="hr_peers_export"),
    path("hr/feedback/", views_hr.feedback_hr, name="hr_feedback"),
    path("hr/feedback/export.csv", views_hr.feedback_export, name="hr_feedback_export"),
    path("hr/export/<slug:table>.csv", views_hr.organisation_export, name="hr_export"),
    path("hr/teams/<int:pk>/export/<slug:table>.csv", views_hr.team_export, name="hr_team_export"),
]
