"""Accounts and reporting lines: the steps under every change to who someone is and
whom they report to, with its history, audit event and signal.

The `account_*` steps check no actor's rights: they serve the admin site (whose guards
are its own), the import, the demo data and tests, with `actor=None` when no person
acts. The People pages and API call `people.services_people` (`person_create`,
`person_deactivate`, `person_reactivate`), which check who may and then take these
steps. Teams, roles, the audit trail, profiles and credentials have their own
`services_<resource>` modules.

Services are keyword-only, atomic, and raise django's ValidationError with a message
a person can act on; pages show it, the API turns it into a 400."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from .models import ReportingLine, SignInSession, User
from .selectors import people_below
from .services_audit import audit_record
from .signals import person_deactivated, person_reactivated, reporting_line_changed


@transaction.atomic
def account_create(
    *,
    email: str,
    display_name: str,
    time_zone: str = "UTC",
    manager: User | None = None,
    password: str | None = None,
    actor: User | None = None,
) -> User:
    """Someone's account, with their manager when given, audited `person.created`."""
    person = User(
        email=User.objects.normalize_email(email).lower(),
        display_name=display_name.strip(),
        time_zone=time_zone,
    )
    person.set_password(password) if password else person.set_unusable_password()
    # The address's uniqueness is checked below, with a message that says whose.
    person.full_clean(exclude=["password", "reports_to"], validate_constraints=False)
    taken = ValidationError({"email": f"{person.email} already belongs to someone."})
    if User.objects.with_email(person.email).exists():
        raise taken
    try:
        with transaction.atomic():
            person.save()
    except IntegrityError:  # the same address, added a moment ago by someone else
        raise taken from None
    if manager is not None:
        reporting_line_change(person=person, manager=manager, actor=actor)
    audit_record(actor=actor, verb="person.created", target=person)
    return person


def reporting_line_validate(*, person: User, manager: User | None) -> None:
    """Raise ValidationError unless `person` may report to `manager`."""
    if manager is None:
        return
    if manager.pk == person.pk:
        raise ValidationError("A person cannot report to themselves.")
    if not manager.is_active:
        raise ValidationError(f"{manager} is deactivated and cannot manage anyone.")
    if people_below(person=person).filter(pk=manager.pk).exists():
        raise ValidationError(f"{manager} already reports to {person}; that would make a loop.")


@transaction.atomic
def reporting_line_change(
    *,
    person: User,
    manager: User | None,
    actor: User | None = None,
    at: datetime | None = None,
) -> User:
    """Point `person` at a new manager (or none). Takes effect at once; the previous
    line is closed, not overwritten, so who-managed-whom-when stays answerable."""
    at = at or timezone.now()
    person = User.objects.select_for_update().get(pk=person.pk)
    reporting_line_validate(person=person, manager=manager)
    if person.reports_to_id == (manager.pk if manager else None):
        return person

    previous_id = person.reports_to_id
    ReportingLine.objects.filter(report=person, ended_at__isnull=True).update(ended_at=at)
    if manager is not None:
        ReportingLine.objects.create(report=person, manager=manager, started_at=at)
    person.reports_to = manager
    person.save(update_fields=["reports_to"])
    audit_record(
        actor=actor,
        verb="reporting_line.changed",
        target=person,
        data={"from_manager_id": previous_id, "to_manager_id": manager.pk if manager else None},
    )
    reporting_line_changed.send(sender=User, person=person)
    return person


# Why someone is deactivated: a code, never words (the audit trail holds no free text).
DEACTIVATION_REASONS = ("departed", "leave", "security", "unspecified")


@transaction.atomic
def account_deactivate(*, actor: User | None, person: User, reason: str = "unspecified") -> dict:
    """Deactivate `person` and end every way they are signed in, at once: all their
    sign-in sessions (one indexed delete, see people/sessions.py), their API token, and
    — through `person_deactivated`, for the apps to the right — their calendar feed.
    Their data stays (erasure is separate, `people.erasure.person_erase`). Returns and
    audits the counts; deactivating someone already deactivated ends whatever is left."""
    if reason not in DEACTIVATION_REASONS:
        raise ValidationError({"reason": f"One of: {', '.join(DEACTIVATION_REASONS)}."})
    person = User.objects.select_for_update().get(pk=person.pk)
    was_active = person.is_active
    if was_active:
        person.is_active = False
        person.save(update_fields=["is_active"])
    sessions, _ = SignInSession.objects.filter(user_id=person.pk).delete()
    tokens, _ = Token.objects.filter(user=person).delete()
    ended = {"sessions": sessions, "api_tokens": tokens}
    for _receiver, counts in person_deactivated.send(sender=User, person=person, reason=reason):
        ended.update(counts or {})
    audit_record(
        actor=actor,
        verb="person.deactivated",
        target=person,
        data={"reason": reason, "was_active": was_active, **ended},
    )
    return ended


@transaction.atomic
def account_reactivate(*, actor: User | None, person: User) -> User:
    """Let a deactivated person sign in again (with a fresh sign-in: nothing of before
    comes back), and — through `person_reactivated` — back into their teams' cadence."""
    person = User.objects.select_for_update().get(pk=person.pk)
    if person.is_active:
        return person
    person.is_active = True
    person.save(update_fields=["is_active"])
    resumed: dict[str, int] = {}
    for _receiver, counts in person_reactivated.send(sender=User, person=person):
        resumed.update(counts or {})
    audit_record(actor=actor, verb="person.reactivated", target=person, data=resumed)
    return person
