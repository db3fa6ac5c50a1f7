"""iCalendar (RFC 5545) for a person's sessions: the private subscription feed and a
single-session download. Built with the `icalendar` package, never by hand.

What an event carries, and nothing more: who (names only), when (in the reader's own
time zone), a link to the session page, and — for the coachee of a session still to
come — a link to prepare. Notes, private notes, agenda items and commitments never
reach a calendar: calendars get shared, synced to phones and shown on lock screens.

Reads with rules live here too, so the views stay one call each:
`calendar_feed_ical` authenticates by token (404 otherwise), `session_ical` goes
through `CoachingSession.objects.visible_to` (404 for outsiders)."""

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar, Event, vCalAddress, vDuration, vText

from coaching.models import (
    RUNNING_ROLES,
    CoachingSession,
    ParticipantRole,
    SessionChange,
    SessionStatus,
)
from coaching.selectors import access_session, sessions_of
from people.models import User

from .models import CalendarFeed

FEED_PAST = timedelta(days=14)
FEED_AHEAD = timedelta(weeks=12)
PRODID = "-//Tandem//Coaching sessions//EN"
# How often subscribed clients should look again (most take it as a hint only).
REFRESH = timedelta(hours=1)


# --- Reads ---------------------------------------------------------------------------


def feed_of(*, person: User) -> CalendarFeed | None:
    return CalendarFeed.objects.filter(person=person).first()


def feed_by_token(*, token: str) -> CalendarFeed:
    """The feed for `token` with its owner, or 404 (unknown, revoked or rotated token,
    or a deactivated person). One query."""
    return get_object_or_404(
        CalendarFeed.objects.select_related("person").filter(person__is_active=True),
        token=token,
    )


def feed_sessions(*, person: User, now: datetime) -> list[CoachingSession]:
    """Sessions `person` takes part in, from 14 days ago to 12 weeks ahead, with
    people loaded: two queries, whatever the number of sessions."""
    return list(
        sessions_of(person=person)
        .filter(scheduled_start__gte=now - FEED_PAST, scheduled_start__lt=now + FEED_AHEAD)
        .order_by("scheduled_start", "pk")
    )


# --- Building ------------------------------------------------------------------------


def _site() -> tuple[str, str]:
    base = settings.SITE_URL.rstrip("/")
    return base, urlsplit(base).hostname or "localhost"


def absolute(path: str) -> str:
    return _site()[0] + path


def feed_url(feed: CalendarFeed) -> str:
    return absolute(reverse("cadence:calendar_feed", args=[feed.token]))


def webcal_url(feed: CalendarFeed) -> str:
    """The same address with the scheme calendar apps open as "subscribe"."""
    return "webcal://" + feed_url(feed).split("://", 1)[1]


def event_uid(session: CoachingSession) -> str:
    """Stable for the life of the session, so moving or cancelling it updates the
    event already in people's calendars instead of adding a second one."""
    return f"session-{session.pk}@{_site()[1]}"


def event_sequence(session: CoachingSession) -> int:
    """RFC 5545 SEQUENCE: the session's counter, which every move and cancellation
    raises (`coaching.services`), so the feed and the emailed updates agree and a
    second move is newer than the first."""
    return session.sequence


