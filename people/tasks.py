from celery import shared_task

from . import import_worker, services_credentials, welcome
from .models import User


@shared_task(name="people.clear_expired_sessions")
def clear_expired_sessions() -> int:
    return services_credentials.sign_in_sessions_clear_expired()


@shared_task(name="people.run_import")
def run_import(import_id: int) -> str | None:
    return import_worker.import_run(import_id)


@shared_task(name="people.resume_imports")
def resume_imports() -> int:
    return import_worker.imports_resume(enqueue=run_import.delay)


@shared_task(name="people.send_welcome")
def send_welcome(person_id: int, invited_by_id: int | None = None) -> bool:
    return send_welcomes([person_id], invited_by_id) == 1


@shared_task(name="people.send_welcomes")
def send_welcomes(person_ids: list[int], invited_by_id: int | None = None) -> int:
    """One batch of welcome emails (`services_people.WELCOME_BATCH` at most)."""
    people = User.objects.filter(pk__in=person_ids).order_by("pk")
    invited_by = User.objects.filter(pk=invited_by_id).first() if invited_by_id else None
    return welcome.welcomes_send(people, invited_by=invited_by)
