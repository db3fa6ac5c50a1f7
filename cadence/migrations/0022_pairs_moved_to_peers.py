"""Plans point at the pairs where they now live (peers.PeerPair): the same table, so
the state only. (The outbox's rows point there in notifications 0003.)"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cadence", "0021_notifications_moved_out"),
        ("peers", "0001_initial"),
    ]

    operations = [
        # The tables exist already (coaching's): only the state changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="cadenceplan",
                    name="pair",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="plans",
                        to="peers.peerpair",
                    ),
                ),
            ],
        ),
    ]
