"""The conversations: sessions of five kinds, GROW notes with revisions, agenda items,
private notes, commitments that carry forward, focus areas and the question bank.

Who may see what is decided in one place per model: `QuerySet.visible_to(user)`."""

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Case, F, Q, When
from django.utils import timezone

from core.queries import ExistsPerRow, any_of, one_of
from people.models import LARGE_SCOPE_FROM, User, is_below

USER = settings.AUTH_USER_MODEL
TEXT_LIMIT = 10_000  # characters in any one note field


class SessionKind(models.TextChoices):
    ONE_ON_ONE = "one_on_one", "1:1"
    TEAM_CALL_REVIEW = "team_call_review", "Team call review"
    ROLE_PLAY = "role_play", "Role-play"
    MANAGER_REVIEW = "manager_review", "Manager review"
    PEER = "peer", "Peer coaching"


DEFAULT_DURATION = {
    SessionKind.ONE_ON_ONE: 30,
    SessionKind.TEAM_CALL_REVIEW: 45,
    SessionKind.ROLE_PLAY: 60,
    SessionKind.MANAGER_REVIEW: 45,
    SessionKind.PEER: 30,
}


class SessionStatus(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    HELD = "held", "Held"
    MISSED = "missed", "Missed"
    CANCELLED = "cancelled", "Cancelled"


class SessionState(models.TextChoices):
    """What became of a session as of a moment, as every page words it: its status,
    except that a scheduled session whose start has passed is due and still to log
    (Due as `cadence.health` defines it: the start has passed)."""

    TO_COME = "to_come", "Scheduled"
    TO_LOG = "to_log", "Due, still to log"
    HELD = "held", "Held"
    MISSED = "missed", "Missed"
    CANCELLED = "cancelled", "Cancelled"


class CancelReason(models.TextChoices):
    FORECAST_CALL = "forecast_call", "Forecast or pipeline call"
    CUSTOMER_ESCALATION = "customer_escalation", "Customer escalation"
    OUT_OF_OFFICE = "out_of_office", "Out of office"
    SICK = "sick", "Illness"
    TRAVEL = "travel", "Travel"
    CLASHING_MEETING = "clashing_meeting", "Clashing meeting"
    OTHER = "other", "Other"


class ParticipantRole(models.TextChoices):
    COACH = "coach", "Coach"
    COACHEE = "coachee", "Coachee"
    HOST = "host", "Host"
    PRESENTER = "presenter", "Presenter"
    MANAGER = "manager", "Manager"
    PARTICIPANT = "participant", "Participant"
    PEER = "peer", "Peer"


# Who runs a session of each kind: they log it held, move it or cancel it.
RUNNING_ROLES = {ParticipantRole.COACH, ParticipantRole.HOST, ParticipantRole.MANAGER}


class FocusAreaQuerySet(models.QuerySet):
    def active_on(self, day):
        return self.filter(starts_on__lte=day).filter(Q(ends_on__isnull=True) | Q(ends_on__gte=day))

    def for_person(self, person):
        """Focus areas that apply to someone: organisation-wide ones and those scoped
        to a team they are currently on."""
        from people.models import TeamMembership

        teams = TeamMembership.objects.current().filter(person=person).values("team")
        return self.filter(Q(teams__isnull=True) | Q(teams__in=teams)).distinct()


class FocusArea(models.Model):
    """The one behaviour that matters most right now (coaching everything means
    nothing sticks)."""

    name = models.CharField(max_length=120)
    behaviours = models.TextField(
        max_length=TEXT_LIMIT,
        help_text="The observable behaviours that matter most now, one per line.",
    )
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    teams = models.ManyToManyField(
        "people.Team",
        blank=True,
        related_name="focus_areas",
        help_text="Leave empty for the whole organisation.",
    )
    criteria = models.ManyToManyField(
        "scorecards.Criterion",
        blank=True,
        related_name="focus_areas",
        help_text="Scorecard criteria that measure these behaviours: skill trends and team "
        "distributions for the focus area follow them.",
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = FocusAreaQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=F("starts_on")),
                name="focus_area_ends_after_start",
            )
        ]

    def __str__(self):
        return self.name

    @property
    def behaviour_list(self) -> list[str]:
        return [line.strip() for line in self.behaviours.splitlines() if line.strip()]


