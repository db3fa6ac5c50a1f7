from django.apps import AppConfig


class FeedbackConfig(AppConfig):
    name = "feedback"

    def ready(self):
        from coaching import since_last

        from . import (
            forms,  # noqa: F401 - registers its people sources (people/pickers.py)
            notifications,
        )
        from .selectors import developmental_since
        from .signals import feedback_requested

        notifications.register()
        feedback_requested.connect(
            notifications.tell_people_asked, dispatch_uid="cadence-feedback-asked"
        )

        # Beside a 1:1, how much developmental feedback came in (coaching may not
        # import this app: it sits to coaching's right).
        since_last.count_feedback_with(developmental_since)
