"""Email delivery (`/programme/delivery/`), for programme admins: whether reminders,
digests and team-channel messages are going out — what waits and since when (a warning
when nothing has been sending for a while), what is being sent, and what failed for
good, with the error — and sending failed ones again, one or all. Everyone else gets
404. The messages themselves are never stored, so none is shown: a row says what kind
of message went to whom."""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from core.api import MAX_ID
from people.access import role_required
from people.roles import Role

from . import services
from .selectors_outbox import FAILURES_SHOWN, STALLED_AFTER, delivery_state


class RetryForm(forms.Form):
    """One failed notification (`notification`), or, without it, every failed one."""

    notification = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def delivery(request):
    return _page(request)


def _page(request, *, status=200, error=None):
    context = {
        "state": delivery_state(),
        "failures_shown": FAILURES_SHOWN,
        "stalled_minutes": int(STALLED_AFTER.total_seconds() // 60),
        "error": error,
    }
    return render(request, "notifications/delivery.html", context, status=status)


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def delivery_retry(request):
    form = RetryForm(request.POST)
    if not form.is_valid():
        return _page(request, status=400, error="Choose a failed notification, or all of them.")
    one = form.cleaned_data["notification"]
    retried = services.failed_retry(actor=request.user, ids=None if one is None else [one])
    if not retried:
        return _page(request, status=400, error="Nothing failed to send again: it may have "
                     "been sent again already.")  # fmt: skip
    noun = "notification" if retried == 1 else "notifications"
    messages.success(request, f"{retried} {noun} will be sent again in a moment.")
    return redirect("notifications:delivery")
