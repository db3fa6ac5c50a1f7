"""The moved models' content types follow them (cadence → notifications), so their
permissions — and every group or person granted one (people/groups.py) — and the
admin's log entries stay attached. A fresh database has none yet: nothing to do."""

from django.db import migrations

MOVED = ["notification", "notificationpreference", "teamchannel"]


def relabel(apps, schema_editor, old="cadence", new="notifications"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    content_types = ContentType.objects.using(db)
    for model in MOVED:
        if not content_types.filter(app_label=old, model=model).exists():
            continue
        # One made for the new label before this ran (a post_migrate in between) holds
        # no grant that matters: the old one, which carries them, takes its place.
        content_types.filter(app_label=new, model=model).delete()
        content_types.filter(app_label=old, model=model).update(app_label=new)


def relabel_back(apps, schema_editor):
    relabel(apps, schema_editor, old="notifications", new="cadence")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("cadence", "0021_notifications_moved_out"),
        ("notifications", "0001_initial"),
    ]

    operations = [migrations.RunPython(relabel, relabel_back)]
