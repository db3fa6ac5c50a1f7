from datetime import timedelta

from django.db import migrations, models
from django.db.models import Q


def fill(apps, schema_editor):
    Session = apps.get_model("coaching", "CoachingSession")
    for session in Session.objects.only("scheduled_start", "duration_minutes").iterator():
        Session.objects.filter(pk=session.pk).update(
            scheduled_end=session.scheduled_start + timedelta(minutes=session.duration_minutes)
        )


class Migration(migrations.Migration):
    dependencies = [("coaching", "0002_seed_prompts")]

    operations = [
        migrations.AddField(
            model_name="coachingsession",
            name="scheduled_end",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="coachingsession",
            name="scheduled_end",
            field=models.DateTimeField(),
        ),
        migrations.AddIndex(
            model_name="coachingsession",
            index=models.Index(
                condition=Q(status="scheduled"),
                fields=["scheduled_end"],
                name="session_sweep_scheduled_end",
            ),
        ),
    ]
