"""Feedback in every direction, on two streams that never mix.

Developmental feedback is for growth: only its recipient and author see it, and
whoever the recipient shares one item with. Evaluative feedback is for performance
review: the recipient, the author, the recipient's management chain and HR see it,
and every read by someone else is audited.

The firewall is built in, not bolted on: the stream is fixed at creation (a database
CHECK says which values exist; no service changes it), and everything evaluative —
screens, exports, HR views — starts from `Feedback.evaluative`, a manager that can
only ever return the evaluative stream."""

import uuid
from datetime import UTC, date, datetime, time
from functools import reduce
from operator import or_

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from people.models import User

USER = settings.AUTH_USER_MODEL
TEXT_LIMIT = 5_000


class Stream(models.TextChoices):
    DEVELOPMENTAL = "developmental", "Developmental — for growth, never for evaluation"
    EVALUATIVE = "evaluative", "Evaluative — for performance review"


class Direction(models.TextChoices):
    DOWNWARD = "downward", "To someone who reports to you"
    UPWARD = "upward", "To your manager (or above)"
    PEER = "peer", "To a peer"
    SELF = "self", "About yourself"


class FeedbackQuerySet(models.QuerySet):
    def visible_to(
        self, user, *, is_hr: bool = False, each_row: bool = False, within: Q | None = None
    ):
        """The one visibility rule: what I received or wrote, developmental items shared
        with me, and the evaluative stream of the people below me — all of it for HR.
        `is_hr` comes from the caller's roles (people.access), so this stays one query.

        Two shapes of the same conditions (`_visibility_parts`). By default the ids
        are gathered first, each part from its own index, and the table is read by id:
        most people see a few hundred items of a million, and as one OR of the four
        PostgreSQL tested every row of the table (a rep's list; bench/routes.py).
        `each_row=True` tests the rows a query already narrowed by an index (the
        evaluative items of the people a manager reviews): there the gathered ids are
        as many as the rows, and the planner, which guesses a walk of the hierarchy at
        ten people, once joined the head's 45,000 of each by comparing every pair;
        as an OR each part is one hashed lookup per row.

        `within` narrows the result as `.filter(within)` would, and is also applied to
        each part before the ids are gathered: the head's "received by me" list
        gathered 45,000 ids to keep 236."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        within = within or Q()
        parts = _visibility_parts(user, is_hr=is_hr)
        if each_row:
            return self.filter(within, reduce(or_, parts))
        items = Feedback.objects.order_by()
        first, *rest = (items.filter(part, within).values("pk") for part in parts)
        return self.filter(within, pk__in=first.union(*rest))

    def developmental(self):
        return self.filter(stream=Stream.DEVELOPMENTAL)


def _visibility_parts(user, *, is_hr: bool) -> list[Q]:
    """`FeedbackQuerySet.visible_to`'s conditions, any one of which lets `user` see an
    item."""
    evaluative = Q(stream=Stream.EVALUATIVE)
    if not is_hr:
        evaluative &= Q(recipient_id__in=User.objects.ids_below(user))
    shared = FeedbackShare.objects.filter(person=user, revoked_at__isnull=True)
    return [
        Q(recipient=user),
        Q(author=user),
        Q(stream=Stream.DEVELOPMENTAL, pk__in=shared.order_by().values("feedback_id")),
        evaluative,
    ]


class EvaluativeManager(models.Manager):
    """Can only ever yield the evaluative stream: the base of every evaluation screen,
    export and HR view."""

    def get_queryset(self):
        return FeedbackQuerySet(self.model, using=self._db).filter(stream=Stream.EVALUATIVE)


class Feedback(models.Model):
    stream = models.CharField(max_length=16, choices=Stream.choices)
    direction = models.CharField(max_length=16, choices=Direction.choices)
    author = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="feedback_given")
    recipient = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="feedback_received")
    # Shown to the recipient without the author's name (upward feedback only, and only
    # once enough answers arrived for the author not to be guessed).
    anonymous = models.BooleanField(default=False)
    request = models.ForeignKey(
        "FeedbackRequest", null=True, blank=True, on_delete=models.SET_NULL, related_name="answers"
    )
    # An anonymous answer's only address (pages, API, downloads): random, so it says
    # nothing about when it arrived, unlike the pk from the shared sequence. Null on
    # named feedback, which keeps its number.
    public_id = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    observation = models.TextField(
        max_length=TEXT_LIMIT, help_text="What happened — what you saw or heard."
    )
    impact = models.TextField(blank=True, max_length=TEXT_LIMIT, help_text="What it led to.")
    suggestion = models.TextField(
        blank=True, max_length=TEXT_LIMIT, help_text="One thing to try next time."
    )
    themes = models.ManyToManyField("Theme", blank=True, related_name="feedback")
    created_at = models.DateTimeField(default=timezone.now)
    # The recipient's side: "Thank you, I'll think about it", and a private reflection.
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    reflection = models.TextField(blank=True, max_length=TEXT_LIMIT)
    # The recipient's own link to one of their development goals, private like the
    # reflection. No reverse accessor: a goal never leads to feedback.
    goal = models.ForeignKey(
        "coaching.Goal", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = FeedbackQuerySet.as_manager()
    evaluative = EvaluativeManager()

    class Meta:
        # Anonymous answers of one day share a `created_at` (the day): among them the
        # random `public_id` decides, so the order is not the order they arrived in.
        ordering = ["-created_at", "public_id", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(stream__in=Stream.values), name="feedback_stream_valid"
            ),
            models.CheckConstraint(
                condition=Q(anonymous=False) | Q(public_id__isnull=False),
                name="anonymous_feedback_has_public_id",
            ),
            models.CheckConstraint(
                condition=Q(direction__in=Direction.values), name="feedback_direction_valid"
            ),
            models.CheckConstraint(
                condition=~Q(anonymous=True) | Q(direction=Direction.UPWARD),
                name="only_upward_feedback_is_anonymous",
            ),
        ]
        indexes = [
            # "My feedback" by stream, newest first.
            models.Index(fields=["recipient", "stream", "-created_at"], name="feedback_received"),
            # Evaluation screens and exports walk the evaluative stream by recipient.
            models.Index(
                fields=["recipient", "-created_at"],
                condition=Q(stream="evaluative"),
                name="feedback_evaluative",
            ),
        ]

    def __str__(self):
        return feedback_name(self.ref)

    @property
    def ref(self) -> str:
        """How pages, the API and downloads address the item: its random public id
        when anonymous, else its number."""
        return str(self.public_id) if self.public_id else str(self.pk)

    @property
    def shown_at(self) -> datetime | date:
        """When it was given, as far as anyone is told: for an anonymous answer the day
        (UTC) its request was made — the same for every answer to it — the moment for
        everything else."""
        return self.created_at.astimezone(UTC).date() if self.anonymous else self.created_at


def anonymous_stamp(moment: datetime) -> datetime:
    """What an anonymous answer keeps of a moment: the start of its day (UTC). It is
    given its request's moment, so all answers to one request carry the same day:
    microseconds, or even the day each came, would let the requester match answers
    to the order people answered in."""
    return datetime.combine(moment.astimezone(UTC).date(), time.min, tzinfo=UTC)


def new_public_id() -> uuid.UUID:
    return uuid.uuid4()


def feedback_name(pk) -> str:
    """How an item is named wherever it is printed: never its words (this may reach
    logs, the admin or the audit trail)."""
    return f"Feedback #{pk}"


class FeedbackShare(models.Model):
    """The recipient shares one developmental item with a named person (their coach,
    say), and can take it back."""

    feedback = models.ForeignKey(Feedback, on_delete=models.CASCADE, related_name="shares")
    person = models.ForeignKey(
        USER, on_delete=models.CASCADE, related_name="feedback_shared_with_me"
    )
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["feedback", "person"],
                condition=Q(revoked_at__isnull=True),
                name="feedback_shared_once",
            )
        ]

    def __str__(self):
        return f"Share #{self.pk}"


class Theme(models.Model):
    """A tag the recipient puts on feedback to see patterns over time."""

    name = models.CharField(max_length=60, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


DEFAULT_QUESTION = "What's one thing I could do differently to be more effective?"


class FeedbackRequestQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The requester, and the people asked. The ids are gathered first, each part
        from its own index: as one OR PostgreSQL tested all 80,000 requests of the
        organisation for a team lead's 84 (bench/routes.py)."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        mine = FeedbackRequest.objects.filter(requester=user).order_by().values("pk")
        asked = RequestedResponder.objects.filter(responder=user).order_by().values("request_id")
        return self.filter(pk__in=mine.union(asked))


class FeedbackRequest(models.Model):
    requester = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="feedback_requests")
    question = models.CharField(max_length=500, default=DEFAULT_QUESTION)
    stream = models.CharField(max_length=16, choices=Stream.choices, default=Stream.DEVELOPMENTAL)
    topic = models.CharField(
        max_length=200, blank=True, help_text="Anything specific to look at (optional)."
    )
    # What the answers should help with: one of the requester's goals, or a focus area.
    goal = models.ForeignKey(
        "coaching.Goal", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    focus_area = models.ForeignKey(
        "coaching.FocusArea", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    anonymous = models.BooleanField(
        default=False,
        help_text="Upward requests only; answers shown together once the request is over "
        "and enough arrived.",
    )
    due_on = models.DateField()
    created_at = models.DateTimeField(default=timezone.now)

    objects = FeedbackRequestQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(stream__in=Stream.values), name="feedback_request_stream_valid"
            ),
        ]
        indexes = [
            # The reminder sweep: requests falling due in the next day or so.
            models.Index(fields=["due_on"], name="feedback_request_due"),
        ]

    def __str__(self):
        return f"Request #{self.pk}"


class ResponderStatus(models.TextChoices):
    WAITING = "waiting", "Waiting"
    ANSWERED = "answered", "Answered"
    DECLINED = "declined", "Declined"


class RequestedResponder(models.Model):
    request = models.ForeignKey(
        FeedbackRequest, on_delete=models.CASCADE, related_name="responders"
    )
    responder = models.ForeignKey(
        USER, on_delete=models.CASCADE, related_name="feedback_asked_of_me"
    )
    status = models.CharField(
        max_length=16, choices=ResponderStatus.choices, default=ResponderStatus.WAITING
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["request", "responder"], name="responder_once"),
        ]
        indexes = [
            # A responder's inbox: what is waiting on me.
            models.Index(
                fields=["responder"], condition=Q(status="waiting"), name="feedback_inbox"
            ),
        ]

    def __str__(self):
        return f"{self.responder} on request #{self.request_id}"


class InterpretiveTerm(models.Model):
    """A word or phrase that usually signals interpretation rather than observation
    ("you seem", "always", "attitude"). Data, editable by programme admins; the
    checker only advises, it never blocks."""

    phrase = models.CharField(max_length=60, unique=True)
    hint = models.CharField(
        max_length=200,
        default="Describe what you saw or heard instead.",
    )

    class Meta:
        ordering = ["phrase"]

    def __str__(self):
        return self.phrase


class WinQuerySet(models.QuerySet):
    def visible_to(self, user):
        """Wins are for the team: the teams the viewer is on now or leads."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        from people.models import Team, TeamMembership

        teams = TeamMembership.objects.current().filter(person=user).values("team")
        led = Team.objects.filter(lead=user).values("pk")
        return self.filter(Q(team__in=teams) | Q(team__in=led))


class Win(models.Model):
    """Recognition, separate from both streams: e.g. the call clip of the week."""

    author = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="wins_shared")
    team = models.ForeignKey("people.Team", on_delete=models.CASCADE, related_name="wins")
    title = models.CharField(max_length=200)
    link = models.URLField(blank=True, max_length=500)
    text = models.TextField(blank=True, max_length=TEXT_LIMIT)
    created_at = models.DateTimeField(default=timezone.now)

    objects = WinQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        # A team's wins wall, newest first.
        indexes = [models.Index(fields=["team", "-created_at"], name="wins_by_team")]

    def __str__(self):
        return self.title
