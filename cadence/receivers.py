from django.core.exceptions import ValidationError

from . import availability, invitations, services, services_calendar


def follow_team_membership(sender, membership, **kwargs):
    services.follow_membership(membership=membership)


def follow_team_lead(sender, team, **kwargs):
    services.follow_lead(team=team)


def follow_new_manager(sender, person, **kwargs):
    services.follow_manager(person=person)


def start_pair_cadence(sender, pair, actor=None, **kwargs):
    services.pair_cadence_start(pair=pair, actor=actor)


def follow_pair_members(sender, pair, actor=None, **kwargs):
    services.pair_cadence_restart(pair=pair, actor=actor)


def end_pair_cadence(sender, pair, actor=None, **kwargs):
    services.pair_cadence_end(pair=pair, actor=actor)


def revoke_calendar_feed(sender, person, **kwargs):
    """A deactivated person's calendar feed goes with their sign-in."""
    return {"calendar_feeds": services_calendar.calendar_feeds_delete(person=person)}


def end_cadence_of_leaver(sender, person, reason="unspecified", **kwargs):
    """A deactivated person's plans end with them (and their pairs go on without them)."""
    return services.follow_leaver(person=person, reason=reason)


def resume_cadence_of_returner(sender, person, **kwargs):
    """A reactivated person is back in their teams' cadence."""
    return services.follow_returner(person=person)


def tell_others_of_session_change(sender, change, **kwargs):
    invitations.changed_queue(change=change)


def refuse_clashing_move(sender, session, start, end, actor, **kwargs):
    """A move onto someone's other session, or onto a closed day, is refused."""
    refusal = availability.why_not_move(session=session, start=start, end=end, actor=actor)
    if refusal:
        raise ValidationError({"scheduled_start": refusal})


def offer_free_slots(sender, session, **kwargs):
    return availability.session_free_slots(session=session)
