"""API routes of the feedback app, mounted under /api/v1/."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api, api_requests, api_reviews, api_terms, api_wins

# path() routes with `<int:pk>`, as in coaching.api_urls.
router = SimpleRouter(use_regex_path=False)
router.register("feedback", api.FeedbackViewSet, basename="feedback")
router.register(
    "feedback-requests", api_requests.FeedbackRequestViewSet, basename="feedback-request"
)
router.register("feedback-inbox", api_requests.FeedbackInboxViewSet, basename="feedback-inbox")
router.register("feedback-reviews", api_reviews.FeedbackReviewViewSet, basename="feedback-review")
router.register("wins", api_wins.WinViewSet, basename="win")
router.register(
    "interpretive-terms", api_terms.InterpretiveTermViewSet, basename="interpretive-term"
)

urlpatterns = [
    # The export is a file: its path says so, with no trailing slash.
    path(
        "feedback-reviews/export.csv",
        api_reviews.feedback_review_export,
        name="feedback-review-export",
    ),
    *router.urls,
]
