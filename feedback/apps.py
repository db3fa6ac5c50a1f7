from django.apps import AppConfig


class FeedbackConfig(AppConfig):
    name = "feedback"

    def ready(self):
        from coaching import since_last

        from . import forms  # noqa: F401 - registers its people sources (people/pickers.py)
        from .selectors import developmental_since

        # Beside a 1:1, how much developmental feedback came in (coaching may not
        # import this app: it sits to coaching's right).
        since_last.count_feedback_with(developmental_since)
