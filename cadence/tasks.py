"""Celery tasks: thin wrappers that call the engine. Messages carry no ids that
matter, so a lost or repeated message loses or doubles nothing."""

from celery import shared_task

from . import engine, feedback_reminders, outbox


@shared_task(name="cadence.generate_occurrences")
def generate_occurrences() -> int:
    return engine.occurrences_generate()


@shared_task(name="cadence.sweep_missed")
def sweep_missed() -> int:
    marked = engine.sweep_missed()
    if marked:
        send_notifications.delay_on_commit()
    return marked


@shared_task(name="cadence.queue_reminders")
def queue_reminders() -> int:
    return engine.reminders_queue()


@shared_task(name="cadence.queue_feedback_reminders")
def queue_feedback_reminders() -> int:
    queued = feedback_reminders.due_queue()
    if queued:
        send_notifications.delay_on_commit()
    return queued


@shared_task(name="cadence.queue_digests")
def queue_digests() -> int:
    return engine.digests_queue()


@shared_task(name="cadence.send_notifications", acks_late=True, soft_time_limit=240, time_limit=300)
def send_notifications() -> dict:
    # acks_late is safe: draining is idempotent (claims are per row, in the database).
    return outbox.drain()


@shared_task(name="cadence.reap_stale_claims")
def reap_stale_claims() -> int:
    return outbox.reap_stale_claims()
