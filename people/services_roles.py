"""The appointed roles (HR, programme admin): granted and revoked as groups, audited."""

from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import transaction

from core.errors import Forbidden

from . import rules
from .models import (
    User,
)
from .roles import GROUP_FOR_ROLE, Role
from .services_audit import audit_record


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