def _names(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def event_summary(session: CoachingSession, reader: User) -> str:
    """ "Weekly 1:1 with Aisha Bello": the kind and the other people's names only."""
    label = session.get_kind_display()
    others = [p.person.display_name for p in session.participants.all() if p.person_id != reader.pk]
    if not others:
        return label
    if len(others) <= 3:
        return f"{label} with {_names(others)}"
    if session.team is not None:
        return f"{label} · {session.team.name}"
    return f"{label} with {', '.join(others[:2])} and {len(others) - 2} others"


def _event(session: CoachingSession, *, reader: User, tz: ZoneInfo, stamp: datetime) -> Event:
    start = session.scheduled_start
    # From the duration, not `scheduled_end`: the session row is the source of truth
    # for start and length whatever else keeps that column.
    end = start + timedelta(minutes=session.duration_minutes)
    cancelled = session.status == SessionStatus.CANCELLED
    event = Event()
    event.add("uid", event_uid(session))
    event.add("dtstamp", stamp)
    event.add("sequence", event_sequence(session))
    event.add("dtstart", start.astimezone(tz))
    event.add("dtend", end.astimezone(tz))
    event.add("summary", event_summary(session, reader))
    event.add("url", absolute(reverse("coaching:session_detail", args=[session.pk])))
    # Held and missed sessions stay as past events; a cancelled one is marked so that
    # calendars strike or remove it, and it no longer blocks the time.
    event.add("status", "CANCELLED" if cancelled else "CONFIRMED")
    event.add("transp", "TRANSPARENT" if cancelled else "OPAQUE")
    is_coachee = any(
        p.person_id == reader.pk and p.role == ParticipantRole.COACHEE
        for p in session.participants.all()
    )
    if is_coachee and session.status == SessionStatus.SCHEDULED:
        prepare = absolute(reverse("coaching:session_prepare", args=[session.pk]))
        event.add("description", f"Prepare for this session: {prepare}")
    return event


def _calendar(
    sessions: list[CoachingSession], *, reader: User, name: str, first: date, last: date
) -> bytes:
    tz = ZoneInfo(reader.time_zone)
    stamp = timezone.now().astimezone(ZoneInfo("UTC")).replace(microsecond=0)
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", reader.time_zone)
    # Properties icalendar has no type for: say they are durations, or they are
    # written as Python's "1:00:00".
    calendar.add("refresh-interval", vDuration(REFRESH), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH))
    for session in sessions:
        calendar.add_component(_event(session, reader=reader, tz=tz, stamp=stamp))
    # VTIMEZONE for the reader's zone (UTC needs none: times are written with "Z"),
    # limited to the dates the events span, and put first for picky clients.
    calendar.add_missing_timezones(first_date=first, last_date=last)
    calendar.subcomponents.sort(key=lambda component: component.name != "VTIMEZONE")
    return calendar.to_ical()


def calendar_feed_ical(*, token: str) -> bytes:
    """The whole subscription feed for a token: three queries (feed and person,
    sessions, participants with people), whatever the number of sessions."""
    feed = feed_by_token(token=token)
    now = timezone.now()
    return _calendar(
        feed_sessions(person=feed.person, now=now),
        reader=feed.person,
        name="Tandem coaching sessions",
        first=(now - FEED_PAST - timedelta(days=2)).date(),
        last=(now + FEED_AHEAD + timedelta(days=2)).date(),
    )


def session_ical(*, user: User, pk: int) -> bytes:
    """One session as a calendar file, in `user`'s time zone — 404 unless they may see
    the session."""
    session = access_session(user=user, pk=pk)
    return _calendar(
        [session],
        reader=user,
        name=event_summary(session, user),
        first=(session.scheduled_start - timedelta(days=2)).date(),
        last=(session.scheduled_start + timedelta(days=2)).date(),
    )


# --- Invitations and updates by email (iTIP, RFC 5546) ----------------------------------


def _address(name: str, email: str, *, role: str | None = None) -> vCalAddress:
    address = vCalAddress(f"mailto:{email}")
    address.params["cn"] = vText(name)
    if role is not None:
        address.params["role"] = vText(role)
        address.params["partstat"] = vText("NEEDS-ACTION")
        # Tandem reads no replies: the session page is where it is moved or cancelled.
        address.params["rsvp"] = vText("FALSE")
    return address


def _organizer(session: CoachingSession) -> User | None:
    """Whoever runs the session (coach, host, manager), else its first participant."""
    participants = list(session.participants.all())
    runner = next((p.person for p in participants if p.role in RUNNING_ROLES), None)
    return runner or (participants[0].person if participants else None)


