"""Scorecard pages: my scorecards, calls, scoring rounds, calibrations, the library."""

from django.urls import path

from . import views

app_name = "scorecards"

urlpatterns = [
    path("scorecards/", views.scorecard_home, name="scorecard_home"),
    path("scorecards/calls/", views.call_list, name="call_list"),
    path("scorecards/calls/new/", views.call_new, name="call_new"),
    path("scorecards/calls/<int:pk>/", views.call_detail, name="call_detail"),
    path("scorecards/calls/<int:pk>/score/", views.call_score, name="call_score"),
    path("scorecards/rounds/<int:pk>/", views.round_detail, name="round_detail"),
    path(
        "scorecards/rounds/<int:pk>/scorecard/",
        views.round_scorecard_save,
        name="round_scorecard_save",
    ),
    path("scorecards/rounds/<int:pk>/decline/", views.round_decline, name="round_decline"),
    path("scorecards/rounds/<int:pk>/close/", views.round_close, name="round_close"),
    path("scorecards/calibrations/", views.calibration_list, name="calibration_list"),
    path("scorecards/calibrations/new/", views.calibration_new, name="calibration_new"),
    path("scorecards/templates/", views.template_list, name="template_list"),
    path("scorecards/templates/new/", views.template_new, name="template_new"),
    path("scorecards/templates/<int:pk>/", views.template_detail, name="template_detail"),
    path("scorecards/templates/<int:pk>/edit/", views.template_edit, name="template_edit"),
    path("scorecards/templates/<int:pk>/retire/", views.template_retire, name="template_retire"),
]
