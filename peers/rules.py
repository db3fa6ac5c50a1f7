"""What a person may *do* with pairs they can already see (who sees a pair is
`PeerPair.objects.visible_to`). Each `why_not_<verb>` gives the reason a person reads,
or None; `may_<verb>` is its yes/no. The services refuse with the same words
(`core.errors.Forbidden`, a 403 in the API); the pair page asks them for its buttons.
Whether the pair's state allows it now (ended, started, accepted) stays the services'
ValidationError."""

from people.models import User

from .models import Habit, PeerPair
from .selectors import formable_people, is_programme_admin, member_of


def may_form_pairs(person: User, roles=None) -> bool:
    """Programme admins, and leads with someone to pair (one query, or none for an
    admin)."""
    if not (person and person.is_authenticated):
        return False
    return is_programme_admin(person, roles) or formable_people(user=person, roles=roles).exists()


def why_not_form_pairs(person: User, roles=None) -> str | None:
    if not may_form_pairs(person, roles):
        return "You can pair people on a team you lead or below you."
    return None


def why_not_ask_for_peer(person: User) -> str | None:
    if not person.is_active:
        return "A deactivated account cannot ask for a peer."
    return None


def why_not_act_as_member(person: User, pair: PeerPair, doing: str) -> str | None:
    """Accepting, declining, leaving, notes, habits and check-ins are for the pair's
    current members; `doing` names what was tried, for the reason."""
    member = member_of(pair, person)
    if member is None:
        return f"Only the pair's members can {doing}."
    if member.left_at is not None:
        return f"You are no longer in this pair, so you cannot {doing}."
    return None


def why_not_edit_agreement(person: User, pair: PeerPair) -> str | None:
    if pair.created_by_id != person.pk:
        return "Only whoever formed the pair can edit its agreement."
    return None


def may_edit_agreement(person: User, pair: PeerPair) -> bool:
    return why_not_edit_agreement(person, pair) is None


def why_not_end_pair(person: User, pair: PeerPair, roles=None) -> str | None:
    if pair.created_by_id == person.pk or is_programme_admin(person, roles):
        return None
    return (
        "Only whoever formed the pair, or a programme admin, can end it; members leave it instead."
    )


def may_end_pair(person: User, pair: PeerPair, roles=None) -> bool:
    return why_not_end_pair(person, pair, roles) is None


def why_not_retire_habit(person: User, habit: Habit) -> str | None:
    if habit.owner_id != person.pk:
        return "Only the person who keeps a habit can retire it."
    return None


def may_retire_habit(person: User, habit: Habit) -> bool:
    return why_not_retire_habit(person, habit) is None


def why_not_check_in_habit(person: User, habit: Habit) -> str | None:
    """The partner checks a habit in, never its owner (membership is
    `why_not_act_as_member`)."""
    if habit.owner_id == person.pk:
        return "Your partner checks your habits in, not you: bring it to your next session."
    return None


def may_check_in_habit(person: User, habit: Habit) -> bool:
    return why_not_check_in_habit(person, habit) is None
