"""API routes of the notifications app, mounted under /api/v1/: one's own notifications
and email preferences, team channels and the outbox's delivery state."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api_channels, api_inbox, api_outbox

router = SimpleRouter(use_regex_path=False)
api_inbox.register(router)
router.register("team-channels", api_channels.TeamChannelViewSet, basename="team-channel")

urlpatterns = [
    *router.urls,
    path(
        "me/notification-preferences/",
        api_inbox.NotificationPreferenceView.as_view(),
        name="notification-preferences",
    ),
    path("delivery/", api_outbox.DeliveryView.as_view(), name="delivery"),
    path("delivery/retry/", api_outbox.DeliveryRetryView.as_view(), name="delivery-retry"),
]
