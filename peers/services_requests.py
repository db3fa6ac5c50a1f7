"""Asking for a peer: anyone may say they would like a peer to coach with — and what
they would like to work on — so that whoever forms pairs (their team's lead, the
managers above them, programme admins) pairs people who asked, not only people they
picked. Participation stays voluntary both ways: a request can be changed or
withdrawn at any time, and it is answered, and so removed, when a pair of theirs
starts (`peers.services`). A new request tells their manager (`peer_requested`:
`peers.notifications`, through the outbox), who may pair them.

Keyword-only, atomic; a refusal of the person raises `core.errors.Forbidden` (from
`rules`), of the input django's ValidationError (the page shows either, the API answers
403 or 400), and nothing is written."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from coaching.models import FocusArea
from core.errors import Forbidden
from people.models import User

from . import rules, selectors
from .models import REQUEST_NOTE_LIMIT, PeerRequest
from .signals import peer_requested


@transaction.atomic
def peer_request_set(
    *, person: User, note: str = "", focus_area: FocusArea | None = None
) -> PeerRequest:
    """Ask for a peer, or change what one asked (the date asked stays)."""
    if refusal := rules.why_not_ask_for_peer(person):
        raise Forbidden(refusal)
    note = (note or "").strip()
    if len(note) > REQUEST_NOTE_LIMIT:
        raise ValidationError(
            {"note": f"Keep it to {REQUEST_NOTE_LIMIT} characters (it has {len(note)})."}
        )
    if focus_area is not None and not (
        selectors.current_focus_areas().filter(pk=focus_area.pk).exists()
    ):
        raise ValidationError({"focus_area": "Pick a current focus area, or none."})
    now = timezone.now()
    request, created = PeerRequest.objects.update_or_create(
        person=person,
        defaults={"note": note, "focus_area": focus_area, "updated_at": now},
        create_defaults={
            "note": note,
            "focus_area": focus_area,
            "created_at": now,
            "updated_at": now,
        },
    )
    if created:
        peer_requested.send(sender=PeerRequest, request=request)
    return request


@transaction.atomic
def peer_request_withdraw(*, person: User) -> bool:
    """No longer looking for a peer. False when there was nothing to withdraw."""
    deleted, _ = PeerRequest.objects.filter(person=person).delete()
    return bool(deleted)


def peer_requests_answered(*, people: list[int]) -> None:
    """A pair of theirs started: these people's requests are answered (called inside
    the pair's transaction)."""
    PeerRequest.objects.filter(person_id__in=people).delete()
