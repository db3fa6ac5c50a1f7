from django.urls import path

from . import views_channels, views_inbox, views_outbox

app_name = "notifications"

urlpatterns = [
    path("me/notifications/", views_inbox.notification_list, name="notification_list"),
    path("me/notifications/read/", views_inbox.notifications_read, name="notifications_read"),
    path(
        "me/notifications/preferences/",
        views_inbox.notification_preferences,
        name="notification_preferences",
    ),
    path("programme/delivery/", views_outbox.delivery, name="delivery"),
    path("programme/delivery/retry/", views_outbox.delivery_retry, name="delivery_retry"),
    path("programme/channels/", views_channels.team_channels, name="team_channels"),
    path("programme/channels/connect/", views_channels.channel_connect, name="channel_connect"),
    path("programme/channels/<int:pk>/", views_channels.channel_change, name="channel_change"),
    path(
        "programme/channels/<int:pk>/switch/", views_channels.channel_switch, name="channel_switch"
    ),
    path("programme/channels/<int:pk>/test/", views_channels.channel_test, name="channel_test"),
    path(
        "programme/channels/<int:pk>/remove/", views_channels.channel_remove, name="channel_remove"
    ),
]
