from celery import shared_task

from . import services


@shared_task(name="people.clear_expired_sessions")
def clear_expired_sessions() -> int:
    return services.sign_in_sessions_clear_expired()
