"""Each participant carries its session's scheduled_start, and the person's index
gains it (`participant_by_person_time` replaces `participant_by_person_role`, of which
it is a superset): a person's sessions in a window become a range read."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def copy_session_starts(apps, schema_editor):
    participant = apps.get_model("coaching", "SessionParticipant")
    session = apps.get_model("coaching", "CoachingSession")
    participant.objects.update(
        scheduled_start=Subquery(
            session.objects.filter(pk=OuterRef("session_id")).values("scheduled_start")[:1]
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("coaching", "0015_session_held_by_kind"),
    ]

    operations = [
        migrations.AddField(
            model_name="sessionparticipant",
            name="scheduled_start",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(copy_session_starts, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="sessionparticipant",
            name="scheduled_start",
            field=models.DateTimeField(),
        ),
        migrations.RemoveIndex(
            model_name="sessionparticipant",
            name="participant_by_person_role",
        ),
        migrations.AddIndex(
            model_name="sessionparticipant",
            index=models.Index(
                fields=["person", "role", "scheduled_start"], name="participant_by_person_time"
            ),
        ),
    ]
