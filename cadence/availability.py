"""Who is free when: one module, one job. A person is free in their working hours (their
own setting, in their own time zone: `people.User.work_days`, `work_starts`,
`work_ends`), outside their other Tandem sessions and off the programme's closed days.

Everything here reads set-based: the busy intervals of any number of people over a
window are one query, the closed days another, whatever the number of people or
sessions; the rest is arithmetic on aware datetimes with zoneinfo (a local day and
its working hours are read in each person's own zone, so a daylight-saving change in
the week moves the hours with the clock, as it does for them).

Used by the move and cancel pages (`session_free_slots`: the slots in the session's
week free for everyone in it — a move inside its week is kept, `cadence.health`), by
every move (`why_not_move`: a clash or a closed day is refused, naming it) and by
applying a policy (`cadence.placement`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.utils import timezone
from django.utils.formats import date_format

from coaching.models import (
    CoachingSession,
    ParticipantRole,
    SessionKind,
    SessionParticipant,
    SessionStatus,
)
from people.models import User

from .health import week_of
from .models import Closure

# Free slots start on the hour and the half hour (UTC: every zone's hours too, but for
# the few with a quarter-hour offset).
STEP = timedelta(minutes=30)
# The longest a session lasts: one starting this long before a window may reach into it.
LONGEST = timedelta(minutes=480)
# What does not hold anyone's time: a cancelled session is free time again.
NOT_BUSY = [SessionStatus.CANCELLED]


@dataclass(frozen=True)
class Busy:
    person_id: int
    start: datetime
    end: datetime
    session_id: int
    kind: str


@dataclass(frozen=True)
class FreeSlot:
    start: datetime
    end: datetime


def busy_sessions(
    person_ids: Iterable[int], since: datetime, until: datetime, *, excluding: int | None = None
) -> dict[int, list[Busy]]:
    """Per person, their sessions (not cancelled) overlapping [since, until), earliest
    first — one query, a range of `participant_by_person_time` per person."""
    rows = (
        SessionParticipant.objects.filter(
            person_id__in=list(person_ids),
            scheduled_start__gte=since - LONGEST,
            scheduled_start__lt=until,
            session__scheduled_end__gt=since,
        )
        .exclude(session__status__in=NOT_BUSY)
        .exclude(session_id=excluding)
        .order_by("scheduled_start", "session_id")
        .values_list(
            "person_id",
            "session_id",
            "session__scheduled_start",
            "session__scheduled_end",
            "session__kind",
        )  # fmt: skip
    )
    busy: dict[int, list[Busy]] = defaultdict(list)
    for person_id, session_id, start, end, kind in rows:
        busy[person_id].append(Busy(person_id, start, end, session_id, kind))
    return busy


def closures_between(first: date, last: date) -> list[Closure]:
    """The closed days touching [first, last] (one query)."""
    return list(Closure.objects.filter(last_day__gte=first, first_day__lte=last))


def _local_days(start: datetime, end: datetime, zone) -> tuple[date, date]:
    # The end is exclusive: a session ending at midnight is on the day it started.
    return start.astimezone(zone).date(), (end - timedelta(microseconds=1)).astimezone(zone).date()


def closed_for(person: User, start: datetime, end: datetime, closures: list[Closure]):
    """The closure a session [start, end) would fall on in `person`'s zone, or None."""
    first, last = _local_days(start, end, person.tzinfo)
    return next((c for c in closures if c.first_day <= last and c.last_day >= first), None)


def in_working_hours(person: User, start: datetime, end: datetime) -> bool:
    """[start, end) lies inside one of `person`'s working days, in their own zone."""
    zone = person.tzinfo
    local_start, local_end = start.astimezone(zone), end.astimezone(zone)
    return (
        local_start.date() == local_end.date()
        and local_start.weekday() in person.working_weekdays
        and person.work_starts <= local_start.time()
        and local_end.time() <= person.work_ends
    )


def _overlaps(busy: list[Busy], start: datetime, end: datetime) -> Busy | None:
    return next((b for b in busy if b.start < end and b.end > start), None)


def _first_step(moment: datetime) -> datetime:
    """The first STEP boundary (UTC) at or after `moment`."""
    epoch = moment.replace(minute=0, second=0, microsecond=0)
    while epoch < moment:
        epoch += STEP
    return epoch


