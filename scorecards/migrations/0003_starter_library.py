"""Seeds the starter library (`scorecards.library`). Unapplying removes a starter
template only while nobody has scored with it or linked a focus area to it."""

from django.db import migrations

from scorecards.library import LIBRARY, seed_starter_library


def seed(apps, schema_editor):
    seed_starter_library(apps)


def _linked_to_focus_areas(schema_editor, criteria: list[int]) -> bool:
    """Focus areas (coaching) link to criteria; scorecards never imports coaching, so
    the link table is looked at directly, if it exists."""
    connection = schema_editor.connection
    table = "coaching_focusarea_criteria"
    if not criteria or table not in connection.introspection.table_names():
        return False
    marks = ", ".join(["%s"] * len(criteria))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {connection.ops.quote_name(table)} "  # noqa: S608 (fixed names)
            f"WHERE criterion_id IN ({marks}) LIMIT 1",
            criteria,
        )
        return cursor.fetchone() is not None


def unseed(apps, schema_editor):
    Template = apps.get_model("scorecards", "Template")
    Criterion = apps.get_model("scorecards", "Criterion")
    CriterionVersion = apps.get_model("scorecards", "CriterionVersion")
    ScoringRound = apps.get_model("scorecards", "ScoringRound")
    Scorecard = apps.get_model("scorecards", "Scorecard")
    for template in Template.objects.filter(name__in=LIBRARY):
        if (
            ScoringRound.objects.filter(version__template=template).exists()
            or Scorecard.objects.filter(version__template=template).exists()
        ):
            continue  # someone scored with it: keep it
        criteria = list(Criterion.objects.filter(template=template).values_list("pk", flat=True))
        if _linked_to_focus_areas(schema_editor, criteria):
            continue
        # Criterion versions protect their lineage: remove them first.
        CriterionVersion.objects.filter(version__template=template).delete()
        Criterion.objects.filter(pk__in=criteria).delete()
        template.delete()


class Migration(migrations.Migration):
    dependencies = [("scorecards", "0002_templates_rounds_scorecards")]
    operations = [migrations.RunPython(seed, unseed)]
