"""Seed the interpretive-language list (programme admins edit it afterwards)."""

from django.db import migrations

TERMS = [
    ("you seem", "“You seem…” is an interpretation. What did you see or hear?"),
    ("you always", "“Always” is rarely true and invites a debate. Describe one occasion."),
    ("you never", "“Never” is rarely true and invites a debate. Describe one occasion."),
    ("lazy", "A judgement of character. What did the person do, or not do?"),
    ("attitude", "“Attitude” names a feeling about someone. Describe the behaviour."),
    ("disengaged", "An interpretation. What did you observe — words, silence, actions?"),
    ("unprofessional", "A judgement. Which action, and what effect did it have?"),
    ("not a team player", "A label. Describe a specific moment and its impact."),
    ("obviously", "Invites defensiveness. Describe what happened instead."),
    ("you don't care", "An interpretation of intent. What did you see or hear?"),
]


def seed(apps, schema_editor):
    Term = apps.get_model("feedback", "InterpretiveTerm")
    for phrase, hint in TERMS:
        Term.objects.get_or_create(phrase=phrase, defaults={"hint": hint})


class Migration(migrations.Migration):
    dependencies = [("feedback", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
