"""Each kind's line in the in-app list is declared by the app that owns the kind
(`notifications.kinds`): the list has no branch per kind, so a kind a person can
receive without a line would show its bare label."""

from notifications import kinds
from notifications.models import NotificationKind

# Posted to a team's channel, never to a person's list.
TEAM_ONLY = {
    NotificationKind.TEAM_REMINDER,
    NotificationKind.TEAM_DIGEST,
    NotificationKind.CHANNEL_TEST,
}


def test_every_kind_a_person_receives_declares_its_line():
    missing = [
        value
        for value in NotificationKind.values
        if value not in TEAM_ONLY and kinds.of(value).line is None
    ]
    assert missing == []
