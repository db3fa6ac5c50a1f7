"""Celery tasks: thin wrappers that call the engine. Messages carry no ids that
matter, so a lost or repeated message loses or doubles nothing. The outbox's own
tasks (sending, reaping, forgetting) are in `notifications.tasks`."""

from celery import shared_task
from django.conf import settings

from feedback.notifications import due_queue as feedback_due_queue
from notifications.services import senders_kick

from . import closures, engine, invitations


@shared_task(name="cadence.generate_occurrences")
def generate_occurrences() -> int:
    """Beat's hourly run. With at least CADENCE_GENERATE_SPLIT_FROM plans due (a first
    generation, a large rollout, a large organisation's hourly visit) it hands one id
    range each to CADENCE_GENERATORS tasks, for the workers to write side by side, and
    returns 0; otherwise it generates here and returns how many it made. First, it
    clears closed days whose worker message was lost."""
    closures.closures_clear_pending()
    ranges = engine.occurrences_due_ranges(
        settings.CADENCE_GENERATORS, split_from=settings.CADENCE_GENERATE_SPLIT_FROM
    )
    if len(ranges) < 2:
        return engine.occurrences_generate()
    for first, last in ranges:
        generate_occurrences_for.delay(first, last)
    return 0


@shared_task(name="cadence.generate_occurrences_for")
def generate_occurrences_for(first: int, last: int) -> int:
    """One range of plans (ids first to last). A lost message is made up for by the
    next hourly run, a repeated one makes nothing twice."""
    return engine.occurrences_generate(id_range=(first, last))


@shared_task(name="cadence.clear_closed_days")
def clear_closed_days(closure_id: int) -> int | None:
    """Remove what was planned on newly closed days. Repeated, or lost and made up for
    by the hourly generation, it removes nothing twice."""
    return closures.closure_clear(closure_id)


@shared_task(name="cadence.sweep_missed")
def sweep_missed() -> int:
    marked = engine.sweep_missed()
    if marked:
        senders_kick()
    return marked


@shared_task(name="cadence.queue_reminders")
def queue_reminders() -> int:
    queued = engine.reminders_queue() + invitations.invitations_queue()
    if queued:
        senders_kick()
    return queued


@shared_task(name="cadence.queue_feedback_reminders")
def queue_feedback_reminders() -> int:
    queued = feedback_due_queue()
    if queued:
        senders_kick()
    return queued


@shared_task(name="cadence.queue_digests")
def queue_digests() -> int:
    queued = engine.digests_queue()
    if queued:
        senders_kick()
    return queued
