"""Coaching beyond the manager's calendar: peer pairs (or trios) with their agreement,
private notes and the habits each member keeps and the partner checks in, and the
requests of people asking for a peer.

Moved out of coaching with their tables (`db_table` keeps the `coaching_` names; see
docs/decisions/ on the split of coaching)."""

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from coaching.models import FocusArea
from people.models import TeamMembership, User, roles_of, validate_time_zone
from people.roles import Role

USER = settings.AUTH_USER_MODEL
NOTE_LIMIT = 5_000
REQUEST_NOTE_LIMIT = 300


# --- Peer pairs ----------------------------------------------------------------------------


class PairingRationale(models.TextChoices):
    COMPLEMENTARY = "complementary", "Complementary skills: each is strong where the other grows"
    SIMILAR = "similar", "Similar goals: working on the same skill"


class AgreementTemplate(models.Model):
    """The agreement text a new pair starts from (one row, edited by programme
    admins): confidentiality, candour, respect, and progress without shaming."""

    text = models.TextField(max_length=NOTE_LIMIT)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "coaching_agreementtemplate"

    def __str__(self):
        return "Peer pair agreement"


class PeerPairQuerySet(models.QuerySet):
    def visible_to(self, user):
        """Its members (past ones too: they keep the history of their own pair) and
        whoever formed it. Managers do not see pairs: participation is voluntary and
        not a thing to inspect. Programme admins see them on their own page."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        member = PairMember.objects.filter(pair=OuterRef("pk"), person=user)
        return self.filter(Q(created_by=user) | Exists(member))

    def live(self):
        return self.filter(ended_at__isnull=True)


class PeerPair(models.Model):
    """Two or three people who coach each other: 30 minutes at a frequency they
    choose, through the cadence engine once every member accepted the agreement."""

    rationale = models.CharField(max_length=16, choices=PairingRationale.choices)
    rationale_note = models.CharField(
        "why these people", max_length=500, blank=True, help_text="E.g. what the scores show."
    )
    focus_area = models.ForeignKey(
        FocusArea, null=True, blank=True, on_delete=models.SET_NULL, related_name="pairs"
    )
    agreement_text = models.TextField(max_length=NOTE_LIMIT)
    # The cadence the plan follows once every member accepted.
    weekday = models.PositiveSmallIntegerField(help_text="0 = Monday.")
    local_time = models.TimeField()
    time_zone = models.CharField(max_length=64, validators=[validate_time_zone])
    interval_weeks = models.PositiveSmallIntegerField(default=2)
    duration_minutes = models.PositiveSmallIntegerField(default=30)
    created_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    objects = PeerPairQuerySet.as_manager()

    class Meta:
        db_table = "coaching_peerpair"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rationale__in=PairingRationale.values), name="pair_rationale_valid"
            ),
            models.CheckConstraint(condition=Q(weekday__lte=6), name="pair_weekday_valid"),
            models.CheckConstraint(
                condition=Q(interval_weeks__gte=1, interval_weeks__lte=4),
                name="pair_interval_valid",
            ),
        ]

    def __str__(self):
        return f"Peer pair #{self.pk}"

    @property
    def status(self) -> str:
        if self.ended_at:
            return "ended"
        return "active" if self.started_at else "forming"


class PairMember(models.Model):
    pair = models.ForeignKey(PeerPair, on_delete=models.CASCADE, related_name="members")
    person = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="pair_memberships")
    accepted_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)
    # Declining (before the start) or leaving needs no reason; one given is shown to
    # programme admins only.
    left_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        db_table = "coaching_pairmember"
        ordering = ["pair", "id"]
        constraints = [
            models.UniqueConstraint(fields=["pair", "person"], name="pair_member_once"),
        ]
        indexes = [
            # "My pairs": a person's memberships.
            models.Index(fields=["person", "pair"], name="pair_member_by_person"),
        ]

    def __str__(self):
        return f"Member #{self.pk} of pair #{self.pair_id}"

    @property
    def is_active(self) -> bool:
        return self.left_at is None


def within_reach(*, user, roles=None) -> models.QuerySet:
    """Everyone `user` may put in a pair, deactivated people included (the services
    refuse those with their own message): anyone for a programme admin; for a lead,
    the people on a team they lead and everyone below them."""
    if Role.PROGRAMME_ADMIN in (roles if roles is not None else roles_of(user)):
        return User.objects.all()
    led = TeamMembership.objects.current().filter(team__lead=user).values("person_id")
    below = User.objects.below(user).values("pk")
    return User.objects.filter(Q(pk__in=below) | Q(pk__in=led))


class PeerRequestQuerySet(models.QuerySet):
    def visible_to(self, user, roles=None):
        """The person who asked, and whoever may put them in a pair (`within_reach`):
        programme admins, the leads of their team and everyone above them. Not their
        peers, not HR."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        reach = within_reach(user=user, roles=roles).values("pk")
        return self.filter(Q(person=user) | Q(person__in=reach))


