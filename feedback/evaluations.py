"""Review exports of the evaluative stream: the audit trail and the CSV.

An export is a read like any other, and a bigger one: it writes one audit event for
the export itself (what was asked for and how many rows left the system) and one
read event per item, as the screen does. Items come from
`selectors.evaluative_reviews`, which is built on `Feedback.evaluative` alone."""

import csv

from django.db import transaction
from django.utils import timezone

from people.models import User
from people.services import audit_record

from . import selectors, services
from .models import Feedback

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


@transaction.atomic
def evaluative_export_record(
    *, reader: User, items: list[Feedback], filters: selectors.ReviewFilters, ip: str | None
) -> None:
    """One event for the export (filters and row count, never words), and the
    per-item reads in one bulk insert."""
    audit_record(
        actor=reader,
        verb=EXPORT_VERB,
        data={"filters": filters.audit_data(), "rows": len(items)},
        ip=ip,
    )
    services.evaluative_reads_record(items=items, reader=reader, ip=ip)


def evaluative_export(
    *, reader: User, roles, filters: selectors.ReviewFilters, ip: str | None
) -> list[Feedback]:
    """Every item the filters select, recorded as exported before it is handed out."""
    items = list(selectors.evaluative_reviews(user=reader, roles=roles, filters=filters))
    evaluative_export_record(reader=reader, items=items, filters=filters, ip=ip)
    return items


def safe_cell(value) -> str:
    """A CSV cell: words that a spreadsheet would run as a formula get a leading
    apostrophe; numbers stay numbers (a negative change is not a formula)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def write_evaluative_csv(out, *, items: list[Feedback], reader: User) -> None:
    """One row per item; times in the reader's time zone; no author where the item
    is anonymous; never the recipient's reflection or themes."""
    writer = csv.writer(out)
    writer.writerow([f"date ({reader.time_zone})", *CSV_HEADER])
    for item in items:
        author = selectors.author_shown(item, reader)
        row = [
            item.created_at.astimezone(reader.tzinfo).strftime("%Y-%m-%d %H:%M"),
            item.recipient.display_name,
            item.recipient.email,
            author.display_name if author else "",
            item.direction,
            item.observation,
            item.impact,
            item.suggestion,
        ]
        writer.writerow([safe_cell(value) for value in row])


def export_filename(reader: User) -> str:
    return f"evaluative-feedback-{timezone.localdate(timezone=reader.tzinfo):%Y-%m-%d}.csv"
