"""Notifications point at the pairs and requests where they now live (peers.PeerPair,
peers.PeerRequest): the same tables, so the state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0002_content_types_from_cadence"),
        ("peers", "0001_initial"),
    ]

    operations = [
        # The tables exist already (coaching's): only the state changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="notification",
                    name="pair",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notifications",
                        to="peers.peerpair",
                    ),
                ),
                migrations.AlterField(
                    model_name="notification",
                    name="peer_request",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notifications",
                        to="peers.peerrequest",
                    ),
                ),
            ],
        ),
    ]