class GrowStep(models.TextChoices):
    GOAL = "goal", "Goal"
    REALITY = "reality", "Reality"
    OPTIONS = "options", "Options"
    WILL = "will", "Will"
    GENERAL = "general", "General"
    EXPERIMENT = "experiment", "Experiment"  # the prompt menu for experiments


class Prompt(models.Model):
    """A question from the bank, shown beside the field it helps with."""

    step = models.CharField(max_length=16, choices=GrowStep.choices)
    kind = models.CharField(
        max_length=32,
        choices=SessionKind.choices,
        blank=True,
        help_text="Leave blank for every kind of session.",
    )
    text = models.CharField(max_length=300)
    position = models.PositiveSmallIntegerField(default=0)
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["step", "position", "id"]
        # The GROW form: a session kind's prompts for each step.
        indexes = [models.Index(fields=["kind", "step"], name="prompt_by_kind_step")]

    def __str__(self):
        return self.text


# From this many people below, lists of sessions check each session
# instead of gathering the people's (SessionQuerySet.visible_for_lists).
WALK_FROM_PEOPLE_BELOW = LARGE_SCOPE_FROM


def _visible_session_ids(user):
    """One set of session ids — mine, and those of the people below me but their peer
    sessions (whose participants are all peers, and only theirs are) — found from the
    participants' person index alone, so the sessions table is read by id (an OR of
    two EXISTS made PostgreSQL scan every session, once per row)."""
    mine = SessionParticipant.objects.filter(person=user).order_by().values("session_id")
    theirs = (
        SessionParticipant.objects.filter(person_id__in=User.objects.ids_below(user))
        .exclude(role=ParticipantRole.PEER)
        .order_by()
        .values("session_id")
    )
    return mine.union(theirs)


def visible_session_for_lists(user, *, session: str = "pk") -> Q:
    """The condition of `SessionQuerySet.visible_to(user)` on the session that the
    field `session` of the filtered rows names (a session's own `pk`, an agenda item's
    `session_id`), shaped for long lists read a page at a time. Below the head of an
    organisation a million sessions are visible: gathering their ids first, as
    `visible_to` does, took seconds before the first page. From WALK_FROM_PEOPLE_BELOW
    people below, each row is checked against its session's participants instead, so a
    page in index order costs a few dozen checks, and no row of the sessions table is
    read for another table's rows. The ids below are passed as a list so PostgreSQL
    knows how many there are. With fewer, gathering is cheaper: `visible_to`'s ids,
    as an array the rows are read from by index — as a semi-join PostgreSQL walked a
    rep's 63,000 agenda items in date order, testing each against their 213 sessions
    one by one (13 million comparisons for two items)."""
    if not (user and user.is_authenticated and user.is_active):
        return Q(pk__in=[])
    below = User.objects.list_ids_below(user)
    if len(below) < WALK_FROM_PEOPLE_BELOW:
        return any_of(session, _visible_session_ids(user))
    taking_part = SessionParticipant.objects.filter(session=models.OuterRef(session)).filter(
        Q(person=user) | (one_of("person_id", below) & ~Q(role=ParticipantRole.PEER))
    )
    return Q(ExistsPerRow(taking_part))


class SessionQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The one visibility rule for sessions: participants, and everyone above a
        participant in the reporting line — except peer sessions, which stay with
        the peers. HR and programme admins see counts elsewhere, never sessions."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        return self.filter(pk__in=_visible_session_ids(user))

    def visible_for_lists(self, user):
        """`visible_to(user)` — the same sessions — shaped for long lists read a page at
        a time (the sessions API; `visible_session_for_lists` for rows that name a
        session, such as agenda items)."""
        return self.filter(visible_session_for_lists(user))

    def with_people(self, *, names_only: bool = False):
        """With focus area, team, call, and participants with their people —
        `names_only`: people as the API names them (id and display name), which
        builds a list's 150 people from two columns instead of every one."""
        return self.select_related("focus_area", "team", "presented_call").prefetch_related(
            participants_with_people(names_only=names_only)
        )


