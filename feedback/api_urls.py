"""API routes of the feedback app, mounted under /api/v1/."""

from rest_framework.routers import SimpleRouter

from . import api

# path() routes with `<int:pk>`, as in coaching.api_urls.
router = SimpleRouter(use_regex_path=False)
router.register("feedback", api.FeedbackViewSet, basename="feedback")
router.register("feedback-requests", api.FeedbackRequestViewSet, basename="feedback-request")
router.register("feedback-inbox", api.FeedbackInboxViewSet, basename="feedback-inbox")
router.register("wins", api.WinViewSet, basename="win")
router.register("interpretive-terms", api.InterpretiveTermViewSet, basename="interpretive-term")

urlpatterns = router.urls
