from django.urls import path

from . import (
    converters,  # noqa: F401 - registers <feedback_ref:…>
    views,
)

app_name = "feedback"

urlpatterns = [
    path("feedback/", views.feedback_mine, name="feedback_mine"),
    path("feedback/give/", views.feedback_give, name="feedback_give"),
    path("feedback/check/", views.feedback_check, name="feedback_check"),
    path("feedback/given/", views.feedback_given, name="feedback_given"),
    path("feedback/shared/", views.feedback_shared, name="feedback_shared"),
    path("feedback/inbox/", views.feedback_inbox, name="feedback_inbox"),
    path("feedback/wins/", views.wins, name="wins"),
    path("feedback/reviews/", views.feedback_reviews, name="feedback_reviews"),
    path(
        "feedback/reviews/export.csv",
        views.feedback_reviews_export,
        name="feedback_reviews_export",
    ),
    path("feedback/<feedback_ref:pk>/", views.feedback_detail, name="feedback_detail"),
    path(
        "feedback/<feedback_ref:pk>/acknowledge/",
        views.feedback_acknowledge,
        name="feedback_acknowledge",
    ),
    path("feedback/<feedback_ref:pk>/share/", views.feedback_share, name="feedback_share"),
    path("feedback/<feedback_ref:pk>/unshare/", views.feedback_unshare, name="feedback_unshare"),
    path("feedback/requests/", views.feedback_requests, name="feedback_requests"),
    path("feedback/requests/new/", views.feedback_request_new, name="feedback_request_new"),
    path(
        "feedback/requests/<int:pk>/",
        views.feedback_request_detail,
        name="feedback_request_detail",
    ),
    path(
        "feedback/requests/<int:pk>/answer/",
        views.feedback_request_answer,
        name="feedback_request_answer",
    ),
    path(
        "feedback/requests/<int:pk>/decline/",
        views.feedback_request_decline,
        name="feedback_request_decline",
    ),
]
