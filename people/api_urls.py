"""API routes of the people app, mounted under /api/v1/."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api_audit, api_imports, api_people, api_teams

router = SimpleRouter(use_regex_path=False)
api_imports.register(router)
api_teams.register(router)
api_people.register(router)

urlpatterns = [
    path("audit-events/", api_audit.AuditEventList.as_view(), name="audit-events"),
    *router.urls,
]
