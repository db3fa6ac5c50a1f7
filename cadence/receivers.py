from . import feedback_reminders, services


def follow_team_membership(sender, membership, **kwargs):
    services.follow_membership(membership=membership)


def tell_people_asked_for_feedback(sender, request, **kwargs):
    feedback_reminders.asked_queue(request=request)
