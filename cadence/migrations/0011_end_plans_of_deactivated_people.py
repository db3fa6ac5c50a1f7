"""Plans of people deactivated before deactivation ended them (cadence.services
.follow_leaver) are ended now, as "Deactivated": sessions with someone gone were being
generated, swept as missed and escalated. Their untouched future sessions go, as
`engine.occurrences_discard_untouched` would; held ones stay. Written with the models
as they are at this migration, so it does not change when the code does."""

from django.db import migrations
from django.db.models import F, Q
from django.utils import timezone


def end_plans_of_deactivated_people(apps, schema_editor):
    CadencePlan = apps.get_model("cadence", "CadencePlan")
    CoachingSession = apps.get_model("coaching", "CoachingSession")
    now = timezone.now()
    stale = CadencePlan.objects.filter(ended_at__isnull=True).filter(
        Q(coach__is_active=False) | Q(coachee__is_active=False)
    )
    ids = list(stale.values_list("pk", flat=True))
    if not ids:
        return
    untouched = CoachingSession.objects.filter(
        occurrence__plan__in=ids,
        occurrence__slot_start__gt=now,
        status="scheduled",
        scheduled_start=F("original_start"),
        notes__version=0,
        agenda__isnull=True,
        private_notes__isnull=True,
        commitments_made__isnull=True,
    )
    CoachingSession.objects.filter(pk__in=list(untouched.values_list("pk", flat=True))).delete()
    CadencePlan.objects.filter(pk__in=ids).update(ended_at=now, end_reason="deactivated")


class Migration(migrations.Migration):
    dependencies = [
        ("cadence", "0010_plan_end_reasons_on_leaving"),
        ("coaching", "0019_peer_request"),
    ]

    operations = [
        migrations.RunPython(end_plans_of_deactivated_people, migrations.RunPython.noop),
    ]
