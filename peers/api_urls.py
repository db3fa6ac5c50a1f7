"""API routes of the peers app, mounted under /api/v1/."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api, api_requests

# path() routes with `<int:pk>`, like the project's other URL patterns.
router = SimpleRouter(use_regex_path=False)
api.register(router)

urlpatterns = [
    *router.urls,
    path("peer-request/", api_requests.PeerRequestView.as_view(), name="peer-request"),
]
