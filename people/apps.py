from django.apps import AppConfig


class PeopleConfig(AppConfig):
    name = "people"
    verbose_name = "People"

    def ready(self):
        from django.db.models.signals import post_migrate

        from . import signals  # noqa: F401
        from .groups import ensure_role_groups_after_migrate

        # After every app migrated, so all permissions exist.
        post_migrate.connect(ensure_role_groups_after_migrate, sender=self)
