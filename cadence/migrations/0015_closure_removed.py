from django.db import migrations, models


def removed_from_the_audit_log(apps, schema_editor):
    """Closures made before a worker cleared them were cleared as they were made: their
    count is in their `closure.created` event (0 where none is left)."""
    Closure = apps.get_model("cadence", "Closure")
    AuditEvent = apps.get_model("people", "AuditEvent")
    counts = {
        target_id: data.get("sessions_removed", 0)
        for target_id, data in AuditEvent.objects.filter(verb="closure.created").values_list(
            "target_id", "data"
        )
    }
    for closure in Closure.objects.filter(removed__isnull=True):
        closure.removed = counts.get(str(closure.pk), 0)
        closure.save(update_fields=["removed"])


class Migration(migrations.Migration):
    dependencies = [
        ("cadence", "0014_closure"),
        ("people", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="closure",
            name="removed",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(removed_from_the_audit_log, migrations.RunPython.noop),
    ]
