"""The worker's side of a people import (people/services_imports.py is the upload
side): check or apply one job, and beat's sweep handing back jobs whose worker died.

The worker holds the import's row locked while it runs, so the sweep
(`imports_resume`) can never run one twice (PostgreSQL; SQLite serialises writers
anyway). Called by people/tasks.py, which the upload side queues."""

import io
import logging
from collections.abc import Callable, Sequence
from datetime import timedelta

from django.db import DatabaseError, transaction
from django.utils import timezone

from .importing import PeopleImportError, people_import
from .models import ImportStatus, PeopleImport

logger = logging.getLogger(__name__)

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


def imports_resume(*, enqueue: Callable[[int], object], now=None) -> int:
    """Beat's sweep: hand running imports whose worker died back to the queue
    (`enqueue(import_id)`: the task `people.run_import`), and discard checked imports
    nobody applied within READY_FOR. How many were handed back."""
    now = now or timezone.now()
    PeopleImport.objects.filter(
        status=ImportStatus.READY, status_changed_at__lt=now - READY_FOR
    ).update(status=ImportStatus.DISCARDED, csv_text="", status_changed_at=now)
    stalled = list(
        PeopleImport.objects.filter(
            status__in=PeopleImport.RUNNING, status_changed_at__lt=now - RESUME_AFTER
        ).values_list("pk", flat=True)
    )
    for pk in stalled:
        enqueue(pk)
    return len(stalled)
