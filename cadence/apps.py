from django.apps import AppConfig


class CadenceConfig(AppConfig):
    name = "cadence"
