"""The learning loop: experiments (coaching as discovery), the shared library of
learnings, and the playbook modules teams pick from.

Moved out of coaching with their tables (`db_table` keeps the `coaching_` names, the
many-to-many tables too)."""

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from coaching.models import CoachingSession, Commitment, FocusArea
from peers.models import PairMember, PeerPair
from people.models import TeamMembership, User

USER = settings.AUTH_USER_MODEL
BODY_LIMIT = 10_000


# --- Experiments ---------------------------------------------------------------------------


class ExperimentStatus(models.TextChoices):
    PLANNED = "planned", "Planned"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    DROPPED = "dropped", "Dropped"


class ExperimentQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The owner, the owner's management chain, and the owner's partners in the
        pair it belongs to (while they are members)."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        partner = PairMember.objects.filter(
            pair=OuterRef("pair"), person=user, left_at__isnull=True
        )
        below = User.objects.below(user).values("pk")
        return self.filter(Q(owner=user) | Q(owner__in=below) | Exists(partner))


class Experiment(models.Model):
    """A hypothesis, a small test this week, the evidence that would change your mind;
    then the result and what was learned."""

    owner = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="experiments")
    hypothesis = models.CharField(
        max_length=300, help_text="E.g. “Leading with the conclusion keeps the room.”"
    )
    test = models.TextField(
        "the small test this week",
        max_length=2_000,
        help_text="What you will try, where, how many times.",
    )
    evidence = models.CharField("what would change my mind", max_length=500, blank=True)
    result = models.TextField("what happened", max_length=2_000, blank=True)
    learning = models.TextField("what I learned", max_length=2_000, blank=True)
    status = models.CharField(
        max_length=16, choices=ExperimentStatus.choices, default=ExperimentStatus.PLANNED
    )
    focus_area = models.ForeignKey(
        FocusArea, null=True, blank=True, on_delete=models.SET_NULL, related_name="experiments"
    )
    session = models.ForeignKey(
        CoachingSession,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="experiments",
    )
    commitment = models.ForeignKey(
        Commitment, null=True, blank=True, on_delete=models.SET_NULL, related_name="experiments"
    )
    pair = models.ForeignKey(
        PeerPair, null=True, blank=True, on_delete=models.SET_NULL, related_name="experiments"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = ExperimentQuerySet.as_manager()

    class Meta:
        db_table = "coaching_experiment"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=ExperimentStatus.values), name="experiment_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status=ExperimentStatus.DONE) | ~Q(result=""),
                name="done_experiment_has_result",
            ),
        ]
        indexes = [
            # "My experiments" by state.
            models.Index(fields=["owner", "status", "-created_at"], name="experiment_by_owner"),
        ]

    def __str__(self):
        return f"Experiment #{self.pk}"


# --- The learnings library --------------------------------------------------------------------


class LearningKind(models.TextChoices):
    LEARNING = "learning", "Learning"
    CASE_STUDY = "case_study", "Case study"
    CHECKLIST = "checklist", "Checklist"
    TEMPLATE = "template", "Template"


class Audience(models.TextChoices):
    TEAM = "team", "My team"
    ORGANISATION = "organisation", "Everyone in the organisation"


class LearningTag(models.Model):
    name = models.CharField(max_length=40, unique=True)

    class Meta:
        db_table = "coaching_learningtag"
        ordering = ["name"]

    def __str__(self):
        return self.name


class LearningQuerySet(models.QuerySet):
    def visible_to(self, user):
        """Everyone for the organisation; for a team, its current members and lead;
        the author always."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        on_team = TeamMembership.objects.current().filter(team=OuterRef("team"), person=user)
        return self.filter(
            Q(audience=Audience.ORGANISATION)
            | Q(author=user)
            | (Q(audience=Audience.TEAM) & (Exists(on_team) | Q(team__lead=user)))
        )


class Learning(models.Model):
    """Something that worked (or did not), shared so the next person starts ahead: a
    case study, a checklist, a template, or a plain learning."""

    author = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="learnings")
    kind = models.CharField(max_length=16, choices=LearningKind.choices)
    title = models.CharField(max_length=200)
    body = models.TextField(max_length=BODY_LIMIT)
    tags = models.ManyToManyField(
        LearningTag, blank=True, related_name="learnings", db_table="coaching_learning_tags"
    )
    focus_area = models.ForeignKey(
        FocusArea, null=True, blank=True, on_delete=models.SET_NULL, related_name="learnings"
    )
    audience = models.CharField(max_length=16, choices=Audience.choices)
    team = models.ForeignKey(
        "people.Team", null=True, blank=True, on_delete=models.CASCADE, related_name="learnings"
    )
    experiment = models.ForeignKey(
        Experiment, null=True, blank=True, on_delete=models.SET_NULL, related_name="learnings"
    )
    session = models.ForeignKey(
        CoachingSession, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    published_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = LearningQuerySet.as_manager()

    class Meta:
        db_table = "coaching_learning"
        ordering = ["-published_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=LearningKind.values), name="learning_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(audience=Audience.ORGANISATION) | Q(team__isnull=False),
                name="team_learning_has_team",
            ),
        ]

    def __str__(self):
        # Never the title: a team's learning is the team's, and this reaches the
        # admin's delete pages (a person's or a team's) and logs.
        return f"Learning #{self.pk}"


# --- Playbooks --------------------------------------------------------------------------------


class Department(models.TextChoices):
    CORE = "core", "Core (everyone)"
    SALES = "sales", "Sales"
    ENGINEERING = "engineering", "Engineering"
    SUPPORT = "support", "Customer support"


class PlaybookModule(models.Model):
    """The core playbook and its department add-ons: goals, prompts, a suggested
    cadence and example experiments. Programme admins edit them; teams pick theirs."""

    name = models.CharField(max_length=120, unique=True)
    department = models.CharField(max_length=16, choices=Department.choices)
    summary = models.CharField(max_length=300)
    goals = models.TextField(max_length=BODY_LIMIT, help_text="One per line.")
    prompts = models.TextField(max_length=BODY_LIMIT, help_text="One per line.")
    cadence = models.TextField("suggested cadence", max_length=BODY_LIMIT)
    experiments = models.TextField(
        "example experiments", max_length=BODY_LIMIT, help_text="One per line."
    )
    position = models.PositiveSmallIntegerField(default=0)
    is_active = models.BooleanField(default=True)
    teams = models.ManyToManyField(
        "people.Team",
        blank=True,
        related_name="playbook_modules",
        help_text="Teams using it.",
        db_table="coaching_playbookmodule_teams",
    )

    class Meta:
        db_table = "coaching_playbookmodule"
        ordering = ["position", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(department__in=Department.values), name="playbook_department_valid"
            ),
        ]

    def __str__(self):
        return self.name

    @staticmethod
    def _lines(text: str) -> list[str]:
        return [line.strip() for line in text.splitlines() if line.strip()]

    @property
    def goal_list(self) -> list[str]:
        return self._lines(self.goals)

    @property
    def prompt_list(self) -> list[str]:
        return self._lines(self.prompts)

    @property
    def experiment_list(self) -> list[str]:
        return self._lines(self.experiments)
