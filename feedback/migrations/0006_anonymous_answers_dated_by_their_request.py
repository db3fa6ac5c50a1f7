"""Anonymous answers given so far carry the day their request was made, as new ones
do: the day each came would tell the requester who answered late (issue 56). The
answered-at of the people asked follows."""

from datetime import UTC, datetime, time

from django.db import migrations, models


def _day(moment):
    return datetime.combine(moment.astimezone(UTC).date(), time.min, tzinfo=UTC)


def date_answers_by_their_request(apps, schema_editor):
    Feedback = apps.get_model("feedback", "Feedback")
    RequestedResponder = apps.get_model("feedback", "RequestedResponder")
    answers = Feedback.objects.filter(anonymous=True, request__isnull=False)
    for item in answers.select_related("request").iterator():
        item.created_at = _day(item.request.created_at)
        item.save(update_fields=["created_at"])
    answered = RequestedResponder.objects.filter(request__anonymous=True, answered_at__isnull=False)
    for row in answered.select_related("request").iterator():
        row.answered_at = _day(row.request.created_at)
        row.save(update_fields=["answered_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("feedback", "0005_anonymous_answers_unlinkable"),
    ]

    operations = [
        migrations.AlterField(
            model_name="feedbackrequest",
            name="anonymous",
            field=models.BooleanField(
                default=False,
                help_text="Upward requests only; answers shown together once the request is "
                "over and enough arrived.",
            ),
        ),
        migrations.RunPython(
            date_answers_by_their_request, migrations.RunPython.noop, elidable=True
        ),
    ]
