"""Importing people from the browser and the API, as a job a Celery worker runs.

A programme admin uploads a CSV file. Every row is checked at once (bench/imports.py
times it), so a wrong file is refused on the spot with its problems and
nothing is kept. A right file is stored and a worker does the whole import as a
dry run, rolled back, for its exact counts ("checking" → "ready"). An admin reads
them and applies it: a worker checks the file again against the people as they are
now and imports it in one transaction ("applying" → "applied", or "failed" with
nothing written). Each step holds a transaction over the people table for seconds
(measured by bench/imports.py; more for bigger organisations and
slower machines): too long for a request.

The worker holds the import's row locked while it runs, so the beat task that hands
back an import whose worker died (`imports_resume`) can never run one twice
(PostgreSQL; SQLite serialises writers anyway). The file's text is emptied as soon
as it can no longer be applied; the counts stay as the record."""

import io
import logging
from collections.abc import Sequence
from datetime import timedelta

from django.db import DatabaseError, transaction
from django.utils import timezone

from .importing import PeopleImportError, decode_csv, people_import, people_import_validate
from .models import ImportStatus, PeopleImport, User
from .services import audit_record

logger = logging.getLogger(__name__)

MAX_UPLOAD_BYTES = 10 * 1024 * 1024  # 10,000 people are about 1 MB
TOO_LARGE = "The file is larger than 10 MB; split it into smaller files."
PROBLEMS_KEPT = 500  # a page lists these; the count says how many there were
# A running import not finished after this long lost its worker; hand it back.
RESUME_AFTER = timedelta(minutes=10)
# A checked import nobody applied: discarded, so the file's text is not kept forever.
READY_FOR = timedelta(days=7)

DATABASE_REFUSED = (
    "The database refused the import, perhaps because of a change made at the same "
    "moment; nothing was imported. Upload the file again."
)
UNEXPECTED = "An unexpected error stopped the import; nothing was imported."


def import_upload(*, actor: User, file_name: str, raw: bytes) -> PeopleImport:
    """Check every row now and store the file for a worker to count what it would
    change; PeopleImportError, with nothing stored, when any row is wrong."""
    if len(raw) > MAX_UPLOAD_BYTES:
        raise PeopleImportError([TOO_LARGE])
    text = decode_csv(raw)
    rows = people_import_validate(io.StringIO(text, newline=""))
    if not rows:
        raise PeopleImportError(["line 2: the file has a header but nobody under it."])
    job = PeopleImport.objects.create(
        file_name=file_name[:255] or "people.csv",
        csv_text=text,
        row_count=len(rows),
        uploaded_by=actor,
    )
    audit_record(actor=actor, verb="people.import_uploaded", target=job, data={"rows": len(rows)})
    _queue(job)
    return job


def import_apply(*, actor: User, job: PeopleImport) -> PeopleImport:
    """Queue a checked import to be applied. PeopleImportError when it is not ready or
    another import is being applied (one at a time: two would race for the same
    people and teams)."""
    if job.status != ImportStatus.READY:
        raise PeopleImportError([_not_ready(job)])
    busy = PeopleImport.objects.filter(status=ImportStatus.APPLYING).exclude(pk=job.pk).first()
    if busy is not None:
        raise PeopleImportError(
            [f"{busy.file_name} is being imported; apply this one when it has finished."]
        )
    # Only from "ready": two admins pressing at once apply it once.
    changed = PeopleImport.objects.filter(pk=job.pk, status=ImportStatus.READY).update(
        status=ImportStatus.APPLYING, applied_by=actor, status_changed_at=timezone.now()
    )
    if not changed:
        job.refresh_from_db()
        raise PeopleImportError([_not_ready(job)])
    job.refresh_from_db()
    _queue(job)
    return job


