from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The bottom layer: plumbing and helpers every app may use; it imports no app."""

    name = "core"
    verbose_name = "Core"

    def ready(self):
        from django.db.models.signals import post_migrate

        from . import checks  # noqa: F401 - registers them
        from .periodic import ensure_periodic_tasks_after_migrate

        post_migrate.connect(ensure_periodic_tasks_after_migrate, sender=self)
