from django.apps import AppConfig


class CadenceConfig(AppConfig):
    name = "cadence"

    def ready(self):
        from coaching.signals import move_slots_wanted, session_changed, session_moving
        from peers.signals import (
            pair_ended,
            pair_members_changed,
            pair_started,
        )
        from people.signals import (
            person_deactivated,
            person_reactivated,
            reporting_line_changed,
            team_lead_changed,
            team_membership_changed,
        )

        from . import notifications
        from .receivers import (
            end_cadence_of_leaver,
            end_pair_cadence,
            follow_new_manager,
            follow_pair_members,
            follow_team_lead,
            follow_team_membership,
            offer_free_slots,
            refuse_clashing_move,
            resume_cadence_of_returner,
            revoke_calendar_feed,
            start_pair_cadence,
            tell_others_of_session_change,
        )

        notifications.register()
        team_membership_changed.connect(follow_team_membership, dispatch_uid="cadence-membership")
        team_lead_changed.connect(follow_team_lead, dispatch_uid="cadence-team-lead")
        reporting_line_changed.connect(follow_new_manager, dispatch_uid="cadence-new-manager")
        pair_started.connect(start_pair_cadence, dispatch_uid="cadence-pair-started")
        pair_members_changed.connect(follow_pair_members, dispatch_uid="cadence-pair-members")
        pair_ended.connect(end_pair_cadence, dispatch_uid="cadence-pair-ended")
        session_changed.connect(
            tell_others_of_session_change, dispatch_uid="cadence-session-change"
        )
        person_deactivated.connect(revoke_calendar_feed, dispatch_uid="cadence-deactivated")
        person_deactivated.connect(end_cadence_of_leaver, dispatch_uid="cadence-leaver")
        person_reactivated.connect(resume_cadence_of_returner, dispatch_uid="cadence-returner")
        session_moving.connect(refuse_clashing_move, dispatch_uid="cadence-move-clash")
        move_slots_wanted.connect(offer_free_slots, dispatch_uid="cadence-free-slots")
