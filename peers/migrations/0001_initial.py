"""Peer pairs move out of coaching with their tables: the models are created in the
state only (`db_table` keeps the `coaching_` names); coaching 0024 removes them from
its state."""

import django.db.models.deletion
import django.utils.timezone
import people.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("coaching", "0023_notes_written"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The tables exist already (coaching's): only the state changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AgreementTemplate",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("text", models.TextField(max_length=5000)),
                        ("updated_at", models.DateTimeField(default=django.utils.timezone.now)),
                    ],
                    options={
                        "db_table": "coaching_agreementtemplate",
                    },
                ),
                migrations.CreateModel(
                    name="PeerPair",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "rationale",
                            models.CharField(
                                choices=[
                                    (
                                        "complementary",
                                        "Complementary skills: each is strong where the other grows",
                                    ),
                                    ("similar", "Similar goals: working on the same skill"),
                                ],
                                max_length=16,
                            ),
                        ),
                        (
                            "rationale_note",
                            models.CharField(
                                blank=True,
                                help_text="E.g. what the scores show.",
                                max_length=500,
                                verbose_name="why these people",
                            ),
                        ),
                        ("agreement_text", models.TextField(max_length=5000)),
                        ("weekday", models.PositiveSmallIntegerField(help_text="0 = Monday.")),
                        ("local_time", models.TimeField()),
                        (
                            "time_zone",
                            models.CharField(
                                max_length=64, validators=[people.models.validate_time_zone]
                            ),
                        ),
                        ("interval_weeks", models.PositiveSmallIntegerField(default=2)),
                        ("duration_minutes", models.PositiveSmallIntegerField(default=30)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("started_at", models.DateTimeField(blank=True, null=True)),
                        ("ended_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "created_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "focus_area",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="pairs",
                                to="coaching.focusarea",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "coaching_peerpair",
                        "ordering": ["-created_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="PairNote",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("text", models.TextField(max_length=5000)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "author",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "pair",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="notes",
                                to="peers.peerpair",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "coaching_pairnote",
                        "ordering": ["-created_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="PairMember",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("accepted_at", models.DateTimeField(blank=True, null=True)),
                        ("left_at", models.DateTimeField(blank=True, null=True)),
                        ("left_reason", models.CharField(blank=True, max_length=500)),
                        (
                            "person",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="pair_memberships",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "pair",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="members",
                                to="peers.peerpair",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "coaching_pairmember",
                        "ordering": ["pair", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="Habit",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("text", models.CharField(max_length=300)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("retired_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "owner",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "pair",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="habits",
                                to="peers.peerpair",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "coaching_habit",
                        "ordering": ["pair", "created_at", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="PeerRequest",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "note",
                            models.CharField(
                                blank=True,
                                max_length=300,
                                verbose_name="what you would like to work on",
                            ),
                        ),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("updated_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "focus_area",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="coaching.focusarea",
                            ),
                        ),
                        (
                            "person",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="peer_request",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "coaching_peerrequest",
                        "ordering": ["created_at", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="HabitCheckIn",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "outcome",
                            models.CharField(
                                choices=[
                                    ("kept", "Kept it"),
                                    ("partly", "Partly"),
                                    ("not_yet", "Not yet"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("note", models.CharField(blank=True, max_length=300)),
                        ("checked_on", models.DateField()),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "checked_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "habit",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="check_ins",
                                to="peers.habit",
                            ),
                        ),
                        (
                            "session",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="habit_check_ins",
                                to="coaching.coachingsession",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "coaching_habitcheckin",
                        "ordering": ["-checked_on", "-id"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("outcome__in", ["kept", "partly", "not_yet"])),
                                name="check_in_outcome_valid",
                            ),
                            models.UniqueConstraint(
                                condition=models.Q(("session__isnull", False)),
                                fields=("habit", "session"),
                                name="check_in_once_a_session",
                            ),
                        ],
                    },
                ),
                migrations.AddConstraint(
                    model_name="peerpair",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("rationale__in", ["complementary", "similar"])),
                        name="pair_rationale_valid",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="peerpair",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("weekday__lte", 6)), name="pair_weekday_valid"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="peerpair",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("interval_weeks__gte", 1), ("interval_weeks__lte", 4)),
                        name="pair_interval_valid",
                    ),
                ),
                migrations.AddIndex(
                    model_name="pairmember",
                    index=models.Index(fields=["person", "pair"], name="pair_member_by_person"),
                ),
                migrations.AddConstraint(
                    model_name="pairmember",
                    constraint=models.UniqueConstraint(
                        fields=("pair", "person"), name="pair_member_once"
                    ),
                ),
            ],
        ),
    ]
