"""What a person may *do* with calls and scoring rounds they can already see
(visibility itself is `selectors.access_*` and the models' `visible_to`). Each
`why_not_<verb>` gives the reason a person reads, or None; `may_<verb>` is its
yes/no. Pages ask them for their buttons, the API and the services refuse with the
same words (`core.errors.Forbidden`, a 403 in the API)."""

from people.models import User
from people.roles import Role
from people.selectors import is_in_management_chain, roles_of

from .models import RecordedCall, RoundContext, ScoringRound

NOT_A_RATER = "You are not one of the raters of this call."


def why_not_edit_templates(person: User) -> str | None:
    if Role.PROGRAMME_ADMIN not in roles_of(person):
        return "Only programme admins edit scorecard templates."
    return None


def may_calibrate(person: User, roles=None) -> bool:
    """Programme admins and managers of managers; `roles` as `request_roles` read
    them, when the caller has them (no query then)."""
    roles = roles_of(person) if roles is None else roles
    return bool({Role.PROGRAMME_ADMIN, Role.MANAGER_OF_MANAGERS} & set(roles))


def why_not_calibrate(person: User, roles=None) -> str | None:
    if not may_calibrate(person, roles):
        return "Calibrations are run by programme admins and managers of managers."
    return None


def why_not_self_assess(person: User, work: RecordedCall) -> str | None:
    if work.person_id != person.pk:
        return "Score your own calls here; a coach scores others' with you."
    return None


def why_not_ask_peers(person: User, work: RecordedCall) -> str | None:
    if work.person_id != person.pk:
        return "Ask for peer scores on your own calls."
    return None


def why_not_coach_score(person: User, work: RecordedCall) -> str | None:
    """Anyone above the subject (one query)."""
    if not is_in_management_chain(manager=person, person=work.person_id):
        return "Only someone the subject reports to can coach-score their call."
    return None


def why_not_open(person: User, context: str, work: RecordedCall) -> str | None:
    """Why `person` may not open a round of `context` on `work` (a team review's
    rounds are opened by coaching, from the session)."""
    if context == RoundContext.CALIBRATION:
        return why_not_calibrate(person)
    if context == RoundContext.COACH:
        return why_not_coach_score(person, work)
    if context == RoundContext.PEER:
        return why_not_ask_peers(person, work)
    return why_not_self_assess(person, work)


def may_close(person: User, scoring: ScoringRound) -> bool:
    return scoring.created_by_id == person.pk


def why_not_close(person: User, scoring: ScoringRound) -> str | None:
    if not may_close(person, scoring):
        return "Only whoever opened the scoring can close it."
    return None
