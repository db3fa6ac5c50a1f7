"""Team channels (`/programme/channels/`), for programme admins: every team's Slack-
or Teams-compatible channel with its record (last success, last failure and why),
and connect one, change its address or format, switch it off or on, send a test, or
remove it. Refusals are 400 with the reason and nothing saved; everyone else gets
404. The webhook address is a credential: written here, shown only as its host."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from core.forms import submit
from core.paging import page_asked
from people.access import role_required
from people.roles import Role

from . import services_channels as services
from .forms_channels import ChannelChangeForm, ChannelConnectForm, SwitchForm
from .selectors_channels import access_channel, channels_page


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def team_channels(request):
    return _page(request)


def _page(request, *, connect_form=None, bound=None, error=None):
    """The page; `bound` is a channel's change form just refused, shown in its row."""
    number, page_error = page_asked(request.GET.get("page"))
    page = channels_page(page_number=number)
    for channel in page.object_list:
        channel.host = services.webhook_host(channel.webhook_url)
        refused = bound is not None and bound.channel.pk == channel.pk
        channel.change_form = bound if refused else ChannelChangeForm(channel=channel)
    context = {
        "page": page,
        "connect_form": connect_form or ChannelConnectForm(user=request.user),
        "page_error": page_error,
        "error": error,
    }
    failed = error or page_error or bound is not None or (connect_form and connect_form.errors)
    return render(
        request, "notifications/team_channels.html", context, status=400 if failed else 200
    )


def _back(request, channel_pk: int | None = None) -> str:
    page = request.GET.get("page", "")
    query = f"?page={page}" if page.isdigit() else ""
    anchor = f"#channel-{channel_pk}" if channel_pk else ""
    return f"{reverse('notifications:team_channels')}{query}{anchor}"


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def channel_connect(request):
    form = ChannelConnectForm(request.POST, user=request.user)
    ok, channel = submit(form, lambda data: services.channel_connect(actor=request.user, **data))
    if ok:
        messages.success(request, f"{channel.team} is connected. Send a test to see it arrive.")
        return redirect(_back(request, channel.pk))
    return _page(request, connect_form=form)


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def channel_change(request, pk: int):
    channel = access_channel(pk=pk)
    form = ChannelChangeForm(request.POST, channel=channel)
    ok, _ = submit(
        form, lambda data: services.channel_change(actor=request.user, channel=channel, **data)
    )
    if ok:
        messages.success(request, f"{channel.team}'s channel saved.")
        return redirect(_back(request, pk))
    return _page(request, bound=form)


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def channel_switch(request, pk: int):
    channel = access_channel(pk=pk)
    form = SwitchForm(request.POST)
    if not form.is_valid():
        return _page(request, error=[e for errors in form.errors.values() for e in errors])
    on = form.cleaned_data["on"]
    services.channel_switch(actor=request.user, channel=channel, on=on)
    messages.success(
        request,
        f"{channel.team}'s channel is on again."
        if on
        else f"{channel.team}'s channel is off: nothing is posted to it.",
    )
    return redirect(_back(request, pk))


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def channel_test(request, pk: int):
    channel = access_channel(pk=pk)
    try:
        services.channel_test(actor=request.user, channel=channel)
    except ValidationError as exc:
        return _page(request, error=exc.messages)
    messages.success(
        request,
        f"A test message is on its way to {channel.team}'s channel: its last success or "
        "failure below says how it went (reload in a moment).",
    )
    return redirect(_back(request, pk))


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def channel_remove(request, pk: int):
    channel = access_channel(pk=pk)
    team = channel.team
    services.channel_remove(actor=request.user, channel=channel)
    messages.success(request, f"{team}'s channel is removed: nothing more is posted to it.")
    return redirect(_back(request))
