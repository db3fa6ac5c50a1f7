"""The signals people sends, so apps to the right can follow its changes without people
importing them. Its own receivers (sign-in and MFA audit) are in people/receivers.py."""

from django.dispatch import Signal

# Sent with `membership=` when someone joins or leaves a team, so apps to the right
# (the cadence engine) can follow without people importing them.
team_membership_changed = Signal()
# Sent with `team=` when a team's lead changes (or it has none now): the cadence moves
# the plans its policy made to the new lead.
team_lead_changed = Signal()
# Sent with `person=` by `reporting_line_change` when someone reports to someone else
# now: the cadence moves the manager reviews a team policy made to the new manager.
reporting_line_changed = Signal()
# Sent with `person=` and `reason=` (a DEACTIVATION_REASONS code) by `account_deactivate`,
# inside its transaction: apps to the right end what they hold for the person
# (calendar feeds, cadence plans) and return {name: count} for the audit event.
person_deactivated = Signal()
# Sent with `person=` by `account_reactivate`, inside its transaction: the cadence
# takes them back into the teams they are on.
person_reactivated = Signal()
