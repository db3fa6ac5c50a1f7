"""Every change to people, reporting lines, teams and roles goes through here.

Services are keyword-only, atomic, and raise django's ValidationError with a message
a person can act on; pages show it, the API turns it into a 400."""

import json
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from typing import cast

from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from core.errors import Forbidden

from . import rules
from .models import (
    AuditEvent,
    ReportingLine,
    SignInSession,
    Team,
    TeamMembership,
    User,
    work_days_bits,
)
from .roles import GROUP_FOR_ROLE, Role
from .selectors import people_below
from .signals import (
    person_deactivated,
    person_reactivated,
    reporting_line_changed,
    team_lead_changed,
    team_membership_changed,
)


def audit_record(
    *,
    actor: User | None,
    verb: str,
    target: models.Model | None = None,
    data: dict | None = None,
    ip: str | None = None,
) -> AuditEvent:
    """Append an audit event. `data` must hold ids and counts, never private words."""
    return AuditEvent.objects.create(
        actor=actor if actor is not None and actor.pk else None,
        verb=verb,
        target_type=ContentType.objects.get_for_model(target) if target is not None else None,
        target_id=str(target.pk) if target is not None else "",
        target_repr=str(target)[:200] if target is not None else "",
        data=data or {},
        ip=ip,
    )


# `audit_record_many` on PostgreSQL: `shared`'s values in its order, then the arrays.
_AUDIT_MANY_SQL = (
    "INSERT INTO people_auditevent"
    " (actor_id, verb, target_type_id, data, ip, at, target_id, target_repr)"
    " SELECT %s, %s, %s, %s::jsonb, %s::inet, %s, t.id, t.repr"
    " FROM unnest(%s::text[], %s::text[]) AS t(id, repr)"
)


def audit_record_many(
    *,
    actor: User | None,
    verb: str,
    targets: Sequence[models.Model],
    data: dict | None = None,
    ip: str | None = None,
) -> int:
    """One event per target (all of one model), in one statement, with the same rules
    as `audit_record`; returns how many."""
    if not targets:
        return 0
    return audit_record_targets(
        actor=actor,
        verb=verb,
        model=type(targets[0]),
        targets=[(target.pk, str(target)) for target in targets],
        data=data,
        ip=ip,
    )


def audit_record_targets(
    *,
    actor: User | None,
    verb: str,
    model: type[models.Model],
    targets: list[tuple[object, str]],
    data: dict | None = None,
    ip: str | None = None,
) -> int:
    """`audit_record_many` for targets known by (id, name) alone — rows read as values,
    never made into objects. On PostgreSQL the database builds the rows from two
    arrays, the ids and the names: building 45,000 AuditEvent objects for the head's
    export of evaluative feedback took most of its time (bench/routes.py)."""
    if not targets:
        return 0
    shared = {
        "actor_id": actor.pk if actor is not None and actor.pk else None,
        "verb": verb,
        "target_type_id": ContentType.objects.get_for_model(model).pk,
        "data": data or {},
        "ip": ip,
        "at": timezone.now(),
    }
    ids = [str(pk) for pk, _ in targets]
    names = [name[:200] for _, name in targets]
    if connection.vendor != "postgresql":
        AuditEvent.objects.bulk_create(
            (
                AuditEvent(**shared, target_id=pk, target_repr=name)
                for pk, name in zip(ids, names, strict=True)
            ),
            batch_size=1000,
        )
        return len(ids)
    shared["data"] = json.dumps(shared["data"])
    with connection.cursor() as cursor:
        cursor.execute(_AUDIT_MANY_SQL, [*shared.values(), ids, names])
    return len(ids)


def audit_record_each(
    *,
    actor: User | None,
    verb: str,
    events: list[tuple[models.Model, dict]],
    ip: str | None = None,
) -> int:
    """`audit_record` for many targets of one model, each with its own `data`, in
    batched inserts; returns how many."""
    if not events:
        return 0
    actor_id = actor.pk if actor is not None and actor.pk else None
    target_type = ContentType.objects.get_for_model(events[0][0])
    at = timezone.now()
    AuditEvent.objects.bulk_create(
        (
            AuditEvent(
                actor_id=actor_id,
                verb=verb,
                target_type=target_type,
                target_id=str(target.pk),
                target_repr=str(target)[:200],
                data=data,
                ip=ip,
                at=at,
            )
            for target, data in events
        ),
        batch_size=1000,
    )
    return len(events)


@transaction.atomic
def person_create(
    *,
    email: str,
    display_name: str,
    time_zone: str = "UTC",
    manager: User | None = None,
    password: str | None = None,
    actor: User | None = None,
) -> User:
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
    if manager is not None:
        if manager.pk == person.pk:
            raise ValidationError("A person cannot report to themselves.")
        if not manager.is_active:
            raise ValidationError(f"{manager} is deactivated and cannot manage anyone.")
        if people_below(person=person).filter(pk=manager.pk).exists():
            raise ValidationError(f"{manager} already reports to {person}; that would make a loop.")
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


