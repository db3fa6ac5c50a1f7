"""Seeds the pair agreement, the experiment prompt menu and the playbook modules
(`coaching.programme_content`), and on PostgreSQL the full-text index the learnings
library searches with."""

from django.db import migrations

from coaching.programme_content import seed_programme_content

# The library's search: title and body, English stemming (learning.selectors).
SEARCH_INDEX = (
    "CREATE INDEX IF NOT EXISTS learning_search ON coaching_learning USING GIN "
    "(to_tsvector('english', coalesce(title, '') || ' ' || coalesce(body, '')))"
)


def seed(apps, schema_editor):
    seed_programme_content(apps, peers="coaching", learning="coaching")


def search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(SEARCH_INDEX)


def drop_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS learning_search")


class Migration(migrations.Migration):
    dependencies = [("coaching", "0006_peers_experiments_library")]
    operations = [
        migrations.RunPython(seed, migrations.RunPython.noop),
        migrations.RunPython(search_index, drop_search_index),
    ]