class PeerRequest(models.Model):
    """Someone asking for a peer to coach with — participation starts with them, not
    only with whoever forms pairs. Open until they withdraw it or a pair of theirs
    starts; the note says what they would like to work on."""

    person = models.OneToOneField(USER, on_delete=models.CASCADE, related_name="peer_request")
    note = models.CharField(
        "what you would like to work on", max_length=REQUEST_NOTE_LIMIT, blank=True
    )
    focus_area = models.ForeignKey(
        FocusArea, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = PeerRequestQuerySet.as_manager()

    class Meta:
        db_table = "coaching_peerrequest"
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"Peer request #{self.pk}"


class PairNoteQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The pair's current members; someone who left reads what was written while
        they were in it. Never whoever formed the pair, a manager, HR or an admin."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        member = PairMember.objects.filter(pair=OuterRef("pair"), person=user)
        return self.filter(
            Exists(member.filter(left_at__isnull=True))
            | Exists(member.filter(left_at__gte=OuterRef("created_at")))
        )


class PairNote(models.Model):
    """What the pair writes between sessions. Private to the pair: no manager, HR or
    admin ever reads it."""

    pair = models.ForeignKey(PeerPair, on_delete=models.CASCADE, related_name="notes")
    author = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=NOTE_LIMIT)
    created_at = models.DateTimeField(default=timezone.now)

    objects = PairNoteQuerySet.as_manager()

    class Meta:
        db_table = "coaching_pairnote"
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"Pair note #{self.pk}"


class HabitQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The pair's members, past ones too (like the pair itself) — not whoever formed
        it: what each member works on is the pair's business."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        return self.filter(Exists(PairMember.objects.filter(pair=OuterRef("pair"), person=user)))

    def active(self):
        return self.filter(retired_at__isnull=True)


class Habit(models.Model):
    """A small observable habit or milestone one member commits to; the partner checks
    it in at each session (mutual support: progress, not perfection)."""

    pair = models.ForeignKey(PeerPair, on_delete=models.CASCADE, related_name="habits")
    owner = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(default=timezone.now)
    retired_at = models.DateTimeField(null=True, blank=True)

    objects = HabitQuerySet.as_manager()

    class Meta:
        db_table = "coaching_habit"
        ordering = ["pair", "created_at", "id"]

    def __str__(self):
        return f"Habit #{self.pk}"


class CheckInOutcome(models.TextChoices):
    KEPT = "kept", "Kept it"
    PARTLY = "partly", "Partly"
    NOT_YET = "not_yet", "Not yet"


class HabitCheckIn(models.Model):
    habit = models.ForeignKey(Habit, on_delete=models.CASCADE, related_name="check_ins")
    checked_by = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    session = models.ForeignKey(
        "coaching.CoachingSession",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="habit_check_ins",
    )
    outcome = models.CharField(max_length=16, choices=CheckInOutcome.choices)
    note = models.CharField(max_length=300, blank=True)
    checked_on = models.DateField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "coaching_habitcheckin"
        ordering = ["-checked_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome__in=CheckInOutcome.values), name="check_in_outcome_valid"
            ),
            models.UniqueConstraint(
                fields=["habit", "session"],
                condition=Q(session__isnull=False),
                name="check_in_once_a_session",
            ),
        ]

    def __str__(self):
        return f"Check-in #{self.pk}"
