"""Ratings count on dashboards only once they can no longer change: `closes_at`, the
session's `held_at` plus the 14 days a coachee may rate it, copied onto each rating
(existing ones in one statement)."""

from datetime import timedelta

from django.db import migrations, models
from django.db.models import DateTimeField, ExpressionWrapper, OuterRef, Subquery

RATING_DAYS = 14  # coaching.ratings.RATING_DAYS when this was written


def copy_closes_at(apps, schema_editor):
    SessionRating = apps.get_model("coaching", "SessionRating")
    CoachingSession = apps.get_model("coaching", "CoachingSession")
    held_at = CoachingSession.objects.filter(pk=OuterRef("session_id")).values("held_at")[:1]
    SessionRating.objects.update(
        closes_at=ExpressionWrapper(
            Subquery(held_at) + timedelta(days=RATING_DAYS), output_field=DateTimeField()
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("coaching", "0017_usefulness_release"),
    ]

    operations = [
        migrations.AddField(
            model_name="sessionrating",
            name="closes_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(copy_closes_at, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="sessionrating",
            name="closes_at",
            field=models.DateTimeField(
                help_text="When the rating can no longer be given, changed or taken back: "
                "the session's held_at plus RATING_DAYS, copied. Dashboards count it only "
                "after."
            ),
        ),
        migrations.AddIndex(
            model_name="sessionrating",
            index=models.Index(fields=["coach", "closes_at"], name="rating_counted_coach_closes"),
        ),
    ]
