"""Cadence policies written by programme admins — from the Team cadence pages and the
API alike: a name, what it is for, and for each kind of session the team keeps, its
rule. A policy is programme copy, not anyone's words; the audit trail still keeps to
ids, kinds and field names.

Changing a policy changes what teams get when it is applied from then on; plans
already made from it stay as their coaches set them (each coach adjusts their own on
My cadence), so an edit here never moves anyone's calendar behind their back."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time
from typing import cast

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from people.models import User
from people.services_audit import audit_record

from .models import PLANNED_KINDS, CadencePolicy, PolicyItem, Recurrence, Weekday
from .policy_plans import check_rule

POLICY_KINDS = [kind for kind, _ in PLANNED_KINDS[:4]]
# A kind's name beside its rule, which says how often ("1:1: Wednesdays, every 2 weeks").
KIND_NAMES = {
    "one_on_one": "1:1",
    "team_call_review": "Team call review",
    "role_play": "Role-play",
    "manager_review": "Manager review",
}
ITEM_FIELDS = (
    "recurrence",
    "weekday",
    "interval_weeks",
    "week_of_month",
    "local_time",
    "duration_minutes",
)
NAME_LIMIT = cast(int, CadencePolicy._meta.get_field("name").max_length)
DESCRIPTION_LIMIT = cast(int, CadencePolicy._meta.get_field("description").max_length)
# The programme's rhythm (DOMAIN.md): what a new policy starts from.
SUGGESTED_ITEMS = {
    "one_on_one": dict(
        recurrence=Recurrence.WEEKLY,
        weekday=Weekday.TUESDAY,
        local_time=time(10, 0),
        duration_minutes=30,
    ),
    "team_call_review": dict(
        recurrence=Recurrence.WEEKLY,
        weekday=Weekday.THURSDAY,
        local_time=time(15, 0),
        duration_minutes=45,
    ),
    "role_play": dict(
        recurrence=Recurrence.MONTHLY_NTH,
        week_of_month=2,
        weekday=Weekday.WEDNESDAY,
        local_time=time(14, 0),
        duration_minutes=60,
    ),
    "manager_review": dict(
        recurrence=Recurrence.MONTHLY_LAST,
        weekday=Weekday.FRIDAY,
        local_time=time(11, 0),
        duration_minutes=45,
    ),
}
_NAME_TAKEN = "There is already a policy called “{name}”: pick another name."


@dataclass(frozen=True)
class PolicySaved:
    policy: CadencePolicy
    created: bool
    changed: list[str]  # "name", "description" and the kinds added, changed or removed


def item_error_key(kind: str, field: str) -> str:
    """Where a policy item's field error is reported: `one_on_one.weekday`."""
    return f"{kind}.{field}"


@transaction.atomic
def policy_save(
    *,
    actor: User | None,
    policy: CadencePolicy | None = None,
    name: str,
    description: str = "",
    items: dict[str, dict],
) -> PolicySaved:
    """Create a policy (`policy` None) or change one. `items` maps each kind the team
    keeps to its rule (`ITEM_FIELDS`); a kind left out is no longer in the policy.
    Raises ValidationError, having written nothing, naming each bad field (an item's
    as `item_error_key`)."""
    name, description = name.strip(), description.strip()
    errors = _policy_errors(policy, name, description, items)
    existing = {item.kind: item for item in policy.items.all()} if policy else {}
    before = {kind: _rule(item) for kind, item in existing.items()}
    wanted = {}
    for kind, rule in items.items():
        if kind not in POLICY_KINDS:
            continue  # refused as a whole in `_policy_errors`
        item = existing.get(kind) or PolicyItem(kind=kind)
        for field in ITEM_FIELDS:
            setattr(item, field, rule.get(field, getattr(item, field)))
        try:
            check_rule(item, exclude=["policy"])
        except ValidationError as exc:
            errors |= {item_error_key(kind, f): m for f, m in exc.message_dict.items()}
        wanted[kind] = item
    if errors:
        raise ValidationError(errors)

    created = policy is None
    policy = policy or CadencePolicy()
    changed = [
        f for f, v in (("name", name), ("description", description)) if getattr(policy, f) != v
    ]
    policy.name, policy.description = name, description
    try:
        with transaction.atomic():
            policy.save()
    except IntegrityError:  # the same name, saved a moment ago by someone else
        raise ValidationError({"name": _NAME_TAKEN.format(name=name)}) from None
    for kind, item in existing.items():
        if kind not in wanted:
            item.delete()
            changed.append(kind)
    for kind, item in wanted.items():
        if before.get(kind) != _rule(item):
            changed.append(kind)
        item.policy = policy
        item.save()
    if created or changed:
        audit_record(
            actor=actor,
            verb="policy.created" if created else "policy.changed",
            target=policy,
            data={"kinds": sorted(wanted)} | ({} if created else {"changed": sorted(set(changed))}),
        )
    return PolicySaved(policy, created, sorted(set(changed)))


def _policy_errors(policy, name: str, description: str, items: dict) -> dict:
    errors = {}
    if not name:
        errors["name"] = "Name the policy, e.g. “Field sales standard”."
    elif len(name) > NAME_LIMIT:
        errors["name"] = f"Keep the name under {NAME_LIMIT} characters."
    elif (
        CadencePolicy.objects.filter(name__iexact=name)
        .exclude(pk=policy.pk if policy else None)
        .exists()
    ):
        errors["name"] = _NAME_TAKEN.format(name=name)
    if len(description) > DESCRIPTION_LIMIT:
        errors["description"] = f"Keep the description under {DESCRIPTION_LIMIT:,} characters."
    unknown = sorted(set(items) - set(POLICY_KINDS))
    if unknown:
        errors["items"] = (
            "A policy holds 1:1s, call reviews, role-plays and manager reviews, "
            f"not {', '.join(unknown)}."
        )
    elif not items:
        errors["items"] = "Pick at least one kind of session the team keeps."
    return errors


def _rule(item: PolicyItem) -> tuple:
    return tuple(getattr(item, field) for field in ITEM_FIELDS)
