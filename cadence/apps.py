from django.apps import AppConfig


class CadenceConfig(AppConfig):
    name = "cadence"

    def ready(self):
        from feedback.signals import feedback_requested
        from people.signals import team_membership_changed

        from .receivers import follow_team_membership, tell_people_asked_for_feedback

        team_membership_changed.connect(follow_team_membership, dispatch_uid="cadence-membership")
        feedback_requested.connect(
            tell_people_asked_for_feedback, dispatch_uid="cadence-feedback-asked"
        )
