"""The periodic tasks the product needs, registered in django-celery-beat's tables.

`ensure_periodic_tasks` creates a schedule only when no task of that name exists, so
a schedule edited (or disabled) in the admin is never overwritten or re-enabled.
It runs after every `migrate` and as `manage.py ensure_periodic_tasks`.

Every app's tasks are named here by their registered names, as strings: the registry
sits in the bottom layer and imports no app (a test checks each name is a task)."""

from dataclasses import dataclass

from django.conf import settings
from django.db import transaction


@dataclass(frozen=True)
class PeriodicTaskSpec:
    name: str
    task: str
    crontab: dict  # minute, hour, day_of_week, day_of_month, month_of_year
    description: str


PERIODIC_TASKS = [
    PeriodicTaskSpec(
        name="Clear expired sign-in sessions",
        task="people.clear_expired_sessions",
        crontab={"minute": "17", "hour": "3"},
        description="Deletes expired rows from the session table every night.",
    ),
    PeriodicTaskSpec(
        name="Resume people imports",
        task="people.resume_imports",
        crontab={"minute": "*/5"},
        description="Hands an import whose worker stopped back to the queue, and discards "
        "checked imports nobody applied within a week.",
    ),
    PeriodicTaskSpec(
        name="Materialise planned sessions",
        task="cadence.generate_occurrences",
        crontab={"minute": "5"},
        description="Creates the sessions of every live plan for the weeks ahead (hourly).",
    ),
    PeriodicTaskSpec(
        name="Sweep missed sessions",
        task="cadence.sweep_missed",
        crontab={"minute": "*/15"},
        description="Marks sessions missed after their end plus the grace period.",
    ),
    PeriodicTaskSpec(
        name="Queue session reminders",
        task="cadence.queue_reminders",
        crontab={"minute": "*/15"},
        description="Records the day-before reminders for upcoming sessions.",
    ),
    PeriodicTaskSpec(
        name="Queue feedback request reminders",
        task="cadence.queue_feedback_reminders",
        crontab={"minute": "35"},
        description="Reminds people still waiting to answer a feedback request due by "
        "tomorrow (hourly; once per request and person).",
    ),
    PeriodicTaskSpec(
        name="Count session usefulness",
        task="coaching.release_usefulness",
        crontab={"minute": "2"},
        description="Moves each coach's usefulness count on to last Monday once the "
        "ratings of at least three people have closed since it last moved (hourly; the "
        "same all week).",
    ),
    PeriodicTaskSpec(
        name="Queue weekly digests",
        task="cadence.queue_digests",
        crontab={"minute": "0", "hour": "6", "day_of_week": "1"},
        description="Records each manager's and team channel's weekly digest (Mondays).",
    ),
    PeriodicTaskSpec(
        name="Send notifications",
        task="cadence.send_notifications",
        crontab={"minute": "*"},
        description="Drains the notification outbox (email and team webhooks).",
    ),
    PeriodicTaskSpec(
        name="Warm cadence-health dashboards",
        task="dashboards.warm_snapshots",
        crontab={"minute": f"*/{settings.DASHBOARD_REFRESH_MINUTES}"},
        description="Computes HR's cadence-health overview at the start of each slot "
        "of DASHBOARD_REFRESH_MINUTES, in each reader's time zone.",
    ),
    PeriodicTaskSpec(
        name="Hand back stale notification claims",
        task="cadence.reap_stale_claims",
        crontab={"minute": "*/5"},
        description="Returns notifications whose claim's lease ran out (their worker died) "
        "to the queue; every drain of the outbox does it too.",
    ),
    PeriodicTaskSpec(
        name="Forget old notifications",
        task="cadence.forget_old_notifications",
        crontab={"minute": "47", "hour": "3"},
        description="Deletes sent, failed and in-app-only notifications older than "
        "NOTIFICATION_RETENTION_DAYS (nightly); pending ones stay.",
    ),
]


@transaction.atomic
def ensure_periodic_tasks(specs=PERIODIC_TASKS) -> list[str]:
    """Create missing schedules; returns the names created."""
    from django_celery_beat.models import CrontabSchedule, PeriodicTask

    created = []
    existing = set(
        PeriodicTask.objects.filter(name__in=[s.name for s in specs]).values_list("name", flat=True)
    )
    for spec in specs:
        if spec.name in existing:
            continue
        schedule, _ = CrontabSchedule.objects.get_or_create(timezone="UTC", **spec.crontab)
        PeriodicTask.objects.create(
            name=spec.name, task=spec.task, crontab=schedule, description=spec.description
        )
        created.append(spec.name)
    return created


def ensure_periodic_tasks_after_migrate(sender, using="default", plan=None, **kwargs):
    from django.db import connections

    tables = connections[using].introspection.table_names()
    if "django_celery_beat_periodictask" in tables:
        ensure_periodic_tasks()
