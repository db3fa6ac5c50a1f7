from django.apps import AppConfig


class LearningConfig(AppConfig):
    name = "learning"

    def ready(self):
        # The experiments panel of a coachee's page (coaching.person_page) is
        # registered when the views load.
        from . import views  # noqa: F401
