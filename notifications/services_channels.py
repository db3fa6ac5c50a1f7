"""Team channels — a team's Slack- or Teams-compatible incoming webhook, which gets the
team's call review reminders and weekly digest (names, times and counts only) —
connected, changed, switched off and on, tested and removed by programme admins, from
the Team channels page and the API alike.

A webhook address is a credential (whoever holds it can post to the channel), so it
is written, never shown back: pages and the API show its host, and the audit trail
keeps the team, the format and the host."""

from __future__ import annotations

from typing import cast
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import IntegrityError, transaction

from people.models import Team, User
from people.services_audit import audit_record

from .models import Notification, NotificationKind, TeamChannel
from .tasks import kick_senders

URL_LIMIT = cast(int, TeamChannel._meta.get_field("webhook_url").max_length)
_URL = URLValidator(schemes=["https", "http"])


def webhook_host(url: str) -> str:
    """What may be shown of a webhook address: its host, e.g. hooks.slack.com."""
    return urlsplit(url).hostname or ""


def _checked_url(url: str) -> str:
    url = url.strip()
    if not url:
        raise ValidationError({"webhook_url": "Paste the channel's incoming webhook address."})
    if len(url) > URL_LIMIT:
        raise ValidationError({"webhook_url": f"Keep the address under {URL_LIMIT} characters."})
    try:
        _URL(url)
    except ValidationError:
        raise ValidationError(
            {"webhook_url": "Paste the whole address, starting with https://."}
        ) from None
    return url


def _checked_format(format: str) -> str:
    if format not in TeamChannel.Format.values:
        raise ValidationError({"format": "Pick Slack (or compatible) or Microsoft Teams."})
    return format


def _audit(verb: str, channel: TeamChannel, actor: User | None, **data) -> None:
    audit_record(
        actor=actor,
        verb=f"channel.{verb}",
        target=channel.team,
        data={"format": channel.format, "host": webhook_host(channel.webhook_url), **data},
    )


@transaction.atomic
def channel_connect(
    *, actor: User | None, team: Team, webhook_url: str, format: str = TeamChannel.Format.SLACK
) -> TeamChannel:
    """Give a team its channel (switched on). A team has one: connecting another is
    refused — change the one it has."""
    channel = TeamChannel(
        team=team, webhook_url=_checked_url(webhook_url), format=_checked_format(format)
    )
    if TeamChannel.objects.filter(team=team).exists():
        raise ValidationError({"team": f"{team} has a channel already: change that one."})
    try:
        with transaction.atomic():
            channel.save()
    except IntegrityError:  # connected a moment ago by someone else
        raise ValidationError({"team": f"{team} has a channel already: change that one."}) from None
    _audit("connected", channel, actor)
    return channel


@transaction.atomic
def channel_change(
    *,
    actor: User | None,
    channel: TeamChannel,
    webhook_url: str | None = None,
    format: str | None = None,
) -> TeamChannel:
    """A new address (left out or empty: the same) or format. A new address starts
    with a clean record: the old one's last success and failure were not its own."""
    channel = TeamChannel.objects.select_for_update().get(pk=channel.pk)
    changed = []
    if webhook_url and webhook_url.strip() != channel.webhook_url:
        channel.webhook_url = _checked_url(webhook_url)
        channel.last_success_at = channel.last_failure_at = None
        channel.last_error = ""
        changed.append("webhook_url")
    if format is not None and format != channel.format:
        channel.format = _checked_format(format)
        changed.append("format")
    if changed:
        channel.save()
        _audit("changed", channel, actor, fields=changed)
    return channel


@transaction.atomic
def channel_switch(*, actor: User | None, channel: TeamChannel, on: bool) -> TeamChannel:
    """Switch a channel off (nothing is posted; messages for it are skipped) or back on."""
    channel = TeamChannel.objects.select_for_update().get(pk=channel.pk)
    if channel.is_active != on:
        channel.is_active = on
        channel.save(update_fields=["is_active"])
        _audit("switched_on" if on else "switched_off", channel, actor)
    return channel


@transaction.atomic
def channel_remove(*, actor: User | None, channel: TeamChannel) -> None:
    _audit("removed", channel, actor)
    channel.delete()


@transaction.atomic
def channel_test(*, actor: User | None, channel: TeamChannel) -> Notification:
    """Queue a short "Tandem is connected" message for the channel; the outbox posts it
    at once and the channel's last success or failure says how it went."""
    if not channel.is_active:
        raise ValidationError("The channel is switched off: switch it on to test it.")
    row = Notification.objects.create(kind=NotificationKind.CHANNEL_TEST, team=channel.team)
    kick_senders()
    _audit("tested", channel, actor)
    return row
