"""The protected rhythm: policies say what a team runs, plans say who meets whom and
when (local wall time + IANA zone + a rule), occurrences tie each planned slot to the
coaching session materialised for it, and the notification outbox tells people.

The database is the schedule: beat tasks look at these tables; Celery messages carry
ids only and never an ETA for reminders days ahead."""

from django.conf import settings
from django.db import models
from django.db.models import Exists, F, Q
from django.utils import timezone

from coaching.models import CoachingSession, SessionKind
from people.models import Team, User, validate_time_zone

USER = settings.AUTH_USER_MODEL


class Recurrence(models.TextChoices):
    WEEKLY = "weekly", "Every n weeks on a weekday"
    MONTHLY_NTH = "monthly_nth", "Monthly on the n-th weekday"
    MONTHLY_LAST = "monthly_last", "Monthly on the last weekday"


class Weekday(models.IntegerChoices):
    MONDAY = 0, "Monday"
    TUESDAY = 1, "Tuesday"
    WEDNESDAY = 2, "Wednesday"
    THURSDAY = 3, "Thursday"
    FRIDAY = 4, "Friday"
    SATURDAY = 5, "Saturday"
    SUNDAY = 6, "Sunday"


PLANNED_KINDS = [
    (SessionKind.ONE_ON_ONE.value, SessionKind.ONE_ON_ONE.label),
    (SessionKind.TEAM_CALL_REVIEW.value, SessionKind.TEAM_CALL_REVIEW.label),
    (SessionKind.ROLE_PLAY.value, SessionKind.ROLE_PLAY.label),
    (SessionKind.MANAGER_REVIEW.value, SessionKind.MANAGER_REVIEW.label),
    (SessionKind.PEER.value, SessionKind.PEER.label),
]


class RuleFields(models.Model):
    """When something recurs, in local wall time: shared by policy items and plans."""

    recurrence = models.CharField(
        max_length=16, choices=Recurrence.choices, default=Recurrence.WEEKLY
    )
    weekday = models.PositiveSmallIntegerField(choices=Weekday.choices, default=Weekday.TUESDAY)
    interval_weeks = models.PositiveSmallIntegerField(
        default=1, help_text="Weekly rules: every how many weeks (1–8)."
    )
    week_of_month = models.PositiveSmallIntegerField(
        default=1, help_text="Monthly n-th weekday rules: which one (1–4)."
    )
    local_time = models.TimeField(help_text="Wall-clock time in the plan's time zone.")
    duration_minutes = models.PositiveSmallIntegerField(default=30)

    class Meta:
        abstract = True
        constraints = []

    @classmethod
    def rule_constraints(cls, prefix: str) -> list:
        return [
            models.CheckConstraint(
                condition=Q(interval_weeks__gte=1) & Q(interval_weeks__lte=8),
                name=f"{prefix}_interval_1_to_8",
            ),
            models.CheckConstraint(
                condition=Q(week_of_month__gte=1) & Q(week_of_month__lte=4),
                name=f"{prefix}_week_of_month_1_to_4",
            ),
            models.CheckConstraint(condition=Q(weekday__lte=6), name=f"{prefix}_weekday_valid"),
            models.CheckConstraint(
                condition=Q(duration_minutes__gte=5) & Q(duration_minutes__lte=480),
                name=f"{prefix}_duration_sensible",
            ),
            models.CheckConstraint(
                condition=Q(recurrence__in=Recurrence.values), name=f"{prefix}_recurrence_valid"
            ),
        ]


class CadencePolicy(models.Model):
    """What a team runs, e.g. "weekly 1:1 per rep, weekly call review, monthly
    role-play, monthly manager review". Programme admins write these."""

    name = models.CharField(max_length=120, unique=True)
    description = models.TextField(blank=True, max_length=2000)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "cadence policies"

    def __str__(self):
        return self.name


class PolicyItem(RuleFields):
    policy = models.ForeignKey(CadencePolicy, on_delete=models.CASCADE, related_name="items")
    kind = models.CharField(max_length=32, choices=PLANNED_KINDS[:4])

    class Meta:
        ordering = ["policy", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["policy", "kind"], name="policy_item_kind_once"),
            *RuleFields.rule_constraints("policy_item"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} ({self.get_recurrence_display()})"


