"""Teams: their name, their lead, who is in them. Each change is audited and announced
(`people.signals`), so the cadence follows."""

from typing import cast

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import (
    Team,
    TeamMembership,
    User,
)
from .services_audit import audit_record
from .signals import (
    team_lead_changed,
    team_membership_changed,
)

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
def _team_rename(*, team: Team, name: str, actor: User | None = None) -> bool:
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
    renamed = name is not None and _team_rename(team=locked, name=name, actor=actor)
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
