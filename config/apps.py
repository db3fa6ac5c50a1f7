from django.apps import AppConfig


class PlatformConfig(AppConfig):
    """Project glue: health check, periodic-task registry, cross-app pages."""

    name = "config"
    label = "platform"
    verbose_name = "Platform"

    def ready(self):
        from django.db.models.signals import post_migrate

        from . import checks  # noqa: F401 - registers them
        from .periodic import ensure_periodic_tasks_after_migrate

        post_migrate.connect(ensure_periodic_tasks_after_migrate, sender=self)
