"""Peer pair invitations through the outbox: when a pair is formed, each member (but
whoever formed it, if they are in it) is told, by email and in the app, that an
agreement waits for them. Rows are references; the message is rendered when sent and
names who formed the pair and who is in it — never anything the pair writes."""

from notifications.models import Notification, NotificationKind
from notifications.services import enqueue
from peers.models import PairMember, PeerPair


def invited_queue(*, pair: PeerPair, actor=None) -> int:
    people = PairMember.objects.filter(
        pair=pair, left_at__isnull=True, accepted_at__isnull=True, person__is_active=True
    ).values_list("person_id", flat=True)
    rows = [
        Notification(kind=NotificationKind.PAIR_INVITED, pair=pair, recipient_id=person_id)
        for person_id in people
        if actor is None or person_id != actor.pk
    ]
    return enqueue(rows)


def still_invited(row: Notification) -> bool:
    """Not worth an email once they answered, left, or the pair ended."""
    return PairMember.objects.filter(
        pair_id=row.pair_id,
        person_id=row.recipient_id,
        accepted_at__isnull=True,
        left_at__isnull=True,
        pair__ended_at__isnull=True,
    ).exists()