def participants_with_people(*, names_only: bool = False) -> models.Prefetch:
    """Sessions' participants with their people, as `with_people` prefetches them."""
    participants = SessionParticipant.objects.select_related("person")
    if names_only:
        participants = participants.only(
            "session_id", "person_id", "role", "speaking_order", "person__display_name"
        )
    return models.Prefetch("participants", queryset=participants)


SESSION_SET_FKS = ("team", "focus_area", "presented_call", "held_by", "cancelled_by", "created_by")


class CoachingSession(models.Model):
    kind = models.CharField(max_length=32, choices=SessionKind.choices)
    status = models.CharField(
        max_length=16, choices=SessionStatus.choices, default=SessionStatus.SCHEDULED
    )
    scheduled_start = models.DateTimeField()
    original_start = models.DateTimeField(
        help_text="When it was first planned; moving a session keeps this."
    )
    duration_minutes = models.PositiveSmallIntegerField()
    # start + duration, kept by the services: the missed-session sweep's "look again
    # after" column (with the partial index below).
    scheduled_end = models.DateTimeField()
    # The nullable foreign keys are indexed where set only (see Meta.indexes).
    team = models.ForeignKey(
        "people.Team",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="sessions",
        db_index=False,
    )
    focus_area = models.ForeignKey(
        FocusArea,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="sessions",
        db_index=False,
    )
    # Team call review: the call being dissected.
    presented_call = models.ForeignKey(
        "scorecards.RecordedCall",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reviews",
        db_index=False,
    )
    # Role-play set-up.
    scenario = models.TextField(blank=True, max_length=TEXT_LIMIT)
    drills = models.TextField(blank=True, max_length=TEXT_LIMIT)

    held_at = models.DateTimeField(null=True, blank=True)
    held_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    held_but_empty = models.BooleanField(
        default=False,
        help_text="Logged held with no notes, or notes copied unchanged from the last session.",
    )
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    cancel_reason = models.CharField(max_length=32, choices=CancelReason.choices, blank=True)
    cancel_note = models.CharField(max_length=500, blank=True)
    missed_at = models.DateTimeField(null=True, blank=True)
    # RFC 5545 SEQUENCE of the session's calendar event: each move or cancellation
    # (`SessionChange`) raises it, so calendars take the newest invitation or update
    # and the feed agrees with the emails. A database default, so the generator's COPY
    # may leave it out.
    sequence = models.PositiveIntegerField(default=0, db_default=0)

    created_by = models.ForeignKey(
        USER, null=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = SessionQuerySet.as_manager()

    class Meta:
        ordering = ["-scheduled_start", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=SessionKind.values), name="session_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=SessionStatus.values), name="session_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(kind=SessionKind.ROLE_PLAY) | Q(focus_area__isnull=False),
                name="role_play_has_focus_area",
            ),
            models.CheckConstraint(
                condition=~Q(kind=SessionKind.TEAM_CALL_REVIEW) | Q(team__isnull=False),
                name="team_call_review_has_team",
            ),
            models.CheckConstraint(
                condition=~Q(status=SessionStatus.HELD) | Q(held_at__isnull=False),
                name="held_session_has_held_at",
            ),
            models.CheckConstraint(
                condition=~Q(status=SessionStatus.CANCELLED) | ~Q(cancel_reason=""),
                name="cancelled_session_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(duration_minutes__gte=5) & Q(duration_minutes__lte=480),
                name="session_duration_sensible",
            ),
        ]
        indexes = [
            # Upcoming and recent sessions per kind and status (lists, health metrics).
            models.Index(fields=["status", "scheduled_start"], name="session_by_status_start"),
            # The API's list, newest first, walked a page at a time by someone who sees
            # most sessions (SessionQuerySet.visible_for_lists); read backwards.
            models.Index(fields=["scheduled_start", "id"], name="session_newest_first"),
            # The missed-session sweep: scheduled sessions whose end has passed.
            models.Index(
                fields=["scheduled_end"],
                condition=Q(status="scheduled"),
                name="session_sweep_scheduled_end",
            ),
            # The sweep's follow-up: the sessions one sweep has just marked
            # (`missed_at` = its moment), for the runners' "missed" notifications and
            # the escalation check. Without it both read every missed session ever.
            models.Index(
                fields=["missed_at"],
                condition=Q(status="missed"),
                name="session_missed_by_sweep",
            ),
            # Held sessions of a kind, first held first: the install plans' evidence
            # (a team's first call review, role-play, manager review; cadence.rollout),
            # which otherwise scans every session for a few thousand role-plays (HR's
            # /rollout/ at 10,000 people; bench/routes.py). Only held rows: generation
            # writes none.
            models.Index(
                fields=["kind", "held_at"],
                condition=Q(status="held"),
                name="session_held_by_kind",
            ),
            # The nullable foreign keys, indexed only where set: a session is made
            # with most of them empty (a 1:1 has no team, only a role-play has a focus
            # area, nobody has held or cancelled it yet), and a full index would take
            # a NULL entry for each in every new session — hundreds of thousands in a
            # first generation (bench/generate.py). "Sessions of this team / user"
            # (`= id`, `IN (…)`, the foreign keys' own checks) use them all the same.
            *(
                models.Index(
                    fields=[field],
                    condition=Q(**{f"{field}__isnull": False}),
                    name=f"session_{field}",
                )
                for field in SESSION_SET_FKS
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} · {self.scheduled_start:%Y-%m-%d %H:%M}"

    def people_in(self, *roles) -> list:
        """Participants in the given roles, from the prefetched list when present."""
        return [p.person for p in self.participants.all() if p.role in roles]

    @property
    def coach(self):
        found = self.people_in(ParticipantRole.COACH)
        return found[0] if found else None

    @property
    def coachee(self):
        found = self.people_in(ParticipantRole.COACHEE)
        return found[0] if found else None

    @property
    def is_open(self) -> bool:
        return self.status == SessionStatus.SCHEDULED

    def has_started(self, now: datetime) -> bool:
        return self.scheduled_start < now

    def state_at(self, now: datetime) -> SessionState:
        if self.status != SessionStatus.SCHEDULED:
            return SessionState(self.status)
        return SessionState.TO_LOG if self.has_started(now) else SessionState.TO_COME

    @property
    def state(self) -> SessionState:
        """The state now: what the session page and every list show."""
        return self.state_at(timezone.now())

    @property
    def uses_grow(self) -> bool:
        """1:1s and manager reviews follow Goal, Reality, Options, Will."""
        return self.kind in (SessionKind.ONE_ON_ONE, SessionKind.MANAGER_REVIEW)


class SessionChangeKind(models.TextChoices):
    MOVED = "moved", "Moved"
    CANCELLED = "cancelled", "Cancelled"


class SessionChange(models.Model):
    """A session moved or cancelled: who did it, when, from when to when, and why
    (written by `session_reschedule` and `session_cancel`). Read with the session it
    belongs to (whoever may see the session sees its changes, the cancel note
    included); the outbox tells the other participants, one notification per change,
    so a session moved twice notifies twice."""

    # Indexed by the unique (session, sequence), which a session's history reads.
    session = models.ForeignKey(
        CoachingSession, on_delete=models.CASCADE, related_name="changes", db_index=False
    )
    kind = models.CharField(max_length=16, choices=SessionChangeKind.choices)
    actor = models.ForeignKey(
        USER, null=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    at = models.DateTimeField(default=timezone.now)
    from_start = models.DateTimeField()
    from_minutes = models.PositiveSmallIntegerField()
    # The new time of a move; a cancellation keeps the time it had.
    to_start = models.DateTimeField()
    to_minutes = models.PositiveSmallIntegerField()
    cancel_reason = models.CharField(max_length=32, choices=CancelReason.choices, blank=True)
    cancel_note = models.CharField(max_length=500, blank=True)
    # The session's SEQUENCE after this change: what its calendar update carries.
    sequence = models.PositiveIntegerField()

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=SessionChangeKind.values), name="session_change_kind_valid"
            ),
            models.CheckConstraint(
                condition=~Q(kind="cancelled") | ~Q(cancel_reason=""),
                name="session_change_cancel_has_reason",
            ),
            models.UniqueConstraint(
                fields=["session", "sequence"], name="session_change_once_per_sequence"
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} · session {self.session_id}"


