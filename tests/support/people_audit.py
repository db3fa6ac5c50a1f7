"""An audit trail for the Audit log's tests (page and API): `record` writes an event
as if at a moment, `one_of_each` an event of each area and one of an old verb, by and
about different people."""

from datetime import UTC, datetime, timedelta

import time_machine

from people.models import AuditEvent
from people.services_audit import audit_record

T0 = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def record(at: datetime, **kwargs) -> AuditEvent:
    """`audit_record` as if at `at`."""
    with time_machine.travel(at, tick=False):
        return audit_record(**kwargs)


def one_of_each(org) -> dict[str, AuditEvent]:
    minutes = [T0 + timedelta(minutes=m) for m in range(7)]
    return {
        "access": record(minutes[0], actor=org.rep, verb="auth.signed_in"),
        "access 2": record(minutes[1], actor=org.hr, verb="mfa.added"),
        "people": record(minutes[2], actor=org.admin, verb="person.changed", target=org.rep),
        "people 2": record(minutes[3], actor=org.admin, verb="person.changed", target=org.peer),
        "reads": record(minutes[4], actor=org.manager, verb="dashboards.export", target=org.rep),
        "programme": record(minutes[5], actor=org.admin, verb="plan.created"),
        "old": record(minutes[6], actor=org.rep, verb="legacy.thing"),
    }
