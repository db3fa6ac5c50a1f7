"""API routes of the scorecards app, mounted under /api/v1/."""

from rest_framework.routers import SimpleRouter

router = SimpleRouter(use_regex_path=False)

urlpatterns = router.urls
