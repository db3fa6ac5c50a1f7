"""Anonymous answers stop carrying what could name their author (issue 56): each gets
a random public id (its only address from now on) and keeps the day it came, not the
moment, as does the answered-at of the people asked; and shares of an anonymous
answer with anyone asked for it go — sharing with them is refused from now on, and
a share history missing only the author named them."""

import uuid
from datetime import UTC, datetime, time

from django.conf import settings
from django.db import migrations, models


def _day(moment):
    return datetime.combine(moment.astimezone(UTC).date(), time.min, tzinfo=UTC)


def unlink_anonymous_answers(apps, schema_editor):
    Feedback = apps.get_model("feedback", "Feedback")
    FeedbackShare = apps.get_model("feedback", "FeedbackShare")
    RequestedResponder = apps.get_model("feedback", "RequestedResponder")
    for item in Feedback.objects.filter(anonymous=True, public_id__isnull=True).iterator():
        item.public_id = uuid.uuid4()
        item.created_at = _day(item.created_at)
        item.save(update_fields=["public_id", "created_at"])
    answered = RequestedResponder.objects.filter(request__anonymous=True, answered_at__isnull=False)
    for row in answered.iterator():
        row.answered_at = _day(row.answered_at)
        row.save(update_fields=["answered_at"])
    asked = RequestedResponder.objects.filter(
        request_id=models.OuterRef("feedback__request_id"),
        responder_id=models.OuterRef("person_id"),
    )
    FeedbackShare.objects.filter(feedback__anonymous=True).filter(models.Exists(asked)).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("feedback", "0004_goal_and_focus_links"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="feedback",
            options={"ordering": ["-created_at", "public_id", "-id"]},
        ),
        migrations.AddField(
            model_name="feedback",
            name="public_id",
            field=models.UUIDField(blank=True, editable=False, null=True, unique=True),
        ),
        migrations.RunPython(unlink_anonymous_answers, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="feedback",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("anonymous", False), ("public_id__isnull", False), _connector="OR"
                ),
                name="anonymous_feedback_has_public_id",
            ),
        ),
    ]
