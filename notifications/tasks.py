"""Celery tasks of the outbox: draining it, handing back claims whose sender died, and
forgetting old rows. Their names are the ones beat and the workers have always used
(`cadence.*`), so a schedule or a message already queued keeps working. Messages carry
no ids that matter, so a lost or repeated message loses or doubles nothing."""

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings

from . import outbox, retention


def kick_senders() -> None:
    """After a burst is queued: CADENCE_SENDERS drains side by side, once it commits."""
    for _ in range(settings.CADENCE_SENDERS):
        send_notifications.delay_on_commit()


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
