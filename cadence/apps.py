from django.apps import AppConfig


class CadenceConfig(AppConfig):
    name = "cadence"

    def ready(self):
        from people.signals import team_membership_changed

        from .receivers import follow_team_membership

        team_membership_changed.connect(follow_team_membership, dispatch_uid="cadence-membership")
