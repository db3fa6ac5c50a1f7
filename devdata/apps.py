from django.apps import AppConfig


class DevdataConfig(AppConfig):
    """Demo and scale data with their seed commands: local and test settings only."""

    name = "devdata"
    verbose_name = "Development data"
