"""Celery tasks: thin wrappers that call the engine. Messages carry no ids that
matter, so a lost or repeated message loses or doubles nothing."""

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings

from . import engine, feedback_reminders, invitations, outbox, retention, services_closures


def kick_senders() -> None:
    """After a burst is queued: CADENCE_SENDERS drains side by side, once it commits."""
    for _ in range(settings.CADENCE_SENDERS):
        send_notifications.delay_on_commit()


@shared_task(name="cadence.generate_occurrences")
def generate_occurrences() -> int:
    """Beat's hourly run. With at least CADENCE_GENERATE_SPLIT_FROM plans due (a first
    generation, a large rollout, a large organisation's hourly visit) it hands one id
    range each to CADENCE_GENERATORS tasks, for the workers to write side by side, and
    returns 0; otherwise it generates here and returns how many it made. First, it
    clears closed days whose worker message was lost."""
    services_closures.closures_clear_pending()
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
    return services_closures.closure_clear(closure_id)


@shared_task(name="cadence.sweep_missed")
def sweep_missed() -> int:
    marked = engine.sweep_missed()
    if marked:
        kick_senders()
    return marked


@shared_task(name="cadence.queue_reminders")
def queue_reminders() -> int:
    queued = engine.reminders_queue() + invitations.invitations_queue()
    if queued:
        kick_senders()
    return queued


@shared_task(name="cadence.queue_feedback_reminders")
def queue_feedback_reminders() -> int:
    queued = feedback_reminders.due_queue()
    if queued:
        kick_senders()
    return queued


@shared_task(name="cadence.queue_digests")
def queue_digests() -> int:
    queued = engine.digests_queue()
    if queued:
        kick_senders()
    return queued


@shared_task(
    name="cadence.send_notifications",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=240,
    time_limit=300,
)
def send_notifications() -> dict:
    # acks_late is safe: draining is idempotent (claims are per row, in the database).
    # A pool process killed mid-drain (the OOM killer, `kill -9`) has its message
    # requeued by the worker at once (reject_on_worker_lost) instead of acknowledged
    # and gone: another process resumes the drain now, not at beat's next minute.
    sent = outbox.drain()
    try:
        more = outbox.due_exists()
    except outbox.DATABASE_GONE:
        more = True  # gone again: the next drain waits for it (Sender.recover)
    if more:
        send_notifications.delay()  # more than one drain's worth: keep going now
    return sent


@worker_ready.connect(dispatch_uid="cadence-drain-on-worker-start")
def drain_on_worker_start(sender=None, **kwargs) -> None:
    """A worker (re)started — after a crash, its supervisor restarts it — drains at
    once: the message of a worker killed whole stays unacknowledged in Redis for the
    visibility timeout (an hour), so without this sending would wait for beat. Sent
    straight away: the worker's main process has no transaction to wait for (and
    should open no database connection its pool processes could inherit). Only by a
    worker that takes the drains' queue (the default one)."""
    consumer = getattr(sender, "task_consumer", None)
    queues = {queue.name for queue in getattr(consumer, "queues", ())}
    if send_notifications.app.conf.task_default_queue not in queues:
        return
    for _ in range(settings.CADENCE_SENDERS):
        send_notifications.delay()


@shared_task(name="cadence.reap_stale_claims")
def reap_stale_claims() -> int:
    """Hand back rows whose lease ran out, and send them now."""
    reaped = outbox.reap_expired_leases()
    if reaped:
        kick_senders()
    return reaped


@shared_task(name="cadence.forget_old_notifications")
def forget_old_notifications() -> int:
    return retention.forget_old_notifications()
