"""Peer pairs and the learning loop moved to their own apps (peers 0001, learning 0001)
with their tables: coaching forgets them in the state only, and their content types
follow them, so the permissions behind the admin and the role groups (people/groups.py)
are the same rows under the new app labels."""

from django.db import migrations

PEERS = [
    "agreementtemplate",
    "peerpair",
    "pairmember",
    "peerrequest",
    "pairnote",
    "habit",
    "habitcheckin",
]
LEARNING = ["experiment", "learningtag", "learning", "playbookmodule"]


def _relabel(apps, schema_editor, *, forward: bool):
    ContentType = apps.get_model("contenttypes", "ContentType")
    rows = ContentType.objects.using(schema_editor.connection.alias)
    for app, models in (("peers", PEERS), ("learning", LEARNING)):
        old, new = ("coaching", app) if forward else (app, "coaching")
        for model in models:
            # Where the new label exists already (post_migrate made it while the rows
            # were elsewhere), the old one is left alone rather than clash.
            if not rows.filter(app_label=new, model=model).exists():
                rows.filter(app_label=old, model=model).update(app_label=new)
    ContentType.objects.clear_cache()


def forwards(apps, schema_editor):
    _relabel(apps, schema_editor, forward=True)


def backwards(apps, schema_editor):
    _relabel(apps, schema_editor, forward=False)


class Migration(migrations.Migration):
    dependencies = [
        ("coaching", "0023_notes_written"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("peers", "0001_initial"),
        ("learning", "0001_initial"),
        ("cadence", "0022_pairs_moved_to_peers"),
        ("notifications", "0003_pairs_moved_to_peers"),
    ]

    operations = [
        # The tables stay (peers and learning use them): only the state changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="HabitCheckIn"),
                migrations.DeleteModel(name="Habit"),
                migrations.DeleteModel(name="PairNote"),
                migrations.DeleteModel(name="PairMember"),
                migrations.DeleteModel(name="PeerRequest"),
                migrations.DeleteModel(name="Learning"),
                migrations.DeleteModel(name="LearningTag"),
                migrations.DeleteModel(name="Experiment"),
                migrations.DeleteModel(name="PlaybookModule"),
                migrations.DeleteModel(name="PeerPair"),
                migrations.DeleteModel(name="AgreementTemplate"),
            ],
        ),
        migrations.RunPython(forwards, backwards),
    ]