TEAM_NAME_LIMIT = cast(int, Team._meta.get_field("name").max_length)


@transaction.atomic
def team_create(*, name: str, lead: User | None = None, actor: User | None = None) -> Team:
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A team needs a name."})
    if len(name) > TEAM_NAME_LIMIT:
        raise ValidationError({"name": f"Keep the name to {TEAM_NAME_LIMIT} characters."})
    if Team.objects.with_name(name).exists():
        raise ValidationError({"name": f"There is already a team called {name}."})
    try:
        with transaction.atomic():
            team = Team.objects.create(name=name, lead=lead)
    except IntegrityError:  # the same name, made a moment ago by someone else
        raise ValidationError({"name": f"There is already a team called {name}."}) from None
    audit_record(actor=actor, verb="team.created", target=team)
    return team


@transaction.atomic
def team_rename(*, team: Team, name: str, actor: User | None = None) -> bool:
    """A team's new name (unique whatever its case); True when that changed anything."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A team needs a name."})
    if len(name) > TEAM_NAME_LIMIT:
        raise ValidationError({"name": f"Keep the name to {TEAM_NAME_LIMIT} characters."})
    if name == team.name:
        return False
    if Team.objects.with_name(name).exclude(pk=team.pk).exists():
        raise ValidationError({"name": f"There is already a team called {name}."})
    previous, team.name = team.name, name
    try:
        with transaction.atomic():
            team.save(update_fields=["name"])
    except IntegrityError:  # the same name, taken a moment ago by someone else
        team.name = previous
        raise ValidationError({"name": f"There is already a team called {name}."}) from None
    audit_record(actor=actor, verb="team.renamed", target=team)
    return True


@transaction.atomic
def team_lead_set(*, team: Team, lead: User | None, actor: User | None = None) -> bool:
    """Make `lead` the team's lead; True when that changed anything."""
    if team.lead_id == (lead.pk if lead else None):
        return False
    previous_id = team.lead_id
    team.lead = lead
    team.save(update_fields=["lead"])
    audit_record(
        actor=actor,
        verb="team.lead_changed",
        target=team,
        data={"from_lead_id": previous_id, "to_lead_id": lead.pk if lead else None},
    )
    team_lead_changed.send(sender=Team, team=team)
    return True


_UNCHANGED = object()


@transaction.atomic
def team_update(
    *, team: Team, name: str | None = None, lead=_UNCHANGED, actor: User | None = None
) -> bool:
    """Rename the team and/or change its lead (`None` clears it), all or nothing, with
    the team's row locked so two editors take turns. What is not passed stays. True
    when that changed anything."""
    locked = Team.objects.select_for_update().get(pk=team.pk)
    renamed = name is not None and team_rename(team=locked, name=name, actor=actor)
    led = lead is not _UNCHANGED and team_lead_set(team=locked, lead=lead, actor=actor)
    team.name, team.lead_id = locked.name, locked.lead_id
    return renamed or led


@transaction.atomic
def team_member_add(*, team: Team, person: User, actor: User | None = None) -> TeamMembership:
    """Idempotent: adding a current member returns the open membership."""
    membership = TeamMembership.objects.current().filter(team=team, person=person).first()
    if membership is not None:
        return membership
    membership = TeamMembership.objects.create(team=team, person=person)
    audit_record(actor=actor, verb="team.member_added", target=team, data={"person_id": person.pk})
    membership_changed_announce(membership)
    return membership


@transaction.atomic
def team_member_remove(*, team: Team, person: User, actor: User | None = None) -> None:
    """Ends the membership; the row stays as history."""
    membership = TeamMembership.objects.current().filter(team=team, person=person).first()
    if membership is None:
        return
    membership.left_at = timezone.now()
    membership.save(update_fields=["left_at"])
    audit_record(
        actor=actor, verb="team.member_removed", target=team, data={"person_id": person.pk}
    )
    membership_changed_announce(membership)


def membership_changed_announce(membership: TeamMembership) -> None:
    """Tell the apps that follow teams (the cadence) that someone joined or left one."""
    team_membership_changed.send(sender=TeamMembership, membership=membership)


@transaction.atomic
def role_grant(*, person: User, role: Role, actor: User | None = None) -> None:
    """Appoint HR or programme admin. Programme admins get the admin site."""
    group = _group_for(role)
    if person.groups.filter(pk=group.pk).exists():
        return
    person.groups.add(group)
    if role is Role.PROGRAMME_ADMIN and not person.is_staff:
        person.is_staff = True
        person.save(update_fields=["is_staff"])
    audit_record(actor=actor, verb="role.granted", target=person, data={"role": str(role)})


@transaction.atomic
def role_revoke(*, person: User, role: Role, actor: User | None = None) -> None:
    group = _group_for(role)
    if not person.groups.filter(pk=group.pk).exists():
        return
    person.groups.remove(group)
    if role is Role.PROGRAMME_ADMIN and person.is_staff and not person.is_superuser:
        person.is_staff = False
        person.save(update_fields=["is_staff"])
    audit_record(actor=actor, verb="role.revoked", target=person, data={"role": str(role)})


