"""What a person may *do* to people's accounts (who may see them is `selectors` and
the role pages' `role_required`). Each `why_not_<verb>` gives the reason a person
reads, or None; `may_<verb>` is its yes/no. The services refuse with the same words
(`core.errors.Forbidden`, a 403 in the API); pages ask them before offering a form."""

from .models import User
from .roles import Role
from .selectors import programme_admin_exists, roles_of

SUPERUSER_ONLY = "Only a superuser changes a superuser's account."


def why_not_change_account(person: User, account: User) -> str | None:
    """Name, time zone, manager, appointments, leaving and returning: a superuser's
    account is changed by superusers only."""
    if account.is_superuser and not person.is_superuser:
        return SUPERUSER_ONLY
    return None


def may_change_account(person: User, account: User) -> bool:
    return why_not_change_account(person, account) is None


def why_not_change_appointments(person: User, account: User) -> str | None:
    """One's own appointments are changed by somebody else."""
    if refusal := why_not_change_account(person, account):
        return refusal
    if account.pk == person.pk:
        return "Your own appointments are changed by someone else."
    return None


def why_not_deactivate(person: User, account: User) -> str | None:
    if refusal := why_not_change_account(person, account):
        return refusal
    if account.pk == person.pk:
        return "You cannot deactivate yourself: ask another programme admin."
    return None


def may_erase(person: User) -> bool:
    """Programme admins and superusers; the plan alone already tells what a person
    left behind, so the dry run asks the same."""
    return person.is_active and (person.is_superuser or Role.PROGRAMME_ADMIN in roles_of(person))


def why_not_erase(person: User) -> str | None:
    return None if may_erase(person) else "Only programme admins may erase people."


def may_become_first_programme_admin(person: User) -> bool:
    """A fresh install has a superuser (`createsuperuser`) and nobody to configure the
    programme; that superuser, and only while nobody active holds the role, may take it."""
    return person.is_authenticated and person.is_superuser and not programme_admin_exists()


def why_not_become_first_programme_admin(person: User) -> str | None:
    if may_become_first_programme_admin(person):
        return None
    return "Someone already runs the programme: ask them to appoint you in People."
