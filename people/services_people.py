"""What a programme admin changes about someone on the People pages and through the
API: their name and time zone, their manager, their appointments (HR, programme
admin), whether they are still here. The public verbs (`person_create`,
`person_deactivate`, `person_reactivate`, ...) check who may, then take the steps of
`people.services` (`account_*`, the reporting line) and `services_roles`, so every
change keeps its audit event and its history; the guards the admin site keeps are
here, once, for pages and API alike: nobody changes their own appointments or
deactivates themselves, and a superuser's account is changed by superusers only
(`rules`; refused with `Forbidden`)."""

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction

from core.errors import Forbidden

from . import rules
from .models import User
from .roles import APPOINTED_ROLES, Role
from .selectors import roles_of
from .selectors_people import PEOPLE_STATES, welcome_due
from .services import (
    DEACTIVATION_REASONS,
    account_create,
    account_deactivate,
    account_reactivate,
    reporting_line_change,
)
from .services_audit import audit_record
from .services_roles import role_grant, role_revoke

SUPERUSER_ONLY = rules.SUPERUSER_ONLY


def _may_change(*, actor: User, person: User) -> None:
    if refusal := rules.why_not_change_account(actor, person):
        raise Forbidden(refusal)


@transaction.atomic
def person_details_change(*, actor: User, person: User, display_name: str, time_zone: str) -> bool:
    """Someone's name as others see it and their time zone; True when that changed
    anything. Their email is theirs: with a password reset it is the account."""
    _may_change(actor=actor, person=person)
    person = User.objects.select_for_update().get(pk=person.pk)
    changed = [
        field
        for field, value in (("display_name", display_name.strip()), ("time_zone", time_zone))
        if getattr(person, field) != value
    ]
    if not changed:
        return False
    person.display_name, person.time_zone = display_name.strip(), time_zone
    person.full_clean(exclude=["password", "reports_to"], validate_constraints=False)
    person.save(update_fields=changed)
    audit_record(actor=actor, verb="person.changed", target=person, data={"fields": changed})
    return True


@transaction.atomic
def person_create(*, actor: User, welcome: bool = False, **fields) -> User:
    """Add someone (`account_create`'s fields) and, if asked, email them a welcome — both
    or neither."""
    person = account_create(actor=actor, **fields)
    if welcome:
        person_welcome(actor=actor, person=person)
    return person


_UNCHANGED = object()


@transaction.atomic
def person_update(
    *,
    actor: User,
    person: User,
    display_name: str | None = None,
    time_zone: str | None = None,
    manager=_UNCHANGED,
) -> None:
    """Change what is given of someone's name, time zone and manager (`None`: nobody),
    all or nothing. The manager first: a refused one names the person as they are, not
    as they were about to be renamed."""
    person = User.objects.select_for_update().get(pk=person.pk)
    if manager is not _UNCHANGED:
        person_manager_change(actor=actor, person=person, manager=manager)
    if display_name is not None or time_zone is not None:
        person_details_change(
            actor=actor,
            person=person,
            display_name=person.display_name if display_name is None else display_name,
            time_zone=person.time_zone if time_zone is None else time_zone,
        )


def person_manager_change(*, actor: User, person: User, manager: User | None) -> bool:
    """Who `person` reports to now (`None`: nobody); True when that changed anything.
    The line's history and its refusals (oneself, a loop, someone who left) are
    `reporting_line_change`'s."""
    _may_change(actor=actor, person=person)
    if person.reports_to_id == (manager.pk if manager else None):
        return False
    reporting_line_change(person=person, manager=manager, actor=actor)
    return True


@transaction.atomic
def appointments_set(*, actor: User, person: User, roles: Iterable[Role]) -> bool:
    """Make `person` hold exactly `roles` of the appointed ones (HR, programme admin);
    True when that changed anything. Your own are changed by somebody else."""
    _may_change(actor=actor, person=person)
    wanted = set(roles)
    if wanted - APPOINTED_ROLES:
        names = ", ".join(sorted(role.label for role in wanted - APPOINTED_ROLES))
        raise ValidationError({"roles": f"{names} follows from the reporting line."})
    held = roles_of(person) & APPOINTED_ROLES
    if wanted == held:
        return False
    if refusal := rules.why_not_change_appointments(actor, person):
        raise Forbidden(refusal, field="roles")
    for role in sorted(wanted - held):
        role_grant(person=person, role=role, actor=actor)
    for role in sorted(held - wanted):
        role_revoke(person=person, role=role, actor=actor)
    return True


# The reasons a programme admin gives (a code, never words: the audit trail holds none).
LEAVING_REASONS = {
    "departed": "Left the organisation",
    "leave": "On long leave",
    "security": "A security concern",
}
assert set(LEAVING_REASONS) <= set(DEACTIVATION_REASONS)


def person_deactivate(*, actor: User, person: User, reason: str) -> dict:
    """Deactivate someone (every sign-in ended at once); `account_deactivate` does it."""
    if refusal := rules.why_not_deactivate(actor, person):
        raise Forbidden(refusal)
    if reason not in LEAVING_REASONS:
        raise ValidationError({"reason": f"One of: {', '.join(LEAVING_REASONS)}."})
    return account_deactivate(actor=actor, person=person, reason=reason)


def person_reactivate(*, actor: User, person: User) -> User:
    """Let someone deactivated sign in again, afresh."""
    _may_change(actor=actor, person=person)
    return account_reactivate(actor=actor, person=person)


def person_welcome(*, actor: User, person: User) -> None:
    """Email `person` a welcome with a link to set their password (a worker sends it once
    this commits). Audited `person.welcomed`; never for someone deactivated."""
    if not person.is_active:
        raise ValidationError(f"{person} is deactivated: reactivate them first.")
    from .tasks import send_welcome  # the tasks module imports the services

    audit_record(actor=actor, verb="person.welcomed", target=person)
    # robust: a broker that is down must not undo the change; the admin can send again.
    transaction.on_commit(lambda: send_welcome.delay(person.pk, actor.pk), robust=True)


WELCOME_BATCH = 200  # emails a worker sends over one connection, per task message


def people_welcome(*, actor: User) -> int:
    """Email a welcome to everyone here who has never signed in (after an import, say)
    and holds no link that still works — so pressing it twice, or after some signed
    in, emails nobody twice: batches of WELCOME_BATCH ids, one task message each, once
    this commits. Audited `people.welcomed` with the count; how many there are."""
    from .tasks import send_welcomes

    ids = list(welcome_due().order_by("pk").values_list("pk", flat=True))
    if not ids:
        if User.objects.filter(PEOPLE_STATES["new"][1]).exists():
            raise ValidationError(
                "Everyone who has not signed in yet was sent a welcome whose link still "
                "works: nobody to welcome. To send someone another, open their page."
            )
        raise ValidationError("Everyone here has signed in at least once: nobody to welcome.")
    audit_record(actor=actor, verb="people.welcomed", data={"people": len(ids)})
    for start in range(0, len(ids), WELCOME_BATCH):
        batch = ids[start : start + WELCOME_BATCH]
        transaction.on_commit(lambda batch=batch: send_welcomes.delay(batch, actor.pk), robust=True)
    return len(ids)