def import_discard(*, actor: User, job: PeopleImport) -> PeopleImport:
    """Drop an import nobody will apply, and its file: checked, or waiting to be
    checked. One a worker is checking right now is refused rather than waited for
    (its check may take a while, holding the row)."""
    with transaction.atomic():
        row = PeopleImport.objects.select_for_update(skip_locked=True).filter(pk=job.pk)
        locked = row.first()
        if locked is None:
            raise PeopleImportError([BEING_CHECKED])
        if locked.status not in (ImportStatus.CHECKING, ImportStatus.READY):
            raise PeopleImportError([_not_ready(locked)])
        row.update(status=ImportStatus.DISCARDED, csv_text="", status_changed_at=timezone.now())
        job.refresh_from_db()
        audit_record(actor=actor, verb="people.import_discarded", target=job)
    return job


BEING_CHECKED = "A worker is checking this file right now; discard it once its counts are in."
NOT_READY: dict[str, str] = {
    ImportStatus.CHECKING: "The file is still being checked; wait for its counts.",
    ImportStatus.APPLYING: "This import is being applied already.",
    ImportStatus.APPLIED: "This import was applied already.",
    ImportStatus.INVALID: "This file has problems; fix them and upload it again.",
    ImportStatus.FAILED: "This import failed; fix the file and upload it again.",
    ImportStatus.DISCARDED: "This import was discarded; upload the file again.",
}


def _not_ready(job: PeopleImport) -> str:
    return NOT_READY[job.status]


def _queue(job: PeopleImport) -> None:
    from .tasks import run_import  # the tasks module imports this one

    # robust: a broker that is down must not undo the upload; beat hands it back later.
    transaction.on_commit(lambda: run_import.delay(job.pk), robust=True)


# --- The worker's side ---------------------------------------------------------------


def import_run(import_id: int) -> str | None:
    """Check or apply one import, whichever it waits for; its new status, or None when
    it is not waiting (done already, or another worker has it)."""
    with transaction.atomic():
        job = (
            PeopleImport.objects.select_for_update(skip_locked=True)
            .filter(pk=import_id, status__in=PeopleImport.RUNNING)
            .first()
        )
        if job is None:
            return None
        checking = job.status == ImportStatus.CHECKING
        try:
            result = people_import(
                rows_or_file=io.StringIO(job.csv_text, newline=""),
                actor=job.uploaded_by if checking else job.applied_by,
                dry_run=checking,
            )
        except PeopleImportError as exc:
            _finish(job, ImportStatus.INVALID if checking else ImportStatus.FAILED, exc.errors)
        except DatabaseError as exc:
            # Names the class only: the message may quote the file's rows.
            logger.warning("people import %s: database refused (%s)", job.pk, type(exc).__name__)
            _finish(job, ImportStatus.FAILED, [DATABASE_REFUSED])
        except Exception:
            logger.exception("people import %s stopped", job.pk)
            _finish(job, ImportStatus.FAILED, [UNEXPECTED])
        else:
            if checking:
                job.checked_counts = result.counts()
                _finish(job, ImportStatus.READY)
            else:
                job.applied_counts = result.counts()
                _finish(job, ImportStatus.APPLIED)
        job.save()
        return job.status


def _finish(job: PeopleImport, status: str, problems: Sequence[str] = ()) -> None:
    job.status = status
    job.status_changed_at = timezone.now()
    if status != ImportStatus.READY:
        job.csv_text = ""  # it can no longer be applied
    job.problem_count = len(problems)
    job.problems = "\n".join(problems[:PROBLEMS_KEPT])


def imports_resume(*, now=None) -> int:
    """Beat's sweep: hand running imports whose worker died back to the queue, and
    discard checked imports nobody applied within READY_FOR. How many were handed
    back."""
    now = now or timezone.now()
    PeopleImport.objects.filter(
        status=ImportStatus.READY, status_changed_at__lt=now - READY_FOR
    ).update(status=ImportStatus.DISCARDED, csv_text="", status_changed_at=now)
    stalled = list(
        PeopleImport.objects.filter(
            status__in=PeopleImport.RUNNING, status_changed_at__lt=now - RESUME_AFTER
        ).values_list("pk", flat=True)
    )
    from .tasks import run_import

    for pk in stalled:
        run_import.delay(pk)
    return len(stalled)