class SessionParticipant(models.Model):
    # No index of their own on either foreign key: `participant_once` starts with the
    # session and `participant_by_person_time` with the person, and a first
    # generation writes hundreds of thousands of these rows (bench/generate.py).
    session = models.ForeignKey(
        CoachingSession, on_delete=models.CASCADE, related_name="participants", db_index=False
    )
    person = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="session_roles", db_index=False
    )
    role = models.CharField(max_length=16, choices=ParticipantRole.choices)
    speaking_order = models.PositiveSmallIntegerField(default=0)
    # A copy of the session's `scheduled_start`, written with the row and moved with
    # the session by whatever writes a session's time (the services, the cadence
    # engine, the seeders; tests/conftest.py checks it after every test): "this
    # person's sessions in a window", "their next" and "their last" are then a range
    # of one index, not a probe of every session they ever had — 1,125 for a manager
    # after two years (docs/performance.md).
    scheduled_start = models.DateTimeField()

    class Meta:
        ordering = ["speaking_order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "person"], name="participant_once"),
        ]
        indexes = [
            # "Sessions of this person", by time: my sessions, visibility, carry-forward
            # (person and role), and a person's or coach's sessions in a window, the
            # next or the last (the range on scheduled_start). The session id rides
            # along (PostgreSQL) so "every session these coaches led" — the commitments
            # made in them, `cadence.health.health_by_coach` — is read from the index
            # alone: 24,000 rows for the 26 coaches of a head's page.
            models.Index(
                fields=["person", "role", "scheduled_start"],
                include=["session"],
                name="participant_by_person_time",
            ),
        ]

    def __str__(self):
        return f"{self.person} ({self.get_role_display()})"


