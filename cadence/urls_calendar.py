from django.urls import path

from . import views_calendar as views

urlpatterns = [
    path("me/calendar/", views.calendar_page, name="calendar_settings"),
    path("me/calendar/new/", views.calendar_feed_create, name="calendar_feed_create"),
    path("me/calendar/revoke/", views.calendar_feed_revoke, name="calendar_feed_revoke"),
    # Public: the token (URL-safe base64, hence `slug`) is the credential.
    path("calendar/<slug:token>.ics", views.calendar_feed, name="calendar_feed"),
    path("sessions/<int:pk>/calendar.ics", views.session_calendar, name="session_calendar"),
]
