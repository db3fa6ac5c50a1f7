"""Pairs and requests for a peer through the outbox. When a pair is formed each member
(but whoever formed it, if they are in it) is told, by email and in the app, that an
agreement waits for them; when someone asks for a peer, their manager — who may pair
them — is told that they asked. Rows are references; the message is rendered when it
is sent and names people and the pair's rhythm — never anything a pair writes, nor
what someone asking wrote (that is on Form a pair, for whoever may pair them).

The two kinds are declared here (`notifications.kinds`), registered at the app's
`ready()`, which connects `pair_formed` and `peer_requested` to their producers."""

from django.urls import reverse

from notifications import kinds
from notifications.delivery import absolute
from notifications.models import Notification, NotificationKind
from notifications.services import enqueue
from people.models import User

from .models import PairMember, PeerPair, PeerRequest
from .selectors import cadence_text

# --- Invited to a pair -----------------------------------------------------------------


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


def invite_members(sender, pair, actor=None, **kwargs):
    """`pair_formed`'s receiver."""
    invited_queue(pair=pair, actor=actor)


def pair_invited(row: Notification, context: dict) -> dict | None:
    if not still_invited(row):
        return None  # answered, left or ended meanwhile
    person, pair = row.recipient, row.pair
    partners = [
        m.person.display_name
        for m in pair.members.filter(left_at__isnull=True).select_related("person")
        if m.person_id != person.pk
    ]
    when = cadence_text(pair)
    context.update(
        pair=pair,
        formed_by=pair.created_by,
        partners_names=", ".join(partners),
        cadence_text=when[:1].lower() + when[1:],
        pair_url=absolute(reverse("peers:pair_detail", args=[pair.pk])),
    )
    return context


def pair_invited_line(row: Notification, viewer: User) -> kinds.Line:
    return kinds.Line(
        f"{row.get_kind_display()}: formed by {row.pair.created_by.display_name}",
        reverse("peers:pair_detail", args=[row.pair_id]),
    )


# --- Asked for a peer ------------------------------------------------------------------


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


def tell_manager(sender, request, **kwargs):
    """`peer_requested`'s receiver."""
    asked_queue(request=request)


def peer_asked(row: Notification, context: dict) -> dict | None:
    if not still_asking(row):
        return None  # they may no longer be paired by this person
    context.update(asked=row.peer_request.person, pair_new_url=absolute(reverse("peers:pair_new")))
    return context


def peer_asked_line(row: Notification, viewer: User) -> kinds.Line:
    # Who asked, never what they wrote.
    return kinds.Line(
        f"{row.get_kind_display()}: {row.peer_request.person.display_name}",
        reverse("peers:pair_new"),
    )


def register() -> None:
    kinds.register(
        kinds.Kind(
            NotificationKind.PAIR_INVITED,
            message=pair_invited,
            line=pair_invited_line,
            related=("pair__created_by",),
        ),
        kinds.Kind(
            NotificationKind.PEER_ASKED,
            message=peer_asked,
            line=peer_asked_line,
            related=("peer_request__person",),
        ),
    )