class SharedNotes(models.Model):
    """The notes everyone in the session shares: GROW for 1:1s, free notes for the
    other kinds. `version` refuses stale saves; every save is kept as a revision."""

    session = models.OneToOneField(CoachingSession, on_delete=models.CASCADE, related_name="notes")
    goal = models.TextField(blank=True, max_length=TEXT_LIMIT)
    reality = models.TextField(blank=True, max_length=TEXT_LIMIT)
    reality_evidence_url = models.URLField(blank=True, max_length=500)
    options = models.TextField(blank=True, max_length=TEXT_LIMIT)
    will = models.TextField(blank=True, max_length=TEXT_LIMIT)
    notes = models.TextField(blank=True, max_length=TEXT_LIMIT)
    version = models.PositiveIntegerField(default=0)
    coachee_prepared_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)
    # Indexed where set only: every session's notes are made empty.
    updated_by = models.ForeignKey(
        USER, null=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    # Who last wrote each field and when ({"will": {"by": 7, "at": "…"}}), for the
    # "last written by" line under it. Null until the first save: the generator and
    # the engine make notes rows by the thousand and must not pay for it.
    written = models.JSONField(null=True, blank=True)

    FIELDS = ("goal", "reality", "reality_evidence_url", "options", "will", "notes")
    # What counts as "written in this session": the goal carries over on purpose.
    SESSION_FIELDS = ("reality", "options", "will", "notes")

    class Meta:
        indexes = [
            models.Index(
                fields=["updated_by"],
                condition=Q(updated_by__isnull=False),
                name="notes_updated_by",
            ),
        ]

    def __str__(self):
        return f"Notes for {self.session}"

    def content(self, fields=FIELDS) -> dict[str, str]:
        return {name: getattr(self, name) for name in fields}


class NotesRevision(models.Model):
    notes = models.ForeignKey(SharedNotes, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField()
    goal = models.TextField(blank=True)
    reality = models.TextField(blank=True)
    reality_evidence_url = models.URLField(blank=True, max_length=500)
    options = models.TextField(blank=True)
    will = models.TextField(blank=True)
    notes_text = models.TextField(blank=True)
    saved_by = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    saved_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-version"]
        constraints = [
            models.UniqueConstraint(fields=["notes", "version"], name="notes_revision_once"),
        ]

    def __str__(self):
        return f"Revision {self.version} of notes #{self.notes_id}"


class PrivateNoteQuerySet(models.QuerySet):
    def visible_to(self, user):
        """Only ever the author: not the coachee, not their managers, not HR or admins."""
        if not (user and user.is_authenticated):
            return self.none()
        return self.filter(author=user)


class PrivateNote(models.Model):
    session = models.ForeignKey(
        CoachingSession, on_delete=models.CASCADE, related_name="private_notes"
    )
    author = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="private_notes")
    text = models.TextField(blank=True, max_length=TEXT_LIMIT)
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = PrivateNoteQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "author"], name="private_note_per_author"),
        ]

    def __str__(self):
        return f"Private note #{self.pk}"  # never the text: it may reach logs or the admin


