"""A person's own notifications (`/me/notifications/`): one line each, newest first,
fifty a page; "Mark all read"; their email preferences with quiet hours. Each view
parses, calls one service or selector, renders."""

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from core.forms import submit
from core.paging import page_asked
from people.access import request_roles
from people.roles import Role

from .forms_inbox import MarkReadForm, NotificationPreferenceForm
from .selectors_inbox import notifications_page
from .services import notification_preference_save, notifications_mark_read


def _notifications_page(request, status=200, *, form=None, error=None):
    """`?page=`: a bad number is a 400 saying so, the first page shown; past the last,
    the last."""
    number, page_error = page_asked(request.GET.get("page"))
    if page_error:
        status, error = 400, [*(error or []), page_error]
    inbox = notifications_page(user=request.user, page_number=number)
    manages_people = _manages_people(request)
    return render(
        request,
        "notifications/inbox.html",
        {
            "inbox": inbox,
            "form": form
            or NotificationPreferenceForm(instance=inbox.preference, manages_people=manages_people),
            "manages_people": manages_people,
            "error": error,
            "retention_days": settings.NOTIFICATION_RETENTION_DAYS,
        },
        status=status,
    )


@require_GET
def notification_list(request):
    return _notifications_page(request)


@require_POST
def notifications_read(request):
    form = MarkReadForm(request.POST)
    if not form.is_valid():
        return _notifications_page(request, 400, error=["Nothing to mark read."])
    count = notifications_mark_read(person=request.user, up_to=form.cleaned_data["up_to"])
    messages.success(request, f"Marked {count} read." if count else "Nothing new.")
    return redirect("notifications:notification_list")


def _manages_people(request) -> bool:
    return Role.MANAGER in request_roles(request)


@require_POST
def notification_preferences(request):
    form = NotificationPreferenceForm(request.POST, manages_people=_manages_people(request))
    ok, _ = submit(form, lambda data: notification_preference_save(person=request.user, **data))
    if ok:
        messages.success(request, "Preferences saved.")
        return redirect(f"{reverse('notifications:notification_list')}#preferences")
    return _notifications_page(request, 400, form=form)
