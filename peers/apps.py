from django.apps import AppConfig


class PeersConfig(AppConfig):
    name = "peers"

    def ready(self):
        # Its people sources (people/pickers.py) are registered when it loads.
        from . import forms  # noqa: F401
