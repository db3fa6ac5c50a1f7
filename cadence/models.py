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
from feedback.models import FeedbackRequest
from people.models import Team, User, validate_time_zone

from .delivery_errors import in_words

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
        "coaching.PeerPair", null=True, blank=True, on_delete=models.PROTECT, related_name="plans"
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


class NotificationKind(models.TextChoices):
    UPCOMING = "upcoming", "Session reminder"
    MISSED = "missed", "Session missed"
    ESCALATION = "escalation", "Sessions keep being missed"
    DIGEST = "digest", "Weekly digest"
    TEAM_REMINDER = "team_reminder", "Team call review reminder"
    TEAM_DIGEST = "team_digest", "Weekly team digest"
    FEEDBACK_ASKED = "feedback_asked", "Feedback asked of you"
    FEEDBACK_DUE = "feedback_due", "Feedback request due"
    PAIR_INVITED = "pair_invited", "Invited to a peer pair"
    PEER_ASKED = "peer_asked", "Asked for a peer"
    CHANNEL_TEST = "channel_test", "Team channel test"
    SESSION_INVITED = "session_invited", "Calendar invitation"
    SESSION_MOVED = "session_moved", "Session moved"
    SESSION_CANCELLED = "session_cancelled", "Session cancelled"
    SESSION_WITHDRAWN = "session_withdrawn", "Session withdrawn"


# Told once per change (`Notification.session_change`), so a session moved twice is
# told twice; the other session kinds are once per session.
CHANGE_KINDS = (NotificationKind.SESSION_MOVED, NotificationKind.SESSION_CANCELLED)


class NotificationStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    SENDING = "sending", "Sending"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"
    SKIPPED = "skipped", "In-app only"


# Nothing more will happen to these rows: retention may delete them.
FINISHED_STATUSES = [NotificationStatus.SENT, NotificationStatus.FAILED, NotificationStatus.SKIPPED]


class NotificationQuerySet(models.QuerySet):
    def visible_to(self, user):
        """A person's own notifications; team-channel messages are the admins' to see
        in the admin site."""
        if not (user and user.is_authenticated):
            return self.none()
        return self.filter(recipient=user)