class AgendaItem(models.Model):
    session = models.ForeignKey(CoachingSession, on_delete=models.CASCADE, related_name="agenda")
    author = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    text = models.CharField(max_length=500)
    done = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            # The agenda-items API, oldest first: a page walks this index, each item
            # checked against its session's participants (visible_session_for_lists).
            models.Index(fields=["created_at", "id"], name="agenda_oldest_first"),
        ]

    def __str__(self):
        return self.text


class CommitmentStatus(models.TextChoices):
    OPEN = "open", "Open"
    DONE = "done", "Done"
    DROPPED = "dropped", "Dropped"


class CommitmentQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The owner, whoever wrote it down, and the owner's management chain."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        return self.filter(Q(owner=user) | Q(created_by=user) | is_below("owner", person=user))

    def open(self):
        return self.filter(status=CommitmentStatus.OPEN)


class Commitment(models.Model):
    """The Will step, made concrete. Open commitments follow their owner onto every
    later session until closed — across reschedules and manager changes."""

    owner = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="commitments")
    text = models.CharField(max_length=500)
    evidence = models.CharField(
        "how we will know", max_length=500, help_text="What will show it happened."
    )
    due_on = models.DateField()
    status = models.CharField(
        max_length=16, choices=CommitmentStatus.choices, default=CommitmentStatus.OPEN
    )
    drop_reason = models.CharField(max_length=500, blank=True)
    created_in = models.ForeignKey(
        CoachingSession,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="commitments_made",
    )
    created_by = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_in = models.ForeignKey(
        CoachingSession,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="commitments_closed",
    )
    version = models.PositiveIntegerField(default=0)

    objects = CommitmentQuerySet.as_manager()

    class Meta:
        ordering = ["due_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=CommitmentStatus.values), name="commitment_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status=CommitmentStatus.DROPPED) | ~Q(drop_reason=""),
                name="dropped_commitment_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(status=CommitmentStatus.OPEN) | Q(closed_at__isnull=False),
                name="closed_commitment_has_closed_at",
            ),
        ]
        indexes = [
            # Carry-forward: a person's open commitments, soonest due first.
            models.Index(
                fields=["owner", "due_on"],
                condition=Q(status="open"),
                name="commitment_open_by_owner",
            ),
            # Close rate (`cadence.health`): the commitments made in a window, with the
            # session they were made in and their status, read from the index alone
            # and hash-joined to the sessions a scope led — no probe per session of two
            # years of a coach's history (the head's page: 24,000 probes; bench/routes.py).
            models.Index(
                fields=["created_at"],
                include=["created_in", "status", "id"],
                name="commitments_made_between",
            ),
        ]

    def __str__(self):
        return self.text

    @property
    def is_overdue(self) -> bool:
        return self.status == CommitmentStatus.OPEN and self.due_on < timezone.localdate()


