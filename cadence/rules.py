"""What a person may *do* with the cadence they can already see (visibility itself is
each selector's `access_*`). Each `why_not_<verb>` gives the reason a person reads, or
None; `may_<verb>` is its yes/no. Pages ask them for their buttons, and the services
refuse with the same words (`core.errors.Forbidden`, a 403 in the API)."""

from people.models import Team, User
from people.roles import Role
from people.selectors import leads_or_above, roles_of

from .models import Rollout


def may_start_rollout(person: User, team: Team) -> bool:
    """The team's lead, anyone above the lead, or a programme admin."""
    return leads_or_above(user=person, team=team) or Role.PROGRAMME_ADMIN in roles_of(person)


def why_not_start_rollout(person: User, team: Team) -> str | None:
    if not may_start_rollout(person, team):
        return (
            "A team's rollout is started by its lead, someone above the lead, or a programme admin."
        )
    return None


def may_tick_rollout(person: User, rollout: Rollout) -> bool:
    """The lead: they know whether the recordings are on and the scorecard agreed."""
    return rollout.team.lead_id is not None and rollout.team.lead_id == person.pk


def why_not_tick_rollout(person: User, rollout: Rollout) -> str | None:
    if not may_tick_rollout(person, rollout):
        return "Only the team's lead ticks its checklist."
    return None