class Notification(models.Model):
    """The outbox. Unique per (session, kind, recipient), per (kind, recipient, period)
    for digests, and per team likewise, so a sweep or beat that runs twice records
    nothing twice. Rows hold references, never rendered private words: the message
    is rendered when it is sent, from what the recipient may see then."""

    kind = models.CharField(max_length=32, choices=NotificationKind.choices)
    # Every index is written again each time a row changes status (claimed, sent), so
    # the foreign keys have none of their own where another index leads with them
    # (recipient: the inbox; feedback request, pair: their once-only constraints), and
    # the mostly empty ones are indexed where set only (Meta.indexes).
    recipient = models.ForeignKey(
        USER,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    session = models.ForeignKey(
        CoachingSession,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    plan = models.ForeignKey(
        CadencePlan,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    feedback_request = models.ForeignKey(
        FeedbackRequest,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    pair = models.ForeignKey(
        "coaching.PeerPair",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    # Withdrawn or answered, the request goes and its notifications with it.
    peer_request = models.ForeignKey(
        "coaching.PeerRequest",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    # A move or cancellation (with `session` set too): its row is what is told once.
    session_change = models.ForeignKey(
        "coaching.SessionChange",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    period = models.CharField(
        max_length=16,
        blank=True,
        help_text="e.g. 2026-W47 for digests; the withdrawn session's id for a withdrawal",
    )
    # A session the cadence took back after inviting to it is deleted; what its
    # calendar cancellation needs is kept here (`cadence.withdrawals`): names, times
    # and addresses, never notes.
    withdrawn = models.JSONField(null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=NotificationStatus.choices, default=NotificationStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    # A claim's stamp (which claim holds the row) and its lease: renewed by the
    # sender while it works through the claim, so a row whose sender died goes back
    # to pending once the lease runs out (cadence/outbox.py).
    claimed_at = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = NotificationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(recipient__isnull=False) | Q(team__isnull=False),
                name="notification_has_an_audience",
            ),
            # A claim stamps the row and leases it; every way out of "sending" clears
            # both. So the outcome UPDATE can find a row still in its claim by key and
            # stamp alone (outbox._finish_sql), and every row being sent can expire.
            models.CheckConstraint(
                condition=Q(status="sending", claimed_at__isnull=False, lease_until__isnull=False)
                | (~Q(status="sending") & Q(claimed_at__isnull=True, lease_until__isnull=True)),
                name="notification_claimed_while_sending",
            ),
            models.UniqueConstraint(
                fields=["session", "kind", "recipient"],
                condition=Q(
                    session__isnull=False, recipient__isnull=False, session_change__isnull=True
                ),
                name="notification_once_per_session_kind_recipient",
            ),
            models.UniqueConstraint(
                fields=["session_change", "kind", "recipient"],
                condition=Q(session_change__isnull=False),
                name="notification_once_per_session_change",
            ),
            models.UniqueConstraint(
                fields=["session", "kind", "team"],
                condition=Q(session__isnull=False, team__isnull=False),
                name="notification_once_per_session_kind_team",
            ),
            models.UniqueConstraint(
                fields=["feedback_request", "kind", "recipient"],
                condition=Q(feedback_request__isnull=False),
                name="notification_once_per_feedback_request",
            ),
            models.UniqueConstraint(
                fields=["pair", "kind", "recipient"],
                condition=Q(pair__isnull=False),
                name="notification_once_per_pair",
            ),
            models.UniqueConstraint(
                fields=["peer_request", "kind", "recipient"],
                condition=Q(peer_request__isnull=False),
                name="notification_once_per_peer_request",
            ),
            models.UniqueConstraint(
                fields=["kind", "recipient", "period"],
                condition=Q(session__isnull=True, recipient__isnull=False) & ~Q(period=""),
                name="notification_once_per_period_recipient",
            ),
            models.UniqueConstraint(
                fields=["kind", "team", "period"],
                condition=Q(session__isnull=True, team__isnull=False) & ~Q(period=""),
                name="notification_once_per_period_team",
            ),
        ]
        indexes = [
            # The sender's claim: pending rows whose time has come, in the claim's
            # order (id breaks ties), so a claim reads its 50 rows off the index even
            # while the statistics, taken before a burst was queued, think nothing is
            # pending (else: every pending row read and sorted, each claim).
            models.Index(
                fields=["next_attempt_at", "id"],
                condition=Q(status="pending"),
                name="notification_send_due",
            ),
            # The reaper: claims whose lease ran out (their sender died).
            models.Index(
                fields=["lease_until"],
                condition=Q(status="sending"),
                name="notification_expired_leases",
            ),
            # The delivery page's failures, newest first. Only rows that failed are in
            # it, so the sender's updates (pending → sending → sent) never write to it.
            models.Index(
                fields=["-created_at", "-id"],
                condition=Q(status="failed"),
                name="notification_failed",
            ),
            # Retention (`cadence.retention`): finished rows, oldest first. A row joins it
            # once, when it is sent (or fails, or is kept in-app only).
            models.Index(
                fields=["created_at"],
                condition=Q(status__in=FINISHED_STATUSES),
                name="notification_forgettable",
            ),
            # A person's in-app list, newest first.
            models.Index(fields=["recipient", "-created_at"], name="notification_inbox"),
            # The header's unread count on every page: a person's unread rows only.
            models.Index(
                fields=["recipient"],
                condition=Q(read_at__isnull=True, recipient__isnull=False),
                name="notification_unread",
            ),
            # Escalations and team-channel messages: the deletes that cascade from a
            # plan or a team.
            models.Index(
                fields=["plan"], condition=Q(plan__isnull=False), name="notification_plan"
            ),
            models.Index(
                fields=["team"], condition=Q(team__isnull=False), name="notification_team"
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} → {self.recipient or self.team}"

    @property
    def error_in_words(self) -> str:
        """Why the last try failed, for the admin; `last_error` is the raw detail."""
        return in_words(self.last_error, channel=self.team_id is not None)


class NotificationPreference(models.Model):
    """Which kinds reach a person by email (the in-app list always has everything),
    and quiet hours in their own time zone."""

    person = models.OneToOneField(
        USER, on_delete=models.CASCADE, related_name="notification_preference"
    )
    email_upcoming = models.BooleanField("email me the day before a session", default=True)
    email_missed = models.BooleanField("email me when a session I run is missed", default=True)
    email_escalation = models.BooleanField(
        "email me when my people's sessions keep being missed", default=True
    )
    email_digest = models.BooleanField("email me a weekly digest", default=True)
    email_feedback = models.BooleanField(
        "email me when someone asks me for feedback, and the day before it is due",
        default=True,
    )
    email_pair_invited = models.BooleanField(
        "email me when I am invited to a peer pair", default=True
    )
    email_peer_asked = models.BooleanField(
        "email me when someone who reports to me asks for a peer", default=True
    )
    email_session_changed = models.BooleanField(
        "email me when someone moves or cancels a session of mine", default=True
    )
    email_invitations = models.BooleanField(
        "send me calendar invitations for my sessions, and updates when one moves or is cancelled",
        default=True,
    )
    quiet_from = models.TimeField(null=True, blank=True, help_text="No email from this time…")
    quiet_until = models.TimeField(
        null=True, blank=True, help_text="…until this time (your time zone)."
    )

    def __str__(self):
        return f"Preferences of {self.person}"

    def wants_email(self, kind: str) -> bool:
        if kind in (NotificationKind.FEEDBACK_ASKED, NotificationKind.FEEDBACK_DUE):
            return self.email_feedback
        if kind in CHANGE_KINDS or kind == NotificationKind.SESSION_WITHDRAWN:
            return self.email_session_changed
        if kind == NotificationKind.SESSION_INVITED:
            return self.email_invitations
        return getattr(self, f"email_{kind}", True)


class TeamChannel(models.Model):
    """A Slack- or Teams-compatible incoming webhook for team-level messages (never
    private content). Failures are kept here for the admin to see."""

    class Format(models.TextChoices):
        SLACK = "slack", "Slack (or compatible)"
        TEAMS = "teams", "Microsoft Teams"

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="channel")
    webhook_url = models.URLField(max_length=500)
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.SLACK)
    is_active = models.BooleanField(default=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_failure_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)

    def __str__(self):
        return f"Channel of {self.team}"

    @property
    def error_in_words(self) -> str:
        """Why the last post failed, for the admin; `last_error` is the raw detail."""
        return in_words(self.last_error, channel=True)


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