class PolicyAssignment(models.Model):
    """A policy applied to a team. Ending it ends the plans it made."""

    policy = models.ForeignKey(CadencePolicy, on_delete=models.PROTECT, related_name="assignments")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="policy_assignments")
    applied_at = models.DateTimeField(default=timezone.now)
    applied_by = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-applied_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["team"], condition=Q(ended_at__isnull=True), name="one_policy_per_team"
            )
        ]

    def __str__(self):
        return f"{self.policy} → {self.team}"


class EndReason(models.TextChoices):
    LEFT_TEAM = "left_team", "Left the team"
    NEW_MANAGER = "new_manager", "New manager"
    REPLACED = "replaced", "Replaced by another plan"
    POLICY_ENDED = "policy_ended", "Team policy ended"
    ROLE_CHANGE = "role_change", "Role changed"
    LEAVE = "leave", "Long leave"
    DEPARTED = "departed", "Left the organisation"
    DEACTIVATED = "deactivated", "Deactivated"
    PAIR_ENDED = "pair_ended", "Peer pair ended"
    OTHER = "other", "Other"


class PlanQuerySet(models.QuerySet):
    def live(self):
        return self.filter(ended_at__isnull=True)

    def visible_to(self, user):
        """The coach, the coachee, and everyone above the coach."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        below = User.objects.below(user).values("pk")
        return self.filter(Q(coach=user) | Q(coachee=user) | Q(coach__in=below))


class CadencePlan(RuleFields):
    """Who meets whom, what kind of session, when. Never deleted: ending one asks for a
    reason, which the health metrics show."""

    kind = models.CharField(max_length=32, choices=PLANNED_KINDS)
    coach = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="plans_run")
    coachee = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.PROTECT, related_name="plans_received"
    )
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="plans"
    )
    assignment = models.ForeignKey(
        PolicyAssignment, null=True, blank=True, on_delete=models.SET_NULL, related_name="plans"
    )
    # A peer pair's plan: its sessions are for the pair's current members (two or three).
    pair = models.ForeignKey(
        "peers.PeerPair", null=True, blank=True, on_delete=models.PROTECT, related_name="plans"
    )
    time_zone = models.CharField(max_length=64, validators=[validate_time_zone])
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    paused = models.BooleanField(default=False)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    end_reason = models.CharField(max_length=32, choices=EndReason.choices, blank=True)
    end_note = models.CharField(max_length=500, blank=True)
    # Every slot before this has been made: the first slot past the generator's
    # horizon (cadence/engine.py, NEXT_SLOT_WITHIN); None until the first run.
    generated_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = PlanQuerySet.as_manager()

    class Meta:
        ordering = ["kind", "id"]
        constraints = [
            *RuleFields.rule_constraints("plan"),
            models.CheckConstraint(
                condition=Q(kind__in=[k for k, _ in PLANNED_KINDS]), name="plan_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=F("starts_on")),
                name="plan_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | ~Q(end_reason=""),
                name="ended_plan_has_reason",
            ),
            # One live plan per pair and kind, one per team and kind: applying a policy
            # twice, or two admins at once, cannot double anyone's calendar.
            models.UniqueConstraint(
                fields=["kind", "coach", "coachee"],
                condition=Q(ended_at__isnull=True, coachee__isnull=False),
                name="one_live_plan_per_pair",
            ),
            models.UniqueConstraint(
                fields=["kind", "team"],
                condition=Q(ended_at__isnull=True, team__isnull=False, coachee__isnull=True),
                name="one_live_plan_per_team",
            ),
        ]
        indexes = [
            # The generator: live, unpaused plans whose horizon is behind.
            models.Index(
                fields=["generated_until"],
                condition=Q(ended_at__isnull=True, paused=False),
                name="plan_generation_due",
            ),
        ]

    def __str__(self):
        who = self.coachee or self.team
        return f"{self.get_kind_display()} · {self.coach} · {who}"

    @property
    def is_live(self) -> bool:
        return self.ended_at is None

    @property
    def counterpart_name(self) -> str:
        """Whom the coach meets: the coachee, or the team for a team session."""
        return self.coachee.display_name if self.coachee else self.team.name


class Occurrence(models.Model):
    """One planned slot of a plan and the session made for it. `slot_start` is the
    original slot (UTC) and never changes: moving the session keeps it, so the
    generator never recreates a moved slot and the on-time rate stays honest."""

    # No index of its own: `occurrence_once_per_slot` (plan, slot_start) serves "the
    # occurrences of a plan" and the foreign key's checks.
    plan = models.ForeignKey(
        CadencePlan, on_delete=models.PROTECT, related_name="occurrences", db_index=False
    )
    slot_start = models.DateTimeField()
    session = models.OneToOneField(
        CoachingSession, on_delete=models.CASCADE, related_name="occurrence"
    )

    class Meta:
        ordering = ["plan", "slot_start"]
        constraints = [
            models.UniqueConstraint(fields=["plan", "slot_start"], name="occurrence_once_per_slot"),
        ]

    def __str__(self):
        return f"{self.plan} @ {self.slot_start:%Y-%m-%d %H:%M}"


class Closure(models.Model):
    """Days the whole programme pauses — a winter break, a company holiday. The
    generator plans no session on them (in each plan's own time zone), so nothing
    falls due, is missed or escalated; what was already planned there and nobody has
    touched is removed when the closure is made, and planned again if it is removed."""

    name = models.CharField(max_length=100)
    first_day = models.DateField()
    last_day = models.DateField()
    created_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # How many planned sessions went when the days were closed; None while a worker is
    # still removing them (cadence.tasks.clear_closed_days: seconds, even at 10,000
    # people), which the page and the API show as "removing".
    removed = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["first_day", "pk"]
        indexes = [
            # The generator's and the pages' "closures not over yet": last_day >= today.
            models.Index(fields=["last_day"], name="closure_not_over"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(last_day__gte=F("first_day")), name="closure_days_in_order"
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.first_day:%Y-%m-%d} – {self.last_day:%Y-%m-%d})"

    def holds(self, day) -> bool:
        return self.first_day <= day <= self.last_day

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1

    @property
    def is_clearing(self) -> bool:
        return self.removed is None


class CalendarFeed(models.Model):
    """A private iCalendar address. The token is the secret; revoking deletes the row,
    and a new one gets a new token."""

    person = models.OneToOneField(USER, on_delete=models.CASCADE, related_name="calendar_feed")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"Calendar of {self.person}"  # never the token


# --- Programme rollout ------------------------------------------------------------------


class RolloutQuerySet(models.QuerySet):
    @staticmethod
    def team_scope(user, path: str = "") -> Q:
        """Whose install plans `user` may see, as a condition on a team (`path` leads
        from the rows filtered to the team): the team's lead, the people above the
        lead, HR and programme admins. A checklist holds no one's words, only
        whether the rhythm is in place."""
        from people.roles import GROUP_FOR_ROLE, Role

        appointed = User.groups.through.objects.filter(
            user_id=user.pk,
            group__name__in=[GROUP_FOR_ROLE[Role.HR], GROUP_FOR_ROLE[Role.PROGRAMME_ADMIN]],
        )
        below = User.objects.below(user).values("pk")
        return Q(**{f"{path}lead": user}) | Q(**{f"{path}lead__in": below}) | Q(Exists(appointed))

    def visible_to(self, user):
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        return self.filter(self.team_scope(user, "team__"))


class Rollout(models.Model):
    """A team installing the programme: the 30/60/90-day checklist counts from here
    (see `cadence.rollout`)."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="rollout")
    starts_on = models.DateField()
    created_by = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    objects = RolloutQuerySet.as_manager()

    def __str__(self):
        return f"Rollout of {self.team}"


class RolloutTick(models.Model):
    """A checklist item the data cannot tell (recordings turned on, say), ticked by
    the team lead."""

    rollout = models.ForeignKey(Rollout, on_delete=models.CASCADE, related_name="ticks")
    item = models.CharField(max_length=40)
    ticked_by = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    ticked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rollout", "item"], name="rollout_item_once"),
        ]

    def __str__(self):
        return f"{self.item} ticked"
