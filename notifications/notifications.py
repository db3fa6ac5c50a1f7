"""The one notification kind this app owns (`kinds`): a team channel's test message,
posted when a programme admin connects or tests the channel."""

from . import kinds
from .models import Notification, NotificationKind


def channel_test(row: Notification) -> str:
    return (
        f"Tandem is connected to {row.team.name}'s channel: the team's call review "
        "reminders and a weekly digest will appear here — names, times and counts, "
        "never anyone's words."
    )


def register() -> None:
    kinds.register(kinds.Kind(NotificationKind.CHANNEL_TEST, team_text=channel_test))
