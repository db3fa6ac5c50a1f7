from django.apps import AppConfig


class DashboardsConfig(AppConfig):
    """The inspection mechanism: cadence health for HR, the team view for managers and
    the growth view for reps. Reads every other app; nothing reads it."""

    name = "dashboards"
