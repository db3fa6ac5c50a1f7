"""Review exports of the evaluative stream: the audit trail and the CSV.

An export is a read like any other, and a bigger one: it writes one audit event for
the export itself (what was asked for and how many rows left the system) and one
read event per item, as the screen does. Items come from
`selectors.evaluative_reviews`, which is built on `Feedback.evaluative` alone."""

import csv
import io
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import transaction
from django.utils import timezone

from people.models import User
from people.services_audit import audit_record, audit_record_targets

from . import selectors, services
from .models import Feedback, feedback_name

EXPORT_VERB = "feedback.evaluative_export"

# After the date column, which names the reader's time zone.
CSV_HEADER = [
    "recipient",
    "recipient email",
    "author",
    "direction",
    "observation",
    "impact",
    "suggestion",
]

# A cell starting with one of these is a formula to a spreadsheet (OWASP "CSV
# injection"): the words people wrote must never run as one.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True, slots=True)
class ExportedItem:
    """One evaluative item as the CSV shows it, read as values: making 46,000 Feedback
    objects with their two people took a third of HR's export (bench/routes.py)."""

    pk: int
    public_id: object  # an anonymous answer's; None otherwise
    created_at: datetime
    anonymous: bool
    recipient_id: int
    recipient_name: str
    recipient_email: str
    author_id: int | None
    author_name: str  # empty when the item is anonymous to the reader
    direction: str
    observation: str
    impact: str
    suggestion: str


@transaction.atomic
def evaluative_export_record(
    *, reader: User, items: list[ExportedItem], filters: selectors.ReviewFilters, ip: str | None
) -> None:
    """One event for the export (filters and row count, never words), and a read event
    per item someone other than its recipient or author reads (as on the screen), in
    one bulk insert."""
    audit_record(
        actor=reader,
        verb=EXPORT_VERB,
        data={"filters": filters.audit_data(), "rows": len(items)},
        ip=ip,
    )
    read = [
        (ref, feedback_name(ref))
        for item in items
        for ref in [str(item.public_id or item.pk)]  # as `Feedback.ref`
        if reader.pk not in (item.recipient_id, item.author_id)
    ]
    audit_record_targets(
        actor=reader,
        verb=services.READ_VERB,
        model=Feedback,
        targets=read,
        data={"via": "list"},
        ip=ip,
    )


def evaluative_export(
    *, reader: User, roles, filters: selectors.ReviewFilters, ip: str | None
) -> list[ExportedItem]:
    """Every item the filters select, recorded as exported before it is handed out."""
    rows = selectors.evaluative_reviews(user=reader, roles=roles, filters=filters).values_list(
        "pk",
        "public_id",
        "created_at",
        "recipient_id",
        "recipient__display_name",
        "recipient__email",
        "author_id",
        "author__display_name",
        "anonymous",
        "direction",
        "observation",
        "impact",
        "suggestion",
        named=True,
    )
    items = [
        ExportedItem(
            pk=row.pk,
            public_id=row.public_id,
            created_at=row.created_at,
            anonymous=row.anonymous,
            recipient_id=row.recipient_id,
            recipient_name=row.recipient__display_name,
            recipient_email=row.recipient__email,
            author_id=row.author_id,
            # As `selectors.author_shown`: an anonymous author is known to themselves only.
            author_name=""
            if row.anonymous and reader.pk != row.author_id
            else row.author__display_name or "",
            direction=row.direction,
            observation=row.observation,
            impact=row.impact,
            suggestion=row.suggestion,
        )
        for row in rows
    ]
    evaluative_export_record(reader=reader, items=items, filters=filters, ip=ip)
    return items


def safe_cell(value) -> str:
    """A CSV cell: words that a spreadsheet would run as a formula get a leading
    apostrophe; numbers stay numbers (a negative change is not a formula)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def evaluative_csv(*, items: list[ExportedItem], reader: User) -> str:
    """One row per item; times in the reader's time zone; no author where the item
    is anonymous; never the recipient's reflection or themes. Built in memory and
    handed to the response whole (a response written row by row cost more)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([f"date ({reader.time_zone})", *CSV_HEADER])
    tz = reader.tzinfo
    writer.writerows(
        [
            safe_cell(value)
            for value in (
                _when(item, tz),
                item.recipient_name,
                item.recipient_email,
                item.author_name,
                item.direction,
                item.observation,
                item.impact,
                item.suggestion,
            )
        ]
        for item in items
    )
    return out.getvalue()


def _when(item: ExportedItem, tz) -> str:
    """The reader's local time; an anonymous answer's day (UTC) only, as everywhere."""
    if item.anonymous:
        return item.created_at.astimezone(UTC).strftime("%Y-%m-%d")
    return item.created_at.astimezone(tz).strftime("%Y-%m-%d %H:%M")


def export_filename(reader: User) -> str:
    return f"evaluative-feedback-{timezone.localdate(timezone=reader.tzinfo):%Y-%m-%d}.csv"
