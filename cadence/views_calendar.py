"""The private calendar feed: the owner's page to create, rotate and revoke it, the
feed itself (public, authenticated by its token) and a one-session download."""

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST, require_safe

from . import calendar, services_calendar

ICAL_TYPE = "text/calendar; charset=utf-8"


@require_GET
def calendar_page(request):
    feed = calendar.feed_of(person=request.user)
    return render(
        request,
        "cadence/calendar.html",
        {
            "feed": feed,
            "feed_url": calendar.feed_url(feed) if feed else None,
            "webcal_url": calendar.webcal_url(feed) if feed else None,
        },
    )


@require_POST
def calendar_feed_create(request):
    had_feed = calendar.feed_of(person=request.user) is not None
    services_calendar.calendar_feed_create_or_rotate(person=request.user)
    if had_feed:
        messages.success(
            request,
            "New address made. The old one stops working now: subscribe again with this one.",
        )
    else:
        messages.success(request, "Your calendar address is ready. Subscribe to it below.")
    return redirect("cadence:calendar_settings")


@require_POST
def calendar_feed_revoke(request):
    services_calendar.calendar_feed_revoke(person=request.user)
    messages.success(request, "Calendar address revoked. Calendars using it get nothing more.")
    return redirect("cadence:calendar_settings")


@login_not_required  # calendar apps cannot sign in: the unguessable token is the key
@require_safe
def calendar_feed(request, token):
    response = HttpResponse(calendar.calendar_feed_ical(token=token), content_type=ICAL_TYPE)
    response["Cache-Control"] = "private, max-age=300"
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_GET
def session_calendar(request, pk):
    response = HttpResponse(calendar.session_ical(user=request.user, pk=pk), content_type=ICAL_TYPE)
    services_calendar.session_download_record(
        person=request.user, session_id=pk, ip=request.META.get("REMOTE_ADDR")
    )
    response["Content-Disposition"] = f'attachment; filename="session-{pk}.ics"'
    response["Cache-Control"] = "private, no-cache"
    return response
