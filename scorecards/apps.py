from django.apps import AppConfig


class ScorecardsConfig(AppConfig):
    name = "scorecards"

    def ready(self):
        from . import forms  # noqa: F401 - registers its people sources (people/pickers.py)
