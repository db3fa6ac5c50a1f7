"""The audit trail as the Audit log page and its API read it: newest first, filtered by
area or verb, by a person (what they did and what was done to them) and by time, a
page at a time by position rather than by number — the trail grows by tens of
thousands of rows with one export, and counting it for a page number would cost more
than the page. One query a page whatever the trail's size (`audit_recent` serves the
order; the verb, actor and target indexes the filters)."""

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet

from .audit_catalogue import AREAS
from .models import AuditEvent, User

EVENTS_PER_PAGE = 50
_BAD_POSITION = "That link to older events is broken: start again from the newest."
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


# The days the filters accept: nothing was audited before 1970, and a far year would
# overflow the day after it.
EARLIEST_DAY, LATEST_DAY = date(1970, 1, 1), date(2999, 12, 31)
DAY_OUT_OF_RANGE = "Pick a date between 1970 and 2999."


def validate_day(day: date) -> None:
    if not EARLIEST_DAY <= day <= LATEST_DAY:
        raise ValidationError(DAY_OUT_OF_RANGE, code="out_of_range")


@dataclass(frozen=True)
class AuditFilters:
    area: str = ""  # a key of AREAS
    verb: str = ""
    person: User | None = None
    since: datetime | None = None  # inclusive
    until: datetime | None = None  # exclusive


def audit_events(filters: AuditFilters) -> QuerySet[AuditEvent]:
    events = AuditEvent.objects.select_related("actor", "target_type")
    if filters.area:
        events = events.filter(verb__in=list(AREAS[filters.area].verbs))
    if filters.verb:
        events = events.filter(verb=filters.verb)
    if filters.person is not None:
        events = events.filter(
            Q(actor=filters.person)
            | Q(
                target_type=ContentType.objects.get_for_model(User),
                target_id=str(filters.person.pk),
            )
        )
    if filters.since is not None:
        events = events.filter(at__gte=filters.since)
    if filters.until is not None:
        events = events.filter(at__lt=filters.until)
    return events.order_by("-at", "-id")


@dataclass(frozen=True)
class AuditPage:
    events: list[AuditEvent]
    older: str | None  # the position of the next page, None at the oldest


def _position_of(event: AuditEvent) -> str:
    """Where a page ends: the last event's time (in microseconds) and id."""
    return f"{(event.at - _EPOCH) // _MICROSECOND}-{event.pk}"


# 16 digits of microseconds reach the year 2286; 18 of an id stay below 2**63. ASCII
# digits only: `str.isdigit` also takes "²", which `int` refuses.
_POSITION = re.compile(r"([0-9]{1,16})-([0-9]{1,18})")


def _parse_position(raw: str) -> tuple[datetime, int]:
    """The time and id of a `_position_of`; anything else is refused with a message."""
    matched = _POSITION.fullmatch(raw)
    if matched is None:
        raise ValidationError(_BAD_POSITION, code="position")
    micros, pk = matched.groups()
    return _EPOCH + int(micros) * _MICROSECOND, int(pk)


def audit_page(filters: AuditFilters, *, before: str = "") -> AuditPage:
    """The newest `EVENTS_PER_PAGE` events matching `filters`, or those older than the
    position `before` (from `AuditPage.older`): one query, one row beyond the page to
    know whether there is more. A position, not an offset: events written together
    share their time (an export's reads), and there is no cap on how many do."""
    return page_before(audit_events(filters), before=before)


def page_before(events: QuerySet[AuditEvent], *, before: str = "") -> AuditPage:
    """`audit_page` of any list of events ordered newest first (the API's)."""
    if before:
        at, pk = _parse_position(before)
        events = events.filter(Q(at__lt=at) | Q(at=at, pk__lt=pk))
    rows = list(events[: EVENTS_PER_PAGE + 1])
    shown = rows[:EVENTS_PER_PAGE]
    older = _position_of(shown[-1]) if len(rows) > EVENTS_PER_PAGE else None
    return AuditPage(shown, older)
