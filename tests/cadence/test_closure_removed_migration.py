"""Migration cadence/0015 gives the closures made before a worker cleared them their
count of removed sessions, from their `closure.created` audit event (where it was
written then), and 0 where there is none: none of them shows as "Removing…"."""

from datetime import date

import pytest

from cadence.models import Closure
from people.services_audit import audit_record
from tests.support.migrations import migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = ("cadence", "0014_closure")
AFTER = ("cadence", "0015_closure_removed")


def test_closures_made_before_take_their_count_from_the_audit_log(org):
    counted = Closure.objects.create(
        name="Winter", first_day=date(2026, 12, 24), last_day=date(2027, 1, 1)
    )
    uncounted = Closure.objects.create(
        name="Offsite", first_day=date(2027, 3, 2), last_day=date(2027, 3, 2)
    )
    audit_record(
        actor=org.admin,
        verb="closure.created",
        target=counted,
        data={"first_day": "2026-12-24", "last_day": "2027-01-01", "sessions_removed": 7},
    )
    migrate(BEFORE)
    try:
        migrate(AFTER)
    finally:
        migrate_to_latest()
    assert Closure.objects.get(pk=counted.pk).removed == 7
    assert Closure.objects.get(pk=uncounted.pk).removed == 0
