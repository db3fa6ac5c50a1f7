"""The audit trail's appends: one event, or many of one model in one statement.
Every app records through here; `data` holds ids and counts, never private words."""

import json
from collections.abc import Sequence

from django.contrib.contenttypes.models import ContentType
from django.db import connection, models
from django.utils import timezone

from .models import (
    AuditEvent,
    User,
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
