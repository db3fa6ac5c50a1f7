"""The learning loop moves out of coaching with its tables, the many-to-many ones too:
the models are created in the state only (`db_table` keeps the `coaching_` names);
coaching 0024 removes them from its state."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("coaching", "0023_notes_written"),
        ("peers", "0001_initial"),
        ("people", "0009_working_hours"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The tables exist already (coaching's): only the state changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="LearningTag",
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
                        ("name", models.CharField(max_length=40, unique=True)),
                    ],
                    options={
                        "db_table": "coaching_learningtag",
                        "ordering": ["name"],
                    },
                ),
                migrations.CreateModel(
                    name="Experiment",
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
                            "hypothesis",
                            models.CharField(
                                help_text="E.g. “Leading with the conclusion keeps the room.”",
                                max_length=300,
                            ),
                        ),
                        (
                            "test",
                            models.TextField(
                                help_text="What you will try, where, how many times.",
                                max_length=2000,
                                verbose_name="the small test this week",
                            ),
                        ),
                        (
                            "evidence",
                            models.CharField(
                                blank=True, max_length=500, verbose_name="what would change my mind"
                            ),
                        ),
                        (
                            "result",
                            models.TextField(
                                blank=True, max_length=2000, verbose_name="what happened"
                            ),
                        ),
                        (
                            "learning",
                            models.TextField(
                                blank=True, max_length=2000, verbose_name="what I learned"
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("planned", "Planned"),
                                    ("running", "Running"),
                                    ("done", "Done"),
                                    ("dropped", "Dropped"),
                                ],
                                default="planned",
                                max_length=16,
                            ),
                        ),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("started_at", models.DateTimeField(blank=True, null=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "commitment",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="experiments",
                                to="coaching.commitment",
                            ),
                        ),
                        (
                            "focus_area",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="experiments",
                                to="coaching.focusarea",
                            ),
                        ),
                        (
                            "owner",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="experiments",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "pair",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="experiments",
                                to="peers.peerpair",
                            ),
                        ),
                        (
                            "session",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="experiments",
                                to="coaching.coachingsession",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "coaching_experiment",
                        "ordering": ["-created_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="Learning",
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
                            "kind",
                            models.CharField(
                                choices=[
                                    ("learning", "Learning"),
                                    ("case_study", "Case study"),
                                    ("checklist", "Checklist"),
                                    ("template", "Template"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("title", models.CharField(max_length=200)),
                        ("body", models.TextField(max_length=10000)),
                        (
                            "audience",
                            models.CharField(
                                choices=[
                                    ("team", "My team"),
                                    ("organisation", "Everyone in the organisation"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("published_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("updated_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "author",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="learnings",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "experiment",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="learnings",
                                to="learning.experiment",
                            ),
                        ),
                        (
                            "focus_area",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="learnings",
                                to="coaching.focusarea",
                            ),
                        ),
                        (
                            "session",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="coaching.coachingsession",
                            ),
                        ),
                        (
                            "team",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="learnings",
                                to="people.team",
                            ),
                        ),
                        (
                            "tags",
                            models.ManyToManyField(
                                blank=True,
                                db_table="coaching_learning_tags",
                                related_name="learnings",
                                to="learning.learningtag",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "coaching_learning",
                        "ordering": ["-published_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="PlaybookModule",
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
                        ("name", models.CharField(max_length=120, unique=True)),
                        (
                            "department",
                            models.CharField(
                                choices=[
                                    ("core", "Core (everyone)"),
                                    ("sales", "Sales"),
                                    ("engineering", "Engineering"),
                                    ("support", "Customer support"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("summary", models.CharField(max_length=300)),
                        ("goals", models.TextField(help_text="One per line.", max_length=10000)),
                        ("prompts", models.TextField(help_text="One per line.", max_length=10000)),
                        (
                            "cadence",
                            models.TextField(max_length=10000, verbose_name="suggested cadence"),
                        ),
                        (
                            "experiments",
                            models.TextField(
                                help_text="One per line.",
                                max_length=10000,
                                verbose_name="example experiments",
                            ),
                        ),
                        ("position", models.PositiveSmallIntegerField(default=0)),
                        ("is_active", models.BooleanField(default=True)),
                        (
                            "teams",
                            models.ManyToManyField(
                                blank=True,
                                db_table="coaching_playbookmodule_teams",
                                help_text="Teams using it.",
                                related_name="playbook_modules",
                                to="people.team",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "coaching_playbookmodule",
                        "ordering": ["position", "name"],
                    },
                ),
                migrations.AddIndex(
                    model_name="experiment",
                    index=models.Index(
                        fields=["owner", "status", "-created_at"], name="experiment_by_owner"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="experiment",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("status__in", ["planned", "running", "done", "dropped"])
                        ),
                        name="experiment_status_valid",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="experiment",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("status", "done"), _negated=True),
                            models.Q(("result", ""), _negated=True),
                            _connector="OR",
                        ),
                        name="done_experiment_has_result",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="learning",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("kind__in", ["learning", "case_study", "checklist", "template"])
                        ),
                        name="learning_kind_valid",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="learning",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("audience", "organisation"), ("team__isnull", False), _connector="OR"
                        ),
                        name="team_learning_has_team",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="playbookmodule",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("department__in", ["core", "sales", "engineering", "support"])
                        ),
                        name="playbook_department_valid",
                    ),
                ),
            ],
        ),
    ]
