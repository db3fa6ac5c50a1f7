"""Claims carry a lease, renewed while their sender works through them; the reaper
hands back rows whose lease ran out rather than rows claimed ten minutes ago."""

from datetime import timedelta

from django.db import migrations, models
from django.db.models import F


def lease_rows_being_sent(apps, schema_editor):
    """Rows being sent while this runs keep the ten minutes the old reaper gave them:
    their sender (an older worker) does not renew leases."""
    Notification = apps.get_model("cadence", "Notification")
    Notification.objects.filter(status="sending").update(
        lease_until=F("claimed_at") + timedelta(minutes=10)
    )


class Migration(migrations.Migration):
    dependencies = [("cadence", "0019_notification_withdrawn")]

    operations = [
        migrations.RemoveConstraint(
            model_name="notification",
            name="notification_claimed_while_sending",
        ),
        migrations.RemoveIndex(
            model_name="notification",
            name="notification_stale_claims",
        ),
        migrations.AddField(
            model_name="notification",
            name="lease_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(lease_rows_being_sent, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="notification",
            index=models.Index(
                condition=models.Q(("status", "sending")),
                fields=["lease_until"],
                name="notification_expired_leases",
            ),
        ),
        migrations.AddConstraint(
            model_name="notification",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("claimed_at__isnull", False),
                        ("lease_until__isnull", False),
                        ("status", "sending"),
                    ),
                    models.Q(
                        models.Q(("status", "sending"), _negated=True),
                        ("claimed_at__isnull", True),
                        ("lease_until__isnull", True),
                    ),
                    _connector="OR",
                ),
                name="notification_claimed_while_sending",
            ),
        ),
    ]
