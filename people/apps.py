from django.apps import AppConfig


class PeopleConfig(AppConfig):
    name = "people"
    verbose_name = "People"

    def ready(self):
        from django.db.models.signals import post_migrate

        # The forms register their people sources (people/pickers.py); receivers connect.
        from . import forms_audit, forms_people, forms_teams, receivers  # noqa: F401
        from .groups import ensure_role_groups_after_migrate

        # For every app's post_migrate (idempotent), so permissions of apps listed
        # after this one exist by the time the last one runs.
        post_migrate.connect(ensure_role_groups_after_migrate, dispatch_uid="people-role-groups")
        _name_api_keys_without_the_key()


def _name_api_keys_without_the_key() -> None:
    """DRF's Token names itself by its key, so whatever prints one (the admin's list of
    what deleting a person takes with them, a log line) would show a password: it is
    named by whose it is instead (people/admin_credentials.py)."""
    from rest_framework.authtoken.models import Token

    Token.__str__ = lambda token: f"API key of person #{token.user_id}"
