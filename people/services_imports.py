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

This module is the upload side; the worker's (checking, applying, beat's sweep) is
people/import_worker.py, run through people/tasks.py. The file's text is emptied as
soon as it can no longer be applied; the counts stay as the record."""

import io

from django.db import transaction
from django.utils import timezone

from .importing import PeopleImportError, decode_csv, people_import_validate
from .models import ImportStatus, PeopleImport, User
from .services_audit import audit_record
from .tasks import run_import

MAX_UPLOAD_BYTES = 10 * 1024 * 1024  # 10,000 people are about 1 MB
TOO_LARGE = "The file is larger than 10 MB; split it into smaller files."


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
    # robust: a broker that is down must not undo the upload; beat hands it back later.
    transaction.on_commit(lambda: run_import.delay(job.pk), robust=True)
