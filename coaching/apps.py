from django.apps import AppConfig


class CoachingConfig(AppConfig):
    name = "coaching"

    def ready(self):
        # Their people sources (people/pickers.py) are registered when they load.
        from . import forms, forms_focus_areas  # noqa: F401
