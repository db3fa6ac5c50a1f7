"""State changes of private calendar feeds. The token is the only secret: it is never
written to the audit trail, logs or `__str__`."""

import secrets

from django.db import transaction
from django.utils import timezone

from people.models import User
from people.services_audit import audit_record

from .models import CalendarFeed


def _new_token() -> str:
    # 32 random bytes → 43 URL-safe characters; fits the path converter (slug).
    return secrets.token_urlsafe(32)


@transaction.atomic
def calendar_feed_create_or_rotate(*, person: User) -> CalendarFeed:
    """Give `person` a feed address, or replace the one they have: the old address
    stops working at once (subscribed calendars must be given the new one)."""
    feed, created = CalendarFeed.objects.update_or_create(
        person=person, defaults={"token": _new_token(), "created_at": timezone.now()}
    )
    audit_record(
        actor=person,
        verb="calendar_feed.created",
        target=person,
        data={"rotated": not created},
    )
    return feed


@transaction.atomic
def calendar_feed_revoke(*, person: User) -> bool:
    """Delete the person's feed; returns whether there was one."""
    deleted, _ = CalendarFeed.objects.filter(person=person).delete()
    if deleted:
        audit_record(actor=person, verb="calendar_feed.revoked", target=person)
    return bool(deleted)


def calendar_feeds_delete(*, person: User) -> int:
    """Delete the person's feed without an event of its own (their deactivation is the
    audited act); returns how many there were."""
    deleted, _ = CalendarFeed.objects.filter(person=person).delete()
    return deleted


def session_download_record(*, person: User, session_id: int, ip: str | None = None) -> None:
    """A session downloaded as a calendar file is an export like any other: audited
    (the session's id, never its notes). Fetches of the feed itself are not — calendar
    apps poll it every few minutes; its creation, rotation and revocation are."""
    audit_record(
        actor=person, verb="calendar.session_downloaded", data={"session_id": session_id}, ip=ip
    )
