"""API routes of the people app, mounted under /api/v1/."""

from rest_framework.routers import SimpleRouter

from . import api_imports, api_people, api_teams

router = SimpleRouter(use_regex_path=False)
api_imports.register(router)
api_teams.register(router)
api_people.register(router)

urlpatterns = router.urls