@transaction.atomic
def first_programme_admin_claim(*, actor: User) -> None:
    """Make the superuser of a fresh install its first programme admin. The role's
    group row is locked first, so two superusers claiming at once give one admin."""
    group = _group_for(Role.PROGRAMME_ADMIN)
    Group.objects.select_for_update().filter(pk=group.pk).first()
    if refusal := rules.why_not_become_first_programme_admin(actor):
        raise Forbidden(refusal)
    role_grant(person=actor, role=Role.PROGRAMME_ADMIN, actor=actor)


def _group_for(role: Role) -> Group:
    try:
        name = GROUP_FOR_ROLE[role]
    except KeyError:
        raise ValidationError(
            f"{role.label} follows from the reporting line and cannot be granted."
        ) from None
    group, _ = Group.objects.get_or_create(name=name)
    return group


@transaction.atomic
def profile_update(
    *,
    person: User,
    display_name: str,
    time_zone: str,
    work_days: list[int] | None = None,
    work_starts: time | None = None,
    work_ends: time | None = None,
) -> User:
    """Name and time zone, and the working hours when given (`working_hours_save`)."""
    person.display_name = display_name.strip()
    person.time_zone = time_zone
    fields = ["display_name", "time_zone"]
    if work_days is not None:
        _set_working_hours(person, work_days, work_starts, work_ends)
        fields += ["work_days", "work_starts", "work_ends"]
    person.full_clean(exclude=["password", "reports_to"])
    person.save(update_fields=fields)
    return person


# Shortest working day others may book into: less is a typo, not a day.
WORK_HOURS_MIN = timedelta(hours=1)


def _set_working_hours(person: User, days, starts, ends) -> None:
    """Check and set a person's working hours; a ValidationError names each bad field."""
    errors = {}
    if not days or any(not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= 6
                       for d in days):  # fmt: skip
        errors["work_days"] = "Pick at least one working day, Monday to Sunday."
    if not isinstance(starts, time):
        errors["work_starts"] = "Give the time your working day starts, e.g. 09:00."
    if not isinstance(ends, time):
        errors["work_ends"] = "Give the time your working day ends, e.g. 17:00."
    elif isinstance(starts, time):
        length = datetime.combine(date.min, ends) - datetime.combine(date.min, starts)
        if length < WORK_HOURS_MIN:
            errors["work_ends"] = "The working day ends at least an hour after it starts."
    if errors:
        raise ValidationError(errors)
    person.work_days = work_days_bits(days)
    person.work_starts = starts.replace(second=0, microsecond=0, tzinfo=None)
    person.work_ends = ends.replace(second=0, microsecond=0, tzinfo=None)


@transaction.atomic
def working_hours_save(*, person: User, days: list[int], starts: time, ends: time) -> User:
    """A person's own working hours (days 0 = Monday … 6, local start and end in their
    time zone): where others may find them free for a session."""
    person = User.objects.select_for_update().get(pk=person.pk)
    _set_working_hours(person, days, starts, ends)
    person.save(update_fields=["work_days", "work_starts", "work_ends"])
    return person


def api_token_exists(*, person: User) -> bool:
    return Token.objects.filter(user=person).exists()


@transaction.atomic
def api_token_rotate(*, person: User) -> str:
    """Replace the person's API token; returns the new key (shown once)."""
    Token.objects.filter(user=person).delete()
    token = Token.objects.create(user=person)
    audit_record(actor=person, verb="api_token.created", target=person)
    return token.key


@transaction.atomic
def authenticators_remove(*, actor: User, authenticators, ip: str | None = None) -> int:
    """A superuser removes second factors (`authenticators`, a queryset): the way back
    in for someone who lost their phone. Each is audited as `mfa.removed`, as removing
    one oneself is, with whose it was. Returns how many went."""
    removed = list(authenticators.select_related("user"))
    audit_record_each(
        actor=actor,
        verb="mfa.removed",
        events=[(a.user, {"type": a.type, "via": "admin"}) for a in removed],
        ip=ip,
    )
    authenticators.model.objects.filter(pk__in=[a.pk for a in removed]).delete()
    return len(removed)


@transaction.atomic
def api_token_revoke(*, person: User) -> None:
    deleted, _ = Token.objects.filter(user=person).delete()
    if deleted:
        audit_record(actor=person, verb="api_token.revoked", target=person)


def sign_in_sessions_clear_expired() -> int:
    """Delete expired sign-in sessions (the database session store never does)."""
    deleted, _ = SignInSession.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


# Why someone is deactivated: a code, never words (the audit trail holds no free text).
DEACTIVATION_REASONS = ("departed", "leave", "security", "unspecified")


@transaction.atomic
def person_deactivate(*, actor: User | None, person: User, reason: str = "unspecified") -> dict:
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
def person_reactivate(*, actor: User | None, person: User) -> User:
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
