"""Asking for a peer, through the outbox: when someone asks, their manager — who may
pair them — is told, by email and in the app, that they asked. Rows are references;
the message is rendered when sent and names who asked, never what they wrote (that is
on Form a pair, for whoever may pair them)."""

from notifications.models import Notification, NotificationKind
from notifications.services import enqueue
from peers.models import PeerRequest
from people.models import User


def asked_queue(*, request: PeerRequest) -> int:
    # Their manager as the database has it now, not as the caller's copy of them does.
    manager = User.objects.filter(direct_reports=request.person_id, is_active=True).first()
    if manager is None:
        return 0
    row = Notification(kind=NotificationKind.PEER_ASKED, peer_request=request, recipient=manager)
    return enqueue([row])


def still_asking(row: Notification) -> bool:
    """Not worth an email once the recipient may no longer pair them (a new manager)
    or they left; a withdrawn or answered request took the row with it."""
    return (
        PeerRequest.objects.visible_to(row.recipient)
        .filter(pk=row.peer_request_id, person__is_active=True)
        .exclude(person=row.recipient)
        .exists()
    )
