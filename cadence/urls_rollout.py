"""Pages of the programme rollout (included by cadence/urls.py)."""

from django.urls import path

from . import views_rollout as views

urlpatterns: list = [
    path("rollout/", views.rollout_overview, name="rollout_overview"),
    path("teams/<int:pk>/rollout/", views.team_rollout, name="team_rollout"),
    path("teams/<int:pk>/rollout/tick/", views.rollout_tick, name="rollout_tick"),
    path("teams/<int:pk>/rollout/untick/", views.rollout_untick, name="rollout_untick"),
]
