from django.apps import AppConfig


class CoachingConfig(AppConfig):
    name = "coaching"

    def ready(self):
        from . import forms  # noqa: F401 - registers its people sources (people/pickers.py)