# --- Development goals -----------------------------------------------------------------

MAX_ACTIVE_GOALS = 3  # coaching everything means nothing sticks


class GoalStatus(models.TextChoices):
    ACTIVE = "active", "Working on it"
    ACHIEVED = "achieved", "Achieved"
    DROPPED = "dropped", "Dropped"


class GoalQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The owner and the owner's management chain (as commitments)."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        below = User.objects.below(user).values("pk")
        return self.filter(Q(owner=user) | Q(owner__in=below))

    def active(self):
        return self.filter(status=GoalStatus.ACTIVE)

    def active_first(self):
        """Active goals first, then the rest; newest first within each."""
        is_active = Case(When(status=GoalStatus.ACTIVE, then=0), default=1)
        return self.order_by(is_active, "-created_at", "-pk")


class Goal(models.Model):
    """A development goal in the person's own words: "the one thing I most want to get
    better at this quarter". Feedback, requests and a 1:1's Goal step point at it."""

    owner = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="development_goals")
    title = models.CharField("what I want to get better at", max_length=200)
    success = models.CharField(
        "how I'll know",
        max_length=500,
        blank=True,
        help_text="What you would see or hear once you are there.",
    )
    focus_area = models.ForeignKey(
        FocusArea,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="goals",
        help_text="The programme's focus area this serves, if any.",
    )
    status = models.CharField(max_length=16, choices=GoalStatus.choices, default=GoalStatus.ACTIVE)
    created_by = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    objects = GoalQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=GoalStatus.values), name="goal_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(status=GoalStatus.ACTIVE, closed_at__isnull=True)
                | (~Q(status=GoalStatus.ACTIVE) & Q(closed_at__isnull=False)),
                name="goal_closed_at_matches_status",
            ),
        ]
        indexes = [
            # A person's goals, active first: home pages, the 1:1, feedback forms.
            models.Index(fields=["owner", "status", "-created_at"], name="goal_by_owner"),
        ]

    def __str__(self):
        return f"Goal #{self.pk}"  # never the words: this may reach logs or the admin

    @property
    def is_active(self) -> bool:
        return self.status == GoalStatus.ACTIVE


# --- Session usefulness ------------------------------------------------------------------

RATING_COMMENT_LIMIT = 1_000  # characters in a rating's optional comment


