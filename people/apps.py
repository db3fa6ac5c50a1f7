from django.apps import AppConfig


class PeopleConfig(AppConfig):
    name = "people"
    verbose_name = "People"

    def ready(self):
        from django.db.models.signals import post_migrate

        # The forms register their people sources (people/pickers.py); signals, receivers.
        from . import forms_audit, forms_people, forms_teams, signals  # noqa: F401
        from .groups import ensure_role_groups_after_migrate

        # For every app's post_migrate (idempotent), so permissions of apps listed
        # after this one exist by the time the last one runs.
        post_migrate.connect(ensure_role_groups_after_migrate, dispatch_uid="people-role-groups")
