from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"

    def ready(self):
        from . import (
            forms_channels,  # noqa: F401 - registers its team source (people/pickers.py)
            notifications,
        )

        notifications.register()
