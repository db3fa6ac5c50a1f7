"""The notification outbox and what governs its delivery: the notifications (rows
of references, rendered when sent), each person's email preferences and quiet hours,
and the teams' channels (incoming webhooks).

The tables were made by the cadence app and keep its names (`db_table`); the
notification kinds' messages are declared by the apps that own them (`kinds`)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from . import kinds
from .delivery_errors import in_words

USER = settings.AUTH_USER_MODEL


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
        "people.Team",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    session = models.ForeignKey(
        "coaching.CoachingSession",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    plan = models.ForeignKey(
        "cadence.CadencePlan",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    feedback_request = models.ForeignKey(
        "feedback.FeedbackRequest",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    pair = models.ForeignKey(
        "peers.PeerPair",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    # Withdrawn or answered, the request goes and its notifications with it.
    peer_request = models.ForeignKey(
        "peers.PeerRequest",
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
    # to pending once the lease runs out (notifications/outbox.py).
    claimed_at = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = NotificationQuerySet.as_manager()

    class Meta:
        db_table = "cadence_notification"
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
            # Retention (`notifications.retention`): finished rows, oldest first. A row joins it
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

    class Meta:
        db_table = "cadence_notificationpreference"

    def __str__(self):
        return f"Preferences of {self.person}"

    def wants_email(self, kind: str) -> bool:
        """The switch its kind names (`kinds.Kind.preference`), else `email_<kind>`;
        a kind without a switch of its own is always emailed."""
        return getattr(self, kinds.preference_of(kind), True)


class TeamChannel(models.Model):
    """A Slack- or Teams-compatible incoming webhook for team-level messages (never
    private content). Failures are kept here for the admin to see."""

    class Format(models.TextChoices):
        SLACK = "slack", "Slack (or compatible)"
        TEAMS = "teams", "Microsoft Teams"

    team = models.OneToOneField("people.Team", on_delete=models.CASCADE, related_name="channel")
    webhook_url = models.URLField(max_length=500)
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.SLACK)
    is_active = models.BooleanField(default=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_failure_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)

    class Meta:
        db_table = "cadence_teamchannel"

    def __str__(self):
        return f"Channel of {self.team}"

    @property
    def error_in_words(self) -> str:
        """Why the last post failed, for the admin; `last_error` is the raw detail."""
        return in_words(self.last_error, channel=True)
