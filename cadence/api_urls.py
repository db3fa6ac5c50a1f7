"""API routes of the cadence app, mounted under /api/v1/."""

from rest_framework.routers import SimpleRouter

from . import api_rollout

router = SimpleRouter(use_regex_path=False)
api_rollout.register(router)

urlpatterns = router.urls