class SessionRatingQuerySet(models.QuerySet):
    def visible_to(self, user):
        """Only the rater. The coach, the coach's managers, HR and admins never read a
        single rating: the coach and the people above them see aggregates over enough
        ratings from enough people (`coaching.ratings.rating_summaries`), nobody else
        anything."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        return self.filter(rater=user)


class SessionRating(models.Model):
    """Was this useful? The coachee's 1–5 on a held 1:1 or manager review, with an
    optional comment. Written by `services.session_rating_save` only; read one at a
    time by its rater, otherwise only as an aggregate (see `coaching.ratings`)."""

    session = models.ForeignKey(CoachingSession, on_delete=models.CASCADE, related_name="ratings")
    rater = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="session_ratings")
    # Denormalised by the service from the session (a held session's people and start
    # never change), so a coach's summary is one grouped query on one index.
    coach = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    session_start = models.DateTimeField(help_text="The session's scheduled start, copied.")
    closes_at = models.DateTimeField(
        help_text="When the rating can no longer be given, changed or taken back: the "
        "session's held_at plus RATING_DAYS, copied. Dashboards count it only after."
    )
    score = models.PositiveSmallIntegerField()
    comment = models.CharField(max_length=RATING_COMMENT_LIMIT, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = SessionRatingQuerySet.as_manager()

    class Meta:
        ordering = ["-session_start", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "rater"], name="rating_once_per_rater"),
            models.CheckConstraint(
                condition=Q(score__gte=1) & Q(score__lte=5), name="rating_score_1_to_5"
            ),
            models.CheckConstraint(condition=~Q(coach=F("rater")), name="rating_not_by_coach"),
        ]
        indexes = [
            # `rating_summaries`: a coach's ratings on sessions that started in a window.
            models.Index(fields=["coach", "session_start"], name="rating_summary_coach_start"),
            # `released_summaries`: a coach's ratings that closed in the weeks before
            # their count; `release_usefulness`: who has ratings closed since theirs.
            models.Index(fields=["coach", "closes_at"], name="rating_counted_coach_closes"),
        ]

    def __str__(self):
        return f"Session rating #{self.pk}"  # never the score or the words: admin, logs


class UsefulnessRelease(models.Model):
    """How far a coach's usefulness summary counts: the ratings that closed (could no
    longer be changed) before `counted_until` (a Monday, 00:00 UTC). Moved on only by
    `coaching.ratings.release_usefulness`, and only once the ratings of at least
    RATING_MIN_RATERS people have closed since — so whatever changes between two
    readings of the summary is the ratings of at least that many people. No row:
    nothing counted yet."""

    coach = models.OneToOneField(
        USER, on_delete=models.CASCADE, primary_key=True, related_name="usefulness_release"
    )
    counted_until = models.DateTimeField()

    def __str__(self):
        return f"Usefulness of coach #{self.coach_id} counted until {self.counted_until:%Y-%m-%d}"


# --- Diagnose before you coach ---------------------------------------------------------


class GapType(models.TextChoices):
    SKILL = "skill", "Skill gap"
    WILL = "will", "Will gap"
    KNOWLEDGE = "knowledge", "Knowledge gap"
    SYSTEM = "system", "System gap"
    NONE = "none", "No gap"


class DiagnosisQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The coach who made it and the people above that coach. Not the coachee:
        it is the coach's working hypothesis, not a verdict to hand over — not even
        after a reorganisation puts the coachee above its author."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        # `is_below`: both sides read by the author index (one BitmapOr); an `IN`
        # semi-join made the OR a scan of every diagnosis (a team lead's 160 of
        # 127,000 at 10,000 people; bench/routes.py).
        return self.filter(Q(author=user) | is_below("author", person=user)).exclude(coachee=user)


class Diagnosis(models.Model):
    """Four questions in order — does the coachee know HOW, believe it moves the
    number, have a shared framework and scorecard, have the time and the evidence —
    landing on the first gap, each with its next step."""

    coachee = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="diagnoses")
    author = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="diagnoses_made")
    # The first question is always asked; after the first "no" nothing is asked and
    # the answer stays null (not established), so counts of "no" stay honest.
    knows_how = models.BooleanField("they know how")
    believes = models.BooleanField("they believe it moves the number", null=True)
    has_framework = models.BooleanField("there is a shared framework and scorecard", null=True)
    has_system = models.BooleanField("time is blocked and the evidence is there", null=True)
    gap = models.CharField(max_length=16, choices=GapType.choices)
    notes = models.TextField(blank=True, max_length=2_000)
    created_at = models.DateTimeField(default=timezone.now)

    objects = DiagnosisQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "diagnoses"
        constraints = [
            models.CheckConstraint(condition=Q(gap__in=GapType.values), name="diagnosis_gap_valid"),
        ]
        indexes = [
            # A coachee's diagnoses, newest first, on their page.
            models.Index(fields=["coachee", "-created_at"], name="diagnosis_by_coachee"),
        ]

    def __str__(self):
        return f"Diagnosis #{self.pk}"
