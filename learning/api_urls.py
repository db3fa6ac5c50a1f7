"""API routes of the learning app, mounted under /api/v1/."""

from rest_framework.routers import SimpleRouter

from . import api

# path() routes with `<int:pk>`, like the project's other URL patterns.
router = SimpleRouter(use_regex_path=False)
api.register(router)

urlpatterns = router.urls