def itip_ical(
    session: CoachingSession, *, reader: User, change: SessionChange | None = None
) -> tuple[str, bytes]:
    """The calendar part of an invitation or change email: `(method, file)`.

    METHOD:REQUEST invites (no `change`) or moves the event; METHOD:CANCEL removes it.
    The UID is the feed's, so the event already in the reader's calendar is the one
    updated; a move carries the time and SEQUENCE of its own change (a later change's
    email, with a higher SEQUENCE, wins whatever order they arrive in). In the reader's
    zone with its VTIMEZONE; ORGANIZER and ATTENDEEs by name and address, as iTIP
    needs — the same people the session page shows them; never notes."""
    organizer = _organizer(session)
    return _itip(
        ItipEvent(
            uid=event_uid(session),
            sequence=change.sequence if change else session.sequence,
            start=change.to_start if change else session.scheduled_start,
            minutes=change.to_minutes if change else session.duration_minutes,
            summary=event_summary(session, reader),
            cancelled=change is not None and change.kind == "cancelled",
            organizer=_contact(organizer) if organizer is not None else None,
            attendees=[_contact(p.person) for p in session.participants.all()],
            url=absolute(reverse("coaching:session_detail", args=[session.pk])),
        ),
        reader=reader,
    )


def withdrawal_facts(session: CoachingSession, *, reader: User) -> dict:
    """What `itip_withdrawn` will need once `session` is gone, as JSON: its UID, a
    SEQUENCE above any it was sent with, time, length, the summary `reader` was sent
    and the people (names and addresses). Participants prefetched: no query."""
    organizer = _organizer(session)
    return {
        "uid": event_uid(session),
        "sequence": session.sequence + 1,
        "start": session.scheduled_start.isoformat(),
        "minutes": session.duration_minutes,
        "summary": event_summary(session, reader),
        "organizer": list(_contact(organizer)) if organizer is not None else None,
        "attendees": [list(_contact(p.person)) for p in session.participants.all()],
    }


def itip_withdrawn(facts: dict, *, reader: User) -> tuple[str, bytes]:
    """METHOD:CANCEL for a session the cadence took back after inviting to it (its
    plan changed or ended, its day was closed): the session is gone, so the event is
    rebuilt from what was kept of it when it went (`cadence.withdrawals`)."""
    return _itip(
        ItipEvent(
            uid=facts["uid"],
            sequence=facts["sequence"],
            start=datetime.fromisoformat(facts["start"]),
            minutes=facts["minutes"],
            summary=facts["summary"],
            cancelled=True,
            organizer=tuple(facts["organizer"]) if facts.get("organizer") else None,
            attendees=[tuple(a) for a in facts["attendees"]],
        ),
        reader=reader,
    )


def _contact(person: User) -> tuple[str, str]:
    return person.display_name, person.email


@dataclass(frozen=True)
class ItipEvent:
    uid: str
    sequence: int
    start: datetime
    minutes: int
    summary: str
    cancelled: bool
    organizer: tuple[str, str] | None  # (name, email)
    attendees: list[tuple[str, str]]
    url: str | None = None


def _itip(facts: ItipEvent, *, reader: User) -> tuple[str, bytes]:
    method = "CANCEL" if facts.cancelled else "REQUEST"
    tz = ZoneInfo(reader.time_zone)
    stamp = timezone.now().astimezone(ZoneInfo("UTC")).replace(microsecond=0)
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", method)
    event = Event()
    event.add("uid", facts.uid)
    event.add("dtstamp", stamp)
    event.add("sequence", facts.sequence)
    event.add("dtstart", facts.start.astimezone(tz))
    event.add("dtend", (facts.start + timedelta(minutes=facts.minutes)).astimezone(tz))
    event.add("summary", facts.summary)
    if facts.url:
        event.add("url", facts.url)
    event.add("status", "CANCELLED" if facts.cancelled else "CONFIRMED")
    if facts.organizer is not None:
        event.add("organizer", _address(*facts.organizer))
    for name, email in facts.attendees:
        event.add("attendee", _address(name, email, role="REQ-PARTICIPANT"))
    calendar.add_component(event)
    calendar.add_missing_timezones(
        first_date=(facts.start - timedelta(days=2)).date(),
        last_date=(facts.start + timedelta(days=2)).date(),
    )
    calendar.subcomponents.sort(key=lambda component: component.name != "VTIMEZONE")
    return method, calendar.to_ical()
