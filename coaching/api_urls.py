"""API routes of the coaching app, mounted under /api/v1/."""

from rest_framework.routers import SimpleRouter

router = SimpleRouter()

urlpatterns = router.urls
