from celery import shared_task

from . import services, services_imports


@shared_task(name="people.clear_expired_sessions")
def clear_expired_sessions() -> int:
    return services.sign_in_sessions_clear_expired()


@shared_task(name="people.run_import")
def run_import(import_id: int) -> str | None:
    return services_imports.import_run(import_id)


@shared_task(name="people.resume_imports")
def resume_imports() -> int:
    return services_imports.imports_resume()
