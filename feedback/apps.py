from django.apps import AppConfig


class FeedbackConfig(AppConfig):
    name = "feedback"

    def ready(self):
        from . import forms  # noqa: F401 - registers its people sources (people/pickers.py)
