from django.apps import AppConfig


class ScorecardsConfig(AppConfig):
    name = "scorecards"
