from django.urls import include, path

from . import (
    views,
    views_closures,
    views_plans,
    views_policies,
    views_policy_editor,
)

app_name = "cadence"

urlpatterns = [
    # The calendar pages and feeds come first, as they did when config included them.
    path("", include("cadence.urls_calendar")),
    path("cadence/", views.my_cadence, name="my_cadence"),
    path("cadence/plans/<int:pk>/edit/", views.plan_edit, name="plan_edit"),
    path("cadence/plans/<int:pk>/pause/", views.plan_pause, name="plan_pause"),
    path("cadence/plans/<int:pk>/end/", views.plan_end, name="plan_end"),
    path("cadence/plans/<int:pk>/restart/", views.plan_restart, name="plan_restart"),
    path("me/digests/<str:period>/", views.digest_detail, name="digest_detail"),
    path("programme/cadence/", views_policies.team_cadence, name="team_cadence"),
    path("programme/cadence/policies/new/", views_policy_editor.policy_new, name="policy_new"),
    path(
        "programme/cadence/policies/<int:pk>/", views_policy_editor.policy_edit, name="policy_edit"
    ),
    path(
        "programme/cadence/teams/<int:pk>/apply/",
        views_policies.team_policy_apply,
        name="team_policy_apply",
    ),
    path(
        "programme/cadence/teams/<int:pk>/end/",
        views_policies.team_policy_end,
        name="team_policy_end",
    ),
    path("programme/plans/", views_plans.plan_list, name="programme_plans"),
    path("programme/plans/<int:pk>/", views_plans.plan_detail, name="programme_plan"),
    path("programme/closed-days/", views_closures.closed_days, name="closed_days"),
    path("programme/closed-days/new/", views_closures.closure_new, name="closure_new"),
    path(
        "programme/closed-days/<int:pk>/remove/",
        views_closures.closure_remove,
        name="closure_remove",
    ),
    path("", include("cadence.urls_rollout")),
]
