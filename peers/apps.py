from django.apps import AppConfig


class PeersConfig(AppConfig):
    name = "peers"

    def ready(self):
        from . import (
            forms,  # noqa: F401 - registers its people sources (people/pickers.py)
            notifications,
        )
        from .signals import pair_formed, peer_requested

        notifications.register()
        pair_formed.connect(notifications.invite_members, dispatch_uid="peers-pair-invited")
        peer_requested.connect(notifications.tell_manager, dispatch_uid="peers-peer-asked")
