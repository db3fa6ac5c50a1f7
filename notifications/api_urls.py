"""API routes of the notifications app, mounted under /api/v1/: team channels and the
outbox's delivery state."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api_channels, api_outbox

router = SimpleRouter(use_regex_path=False)
router.register("team-channels", api_channels.TeamChannelViewSet, basename="team-channel")

urlpatterns = [
    *router.urls,
    path("delivery/", api_outbox.DeliveryView.as_view(), name="delivery"),
    path("delivery/retry/", api_outbox.DeliveryRetryView.as_view(), name="delivery-retry"),
]