def free_slots(
    *,
    people: list[User],
    duration: timedelta,
    since: datetime,
    until: datetime,
    excluding: int | None = None,
) -> list[FreeSlot]:
    """Every slot [start, start + duration) in [since, until), on a STEP boundary,
    inside everyone's working hours, off the closed days in each one's zone and clear
    of everyone's other sessions (`excluding` one: the session being moved). Two
    queries, whatever the number of people."""
    busy = busy_sessions([p.pk for p in people], since, until, excluding=excluding)
    closures = closures_between(
        (since - timedelta(days=1)).date(), (until + timedelta(days=1)).date()
    )
    slots = []
    start = _first_step(since)
    while start + duration <= until:
        end = start + duration
        if all(
            in_working_hours(p, start, end)
            and closed_for(p, start, end, closures) is None
            and _overlaps(busy.get(p.pk, []), start, end) is None
            for p in people
        ):
            slots.append(FreeSlot(start, end))
        start += STEP
    return slots


def _people(session: CoachingSession) -> list[User]:
    return [p.person for p in session.participants.all()]


def session_free_slots(*, session: CoachingSession, now: datetime | None = None) -> list[FreeSlot]:
    """Where `session` could move and still be kept: the free slots for everyone in it
    in the week of its original slot (`cadence.health.week_of`), from now on. Its
    participants come with it (`with_people`); two queries."""
    now = now or timezone.now()
    week_start, week_end = week_of(session.original_start)
    since = max(week_start, now)
    if since >= week_end:
        return []
    slots = free_slots(
        people=_people(session),
        duration=timedelta(minutes=session.duration_minutes),
        since=since,
        until=week_end,
        excluding=session.pk,
    )
    return [slot for slot in slots if slot.start != session.scheduled_start]


def _when(start: datetime, end: datetime) -> str:
    local_start, local_end = timezone.localtime(start), timezone.localtime(end)
    return f"{date_format(local_start, 'D j M, H:i')}–{date_format(local_end, 'H:i')}"


def why_not_move(
    *, session: CoachingSession, start: datetime, end: datetime, actor: User
) -> str | None:
    """Why `session` may not move to [start, end), in words, or None: a time that has
    passed, unless in the session's own week (recording that people met earlier is a
    move there; further back is a mistake), a closed day for someone in it, or a clash
    with another session of someone in it — named when the actor took part in it, only
    as "busy" otherwise (whose other sessions they are is not the actor's to read).
    Two queries, three with a clash of the actor's own."""
    if start < timezone.now() and start < week_of(session.original_start)[0]:
        return (
            "That time has passed: pick a time to come — or, to record that you met "
            "earlier, a time in its own week."
        )
    people = _people(session)
    closures = closures_between(
        (start - timedelta(days=1)).date(), (end + timedelta(days=1)).date()
    )
    for person in people:
        closure = closed_for(person, start, end, closures)
        if closure is not None:
            return (
                f"{date_format(start.astimezone(person.tzinfo), 'l j F')} is a closed day "
                f"({closure.name}): pick another day."
            )
    busy = busy_sessions([p.pk for p in people], start, end, excluding=session.pk)
    by_id = {p.pk: p for p in people}
    clashes = [b for person in people if (b := _overlaps(busy.get(person.pk, []), start, end))]
    if not clashes:
        return None
    own = next((b for b in clashes if b.person_id == actor.pk), None)
    if own is not None:
        return f"That clashes with your {_session_words(own, actor)} ({_when(own.start, own.end)})."
    other = clashes[0]
    return (
        f"That clashes with another session of {by_id[other.person_id].display_name} "
        f"({_when(other.start, other.end)}): pick a time they are free."
    )


def _session_words(busy: Busy, viewer: User) -> str:
    """ "1:1 with Ben Ortiz", "team call review": one of the viewer's own sessions."""
    kind = SessionKind(busy.kind).label
    others = list(
        SessionParticipant.objects.filter(session_id=busy.session_id)
        .exclude(person=viewer)
        .exclude(role=ParticipantRole.PARTICIPANT)
        .values_list("person__display_name", flat=True)[:2]
    )
    if (
        busy.kind in (SessionKind.ONE_ON_ONE, SessionKind.MANAGER_REVIEW, SessionKind.PEER)
        and others
    ):
        return f"{kind} with {others[0]}"
    return kind if kind == "1:1" else kind[0].lower() + kind[1:]
