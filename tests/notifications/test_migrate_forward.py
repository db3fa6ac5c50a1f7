"""Notification, NotificationPreference and TeamChannel moved from cadence to the
notifications app with their tables (cadence 0021, notifications 0001 and 0002): a
database at the migration state before the move, with rows in every moved table,
migrated to the latest state, has every row through the new models, and the moved
models' content types — so their permissions and the groups granted them — follow."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from notifications.models import Notification, NotificationPreference, TeamChannel
from tests.support.factories import FeedbackRequestFactory, SessionFactory, TeamFactory, UserFactory
from tests.support.migrations import apps_at, migrate_to, migrate_to_latest

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# The state before the move: cadence at its last migration with the outbox's models,
# and no notifications app yet.
BEFORE = [("cadence", "0020_notification_claim_lease"), ("notifications", None)]
MOVED = ["notification", "notificationpreference", "teamchannel"]


def _old_content_types(apps) -> dict[str, int]:
    """The moved models' content types as the database had them before the move (app
    label `cadence`: migrating back relabelled those the test database was made with),
    and a permission of each granted to a group."""
    content_types = apps.get_model("contenttypes", "ContentType")
    permissions = apps.get_model("auth", "Permission")
    group = apps.get_model("auth", "Group").objects.create(name="Outbox readers")
    assert not content_types.objects.filter(app_label="notifications").exists()
    made = {}
    for model in MOVED:
        ct, _ = content_types.objects.get_or_create(app_label="cadence", model=model)
        permission, _ = permissions.objects.get_or_create(
            content_type=ct, codename=f"view_{model}", defaults={"name": f"Can view {model}"}
        )
        group.permissions.add(permission)
        made[model] = ct.pk
    return made


def test_every_row_of_the_moved_tables_is_found_through_the_new_models(org):
    person, other = UserFactory(), UserFactory()
    team = TeamFactory()
    session = SessionFactory()
    asked = FeedbackRequestFactory()
    now = timezone.now()

    migrate_to(BEFORE)
    old = apps_at(BEFORE[:1])  # the models as of cadence 0020, with what they refer to
    try:
        OldNotification = old.get_model("cadence", "Notification")
        OldPreference = old.get_model("cadence", "NotificationPreference")
        OldChannel = old.get_model("cadence", "TeamChannel")
        content_types = _old_content_types(old)
        rows = [
            OldNotification.objects.create(kind="upcoming", recipient_id=person.pk,
                                           session_id=session.pk),
            OldNotification.objects.create(kind="feedback_asked", recipient_id=other.pk,
                                           feedback_request_id=asked.pk, status="sent",
                                           sent_at=now, attempts=1),
            OldNotification.objects.create(kind="digest", recipient_id=person.pk,
                                           period="2026-W49", status="failed",
                                           last_error="SMTPServerDisconnected: gone"),
            OldNotification.objects.create(kind="team_digest", team_id=team.pk,
                                           period="2026-W49",
                                           next_attempt_at=now + timedelta(minutes=4)),
            OldNotification.objects.create(kind="session_withdrawn", recipient_id=other.pk,
                                           period="17", withdrawn={"summary": "1:1"}),
        ]  # fmt: skip
        preference = OldPreference.objects.create(
            person_id=person.pk, email_digest=False, quiet_from="21:00", quiet_until="07:00"
        )
        channel = OldChannel.objects.create(
            team_id=team.pk, webhook_url="https://hooks.example.com/x", format="teams"
        )
        old_values = {
            row.pk: (row.kind, row.recipient_id, row.team_id, row.session_id,
                     row.feedback_request_id, row.period, row.status, row.attempts,
                     row.last_error, row.withdrawn)
            for row in rows
        }  # fmt: skip
    finally:
        migrate_to_latest()
        ContentType.objects.clear_cache()

    moved = Notification.objects.in_bulk(list(old_values))
    assert {
        pk: (n.kind, n.recipient_id, n.team_id, n.session_id, n.feedback_request_id,
             n.period, n.status, n.attempts, n.last_error, n.withdrawn)
        for pk, n in moved.items()
    } == old_values  # fmt: skip
    kept = NotificationPreference.objects.get(pk=preference.pk)
    assert (kept.person_id, kept.email_digest, kept.wants_email("digest")) == (
        person.pk,
        False,
        False,
    )
    assert kept.quiet_from.hour == 21 and kept.quiet_until.hour == 7
    assert TeamChannel.objects.get(pk=channel.pk).format == TeamChannel.Format.TEAMS
    assert Notification.objects.filter(recipient=person).count() == 2
    # The content types moved with their models, so their grants did too.
    for model, pk in content_types.items():
        ct = ContentType.objects.get(pk=pk)
        assert (ct.app_label, ct.model) == ("notifications", model)
    assert not ContentType.objects.filter(app_label="cadence", model__in=MOVED).exists()
    readers = Group.objects.get(name="Outbox readers")
    assert set(readers.permissions.values_list("content_type__app_label", "codename")) == {
        ("notifications", f"view_{model}") for model in MOVED
    }
    assert Permission.objects.filter(content_type_id__in=content_types.values()).count() >= 3
    assert ContentType.objects.get_for_model(Notification).pk == content_types["notification"]
