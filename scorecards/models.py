"""Shared standards of quality: what good looks like, in observable behaviour, and the
scores that measure a piece of work against it.

- A **template** ("Discovery call") has **versions**; a version has ordered **criteria**
  (the behaviour, a scale, an anchor per level, a weight). A used version is never
  edited: editing it makes a new version, and old scorecards keep theirs. A criterion
  version belongs to a **lineage** (`Criterion`) that runs through the versions, so
  trends follow "the same criterion" across edits.
- A **recorded call** is the piece of work (a call or a role-play recording).
- A **scoring round** gathers the raters of one piece of work against one version in a
  context (a coach with the subject, a team call review, a calibration, a peer, the
  subject alone) and holds the reveal rule: self-assessment first, everyone blind until
  they scored (the management chain too, until the scoring is over), the manager's
  scorecard last, a calibration only when closed.
- A **scorecard** is one rater's scores in a round; a **score** is one criterion's
  rating with optional evidence.

Scorecards are developmental: only the people in the round and the subject's
management chain see them; HR and programme admins get aggregates only."""

from django.conf import settings
from django.db import models
from django.db.models import Case, Exists, OuterRef, Q, Subquery, When
from django.utils import timezone

USER = settings.AUTH_USER_MODEL
TEXT_LIMIT = 2000
MAX_SCALE = 10  # a scale runs from 1 to its top level, at most this


# --- Templates ---------------------------------------------------------------------------


class Template(models.Model):
    name = models.CharField(max_length=120, unique=True)
    description = models.TextField(blank=True, max_length=TEXT_LIMIT)
    created_at = models.DateTimeField(default=timezone.now)
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    @property
    def is_retired(self) -> bool:
        return self.retired_at is not None


class TemplateVersion(models.Model):
    template = models.ForeignKey(Template, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["template", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["template", "number"], name="template_version_once"),
        ]

    def __str__(self):
        return f"{self.template.name} v{self.number}"


class CriterionQuerySet(models.QuerySet):
    def labelled(self):
        """With `label`, "Template: latest title", in the same query (pickers list
        every criterion: no query per row)."""
        latest = CriterionVersion.objects.filter(criterion=OuterRef("pk")).order_by(
            "-version__number"
        )
        return (
            self.select_related("template")
            .annotate(latest_title=Subquery(latest.values("title")[:1]))
            .order_by("template__name", "pk")
        )


class Criterion(models.Model):
    """The lineage of one criterion through a template's versions: trends are per
    lineage, and focus areas link to lineages."""

    template = models.ForeignKey(Template, on_delete=models.CASCADE, related_name="criteria")
    created_at = models.DateTimeField(default=timezone.now)

    objects = CriterionQuerySet.as_manager()

    def __str__(self):
        title = getattr(self, "latest_title", None)
        if title is None:
            latest = self.versions.order_by("-version__number").first()
            title = latest.title if latest else f"Criterion #{self.pk}"
        return title

    @property
    def label(self) -> str:
        return f"{self.template.name}: {self}"


class CriterionVersion(models.Model):
    version = models.ForeignKey(TemplateVersion, on_delete=models.CASCADE, related_name="criteria")
    criterion = models.ForeignKey(Criterion, on_delete=models.PROTECT, related_name="versions")
    position = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=120)
    behaviour = models.TextField(
        max_length=TEXT_LIMIT, help_text="What good looks like, as something you can observe."
    )
    scale_max = models.PositiveSmallIntegerField(default=4)
    weight = models.DecimalField(max_digits=4, decimal_places=2, default=1)

    class Meta:
        ordering = ["version", "position"]
        constraints = [
            models.UniqueConstraint(fields=["version", "position"], name="criterion_position_once"),
            models.UniqueConstraint(
                fields=["version", "criterion"], name="criterion_once_a_version"
            ),
            models.CheckConstraint(
                condition=Q(scale_max__gte=2, scale_max__lte=MAX_SCALE),
                name="criterion_scale_valid",
            ),
            models.CheckConstraint(condition=Q(weight__gt=0), name="criterion_weight_positive"),
        ]

    def __str__(self):
        return self.title


class Anchor(models.Model):
    """What a given level looks like for one criterion ("a 3 is …")."""

    criterion = models.ForeignKey(
        CriterionVersion, on_delete=models.CASCADE, related_name="anchors"
    )
    level = models.PositiveSmallIntegerField()
    description = models.CharField(max_length=500)

    class Meta:
        ordering = ["criterion", "level"]
        constraints = [
            models.UniqueConstraint(fields=["criterion", "level"], name="anchor_once_a_level"),
        ]

    def __str__(self):
        return f"{self.level}: {self.description}"


# --- The piece of work -------------------------------------------------------------------


class WorkKind(models.TextChoices):
    CALL = "call", "Recorded call"
    ROLE_PLAY = "role_play", "Role-play"


class RecordedCall(models.Model):
    person = models.ForeignKey(
        USER,
        on_delete=models.CASCADE,
        related_name="recorded_calls",
        help_text="Whose call it is.",
    )
    kind = models.CharField(max_length=16, choices=WorkKind.choices, default=WorkKind.CALL)
    url = models.URLField("recording link", max_length=500, blank=True)
    title = models.CharField(max_length=200)
    call_date = models.DateField()
    timestamps = models.TextField(
        blank=True,
        max_length=2000,
        help_text="Moments worth a look, one per line, e.g. “04:10 first pricing question”.",
    )
    created_by = models.ForeignKey(USER, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-call_date", "-id"]
        indexes = [
            # Lists of calls newest first, walked a page at a time by someone who sees
            # most calls (scorecards.selectors.calls_for_lists); read backwards.
            models.Index(fields=["call_date", "id"], name="call_newest_first"),
        ]

    def __str__(self):
        return f"{self.title} ({self.call_date:%d %b %Y})"


# --- Rounds, scorecards, scores ----------------------------------------------------------


class RoundContext(models.TextChoices):
    COACH = "coach", "Scored with a coach"
    SELF = "self", "Self-assessment"
    PEER = "peer", "Peer"
    TEAM_REVIEW = "team_review", "Team call review"
    CALIBRATION = "calibration", "Calibration"


class RaterRole(models.TextChoices):
    SUBJECT = "subject", "Subject (self-assessment)"
    COACH = "coach", "Coach"
    PEER = "peer", "Peer"
    PARTICIPANT = "participant", "Participant"
    MANAGER = "manager", "Manager (revealed last)"
    CALIBRATOR = "calibrator", "Calibrating rater"


class RoundQuerySet(models.QuerySet):
    def open(self):
        return self.filter(closed_at__isnull=True)

    def visible_to(self, user):
        """Its raters and whoever opened it; for anything but a calibration, also the
        subject and the subject's management chain.

        The ids are gathered first, each part from its own index, and the rounds read
        by id: as one OR PostgreSQL tested every round of the organisation (136,000 at
        10,000 people) for a rep's list."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        from people.models import User

        rounds = ScoringRound.objects.order_by()
        about = rounds.exclude(context=RoundContext.CALIBRATION)
        ids = (
            rounds.filter(created_by=user)
            .values("pk")
            .union(
                RoundRater.objects.filter(person=user).order_by().values("round_id"),
                about.filter(work__person=user).values("pk"),
                about.filter(work__person__in=User.objects.ids_below(user)).values("pk"),
            )
        )
        return self.filter(pk__in=ids)

    def visible_for_lists(self, user, below: list[int] | None = None):
        """`visible_to(user)` — the same rounds — for lists read newest first a page at
        a time. From LARGE_SCOPE_FROM people below, gathering the ids first gathers
        most of the organisation's rounds (133,000 for its head; bench/routes.py);
        each round is checked instead, so a page walks `round_newest_first` and
        costs a few dozen checks. `below`: the ids below `user`, when the page has
        read them already (`list_ids_below`)."""
        from core.queries import one_of
        from people.models import LARGE_SCOPE_FROM, User

        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        if below is None:
            below = User.objects.list_ids_below(user)
        if len(below) < LARGE_SCOPE_FROM:
            return self.visible_to(user)
        invited = RoundRater.objects.filter(round=OuterRef("pk"), person=user)
        # Whose call, read through the join to the call (one row each), not as an
        # EXISTS over the calls: PostgreSQL hashed that EXISTS up front — every call
        # below the head, 133,000, before the first row of a page (bench/routes.py).
        about_mine = Q(work__person=user) | one_of("work__person_id", below)
        # The context first: PostgreSQL evaluates an AND inside an OR in the order
        # written, so a calibration's call is never looked up.
        return self.filter(
            Q(created_by=user)
            | Exists(invited)
            | (~Q(context=RoundContext.CALIBRATION) & about_mine)
        )


class ScoringRound(models.Model):
    """The raters of one piece of work against one template version, in one context,
    and when their scorecards may be seen (see `scorecards.selectors`)."""

    work = models.ForeignKey(RecordedCall, on_delete=models.PROTECT, related_name="rounds")
    version = models.ForeignKey(TemplateVersion, on_delete=models.PROTECT, related_name="rounds")
    context = models.CharField(max_length=16, choices=RoundContext.choices)
    title = models.CharField(max_length=200, blank=True, help_text="Calibrations: a name.")
    created_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    # A team call review's round names its session (coaching), kept as a plain id:
    # scorecards sits left of coaching and never imports it.
    session_id = models.PositiveBigIntegerField(null=True, blank=True, db_index=True)
    # Open, and a rater has neither submitted nor declined: the opposite of
    # `scoring_over`, kept by the services that change it (`refresh_awaiting_scores`)
    # so the reveal rule and the aggregates read one indexed column rather than every
    # round's raters and scorecards (the head's scorecards list: bench/routes.py).
    awaiting_scores = models.BooleanField(default=False, db_default=False, editable=False)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # Lists of rounds newest first, walked a page at a time by someone who sees
            # most rounds (RoundQuerySet.visible_for_lists); read backwards.
            models.Index(fields=["created_at", "id"], name="round_newest_first"),
            # The Calibrations list, newest first (`scorecards.selectors`): a hundred
            # calibrations among 136,000 rounds at 10,000 people, which the walk of
            # `round_newest_first` read to the end when few or none were the reader's.
            models.Index(
                fields=["created_at", "id"],
                condition=Q(context=RoundContext.CALIBRATION),
                name="round_calibrations_newest",
            ),
            # The rounds still being scored (`scoring_over`): a few in seven at 10,000
            # people, read whole when a list or an aggregate covers most scorecards.
            models.Index(
                fields=["id"], condition=Q(awaiting_scores=True), name="round_awaiting_scores"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(context__in=RoundContext.values), name="round_context_valid"
            ),
            # One team-review round per presented call and template in a session.
            models.UniqueConstraint(
                fields=["session_id", "work", "version"],
                condition=Q(session_id__isnull=False),
                name="round_once_per_session_call",
            ),
        ]

    def __str__(self):
        return self.title or f"{self.get_context_display()}: {self.work.title}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class RoundRater(models.Model):
    round = models.ForeignKey(ScoringRound, on_delete=models.CASCADE, related_name="raters")
    person = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="rounds_invited")
    role = models.CharField(max_length=16, choices=RaterRole.choices)
    declined_at = models.DateTimeField(null=True, blank=True)
    invited_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "person"], name="rater_once_a_round"),
        ]
        indexes = [
            # "Scorecards waiting for me": a person's rounds.
            models.Index(fields=["person", "round"], name="rater_rounds"),
        ]

    def __str__(self):
        return f"{self.person} in {self.round_id} as {self.role}"


class ScorecardQuerySet(models.QuerySet):
    def submitted(self):
        return self.filter(submitted_at__isnull=False)

    def visible_to(self, user):
        """The one reveal rule (one query, composable):

        - your own scorecards, drafts included;
        - someone else's, once submitted, when you are in its round and done there
          (you submitted yours or declined, or the round is closed; whoever opened
          it sees it once closed): self-assessment first, everyone blind until they
          scored. A calibration shows only once it is closed; a manager's scorecard
          in a team review only once every other rater is done (or it is closed);
        - a subject's management chain sees the submitted scorecards about them,
          calibrations aside, once the scoring is over (`scoring_over`): nobody's
          seniority lifts the blind — a coach does not read the self-assessment
          before scoring, nor the coach's manager either side's while it is open.

        HR and programme admins see none: aggregates only."""
        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        from people.models import User

        # The round's state last: it is read only for scorecards about someone below.
        chain = (
            Q(subject__in=User.objects.below(user).values("pk"))
            & ~Q(context=RoundContext.CALIBRATION)
            & scoring_over()
        )
        return self.filter(
            Q(rater=user) | (Q(submitted_at__isnull=False) & (_shown_in_its_round(user) | chain))
        )

    def counted_in_trends(self, user, subjects):
        """What every trend counts: of the scorecards about `subjects` (people or ids)
        that `user` may see, the submitted ones, calibrations aside. When every
        subject is below `user` the rule's chain part is known to hold but for the
        round being over — so the walk down the reporting lines is not built and
        compiled, which cost more than running it: one walk up instead (the skill
        trends of a team lead's ten reps on "My team" at 10,000 people;
        bench/routes.py), and of the rule its round parts. Someone reading their own trend is
        never below themselves: no walk, and of the rule only its round part."""
        from people.models import User

        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        ids = sorted({getattr(s, "pk", s) for s in subjects})
        about = self.filter(subject__in=ids, submitted_at__isnull=False).exclude(
            context=RoundContext.CALIBRATION
        )
        if ids and user.pk not in ids:
            above = User.objects.managers_above(ids)
            if all(user.pk in above[pk] for pk in ids):
                # The rule with its chain part known true: everything once the
                # scoring is over, before that what the round shows its own people.
                return about.filter(Q(rater=user) | scoring_over() | _shown_in_its_round(user))
        if ids == [user.pk]:
            # Nobody is below themselves: of the rule, the round's part is left (a
            # rep's own trend on "My growth"; bench/routes.py measures it).
            return about.filter(Q(rater=user) | _shown_in_its_round(user))
        return about.visible_to(user)

    def visible_for_lists(self, user):
        """`visible_to(user)` — the same scorecards — for a whole list (the API's):
        the rule decides on the scorecards it could show, gathered from indexes first
        (theirs, those of rounds they are in or opened, the submitted ones about people
        below them), rather than on every scorecard in the organisation (a rep's list
        at 10,000 people; bench/routes.py). Read filtered by round or person, `visible_to`
        is cheaper as it is; so it is from LARGE_SCOPE_FROM people below, who could be
        shown most scorecards."""
        from people.models import LARGE_SCOPE_FROM, User

        if not (user and user.is_authenticated and user.is_active):
            return self.none()
        if User.objects.below(user).count() >= LARGE_SCOPE_FROM:
            return self.visible_to(user)
        cards = Scorecard.objects.order_by()
        about_below = cards.filter(
            submitted_at__isnull=False, subject__in=User.objects.ids_below(user)
        )
        candidates = (
            cards.filter(rater=user)
            .values("pk")
            .union(
                cards.filter(
                    round__in=RoundRater.objects.filter(person=user).values("round_id")
                ).values("pk"),
                cards.filter(round__created_by=user).values("pk"),
                about_below.values("pk"),
            )
        )
        return self.visible_to(user).filter(pk__in=candidates)


def scoring_over(round_path: str = "round") -> Q:
    """Whether a scorecard's round is over: closed, or every rater in it submitted or
    declined. Until then everyone is blind, whatever their place in the reporting
    line — a rater sees others' scores only once done (`_shown_in_its_round`), and
    nobody else sees any: not the subject's management chain (the reveal rule), and
    no aggregate counts them (team distributions, skills across the organisation),
    so no average moves while someone is still scoring. Who has submitted is no
    secret; what they scored is. `round_path`: the way to the round from the rows
    filtered ("scorecard__round" for scores). Read from the round's
    `awaiting_scores`, which `awaiting_scores_now` decides."""
    return ~Exists(ScoringRound.objects.filter(pk=OuterRef(round_path), awaiting_scores=True))


def awaiting_scores_now() -> Q:
    """For rounds: open, and a rater has neither submitted nor declined — what
    `ScoringRound.awaiting_scores` keeps."""
    someone_scoring = RoundRater.objects.filter(
        round=OuterRef("pk"), declined_at__isnull=True
    ).exclude(
        Exists(
            Scorecard.objects.filter(
                round=OuterRef("round"), rater=OuterRef("person"), submitted_at__isnull=False
            )
        )
    )
    return Q(closed_at__isnull=True) & Exists(someone_scoring)


def refresh_awaiting_scores(rounds) -> int:
    """Set `awaiting_scores` of `rounds` (a queryset of rounds) from their raters and
    scorecards: after a round is opened or closed, a scorecard submitted, a rater
    declines or is erased. One UPDATE."""
    return rounds.update(
        awaiting_scores=Case(When(awaiting_scores_now(), then=True), default=False)
    )


def _shown_in_its_round(user) -> Q:
    """The reveal rule's part for someone in a scorecard's round, submitted ones only
    (`ScorecardQuerySet.visible_to`): they are done there, a calibration is closed, and
    a manager's scorecard in a team review waits for every other rater."""
    submitted = Scorecard.objects.filter(
        round=OuterRef("round"), rater=user, submitted_at__isnull=False
    )
    declined = RoundRater.objects.filter(
        round=OuterRef("round"), person=user, declined_at__isnull=False
    )
    invited = RoundRater.objects.filter(round=OuterRef("round"), person=user)
    someone_else_pending = (
        RoundRater.objects.filter(round=OuterRef("round"), declined_at__isnull=True)
        .exclude(role=RaterRole.MANAGER)
        .exclude(
            Exists(
                Scorecard.objects.filter(
                    round=OuterRef("round"),
                    rater=OuterRef("person"),
                    submitted_at__isnull=False,
                )
            )
        )
    )
    # The round's two columns are read by its primary key, once per scorecard that
    # gets that far, rather than by a join: with a join PostgreSQL hashed the whole
    # round table (135,891 rows at 10,000 people) to check the 84 scorecards a
    # team lead's skill trends look at (monthly_averages; measured by bench/routes.py).
    this_round = ScoringRound.objects.filter(pk=OuterRef("round"))
    round_closed = Exists(this_round.filter(closed_at__isnull=False))
    # Done here: scored, declined, or the round is over (its raters and whoever
    # opened it then see everything in it).
    done_here = (
        Exists(submitted)
        | Exists(declined)
        | ((Exists(invited) | Exists(this_round.filter(created_by=user))) & round_closed)
    )
    calibration_rule = ~Q(context=RoundContext.CALIBRATION) | round_closed
    manager_last = ~Q(rater_role=RaterRole.MANAGER) | round_closed | ~Exists(someone_else_pending)
    return done_here & calibration_rule & manager_last


class Scorecard(models.Model):
    """One rater's scores in one round. A draft until submitted; submitted scorecards
    are never edited (a later thought is a new round)."""

    round = models.ForeignKey(ScoringRound, on_delete=models.CASCADE, related_name="scorecards")
    rater = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="scorecards_given")
    rater_role = models.CharField(max_length=16, choices=RaterRole.choices)
    # Copied from the round so trends are one indexed scan.
    subject = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="scorecards")
    version = models.ForeignKey(TemplateVersion, on_delete=models.PROTECT, related_name="+")
    context = models.CharField(max_length=16, choices=RoundContext.choices)
    keep = models.TextField("one thing to keep", blank=True, max_length=TEXT_LIMIT)
    try_next = models.TextField("one thing to try", blank=True, max_length=TEXT_LIMIT)
    created_at = models.DateTimeField(default=timezone.now)
    submitted_at = models.DateTimeField(null=True, blank=True)

    objects = ScorecardQuerySet.as_manager()

    class Meta:
        ordering = ["-submitted_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "rater"], name="scorecard_once_a_rater"),
        ]
        indexes = [
            # Trends: a person's submitted scorecards over time.
            models.Index(
                fields=["subject", "submitted_at"],
                condition=Q(submitted_at__isnull=False),
                name="scorecard_trends",
            ),
        ]

    def __str__(self):
        return f"{self.rater} on {self.round}"


class Score(models.Model):
    scorecard = models.ForeignKey(Scorecard, on_delete=models.CASCADE, related_name="scores")
    criterion = models.ForeignKey(CriterionVersion, on_delete=models.PROTECT, related_name="+")
    rating = models.PositiveSmallIntegerField()
    evidence_at = models.CharField(
        "moment", max_length=12, blank=True, help_text="Where in the recording, e.g. 04:10."
    )
    evidence = models.CharField("what you saw or heard", max_length=500, blank=True)

    class Meta:
        ordering = ["scorecard", "criterion__position"]
        constraints = [
            models.UniqueConstraint(
                fields=["scorecard", "criterion"], name="score_once_a_criterion"
            ),
            models.CheckConstraint(
                condition=Q(rating__gte=1, rating__lte=MAX_SCALE), name="score_rating_in_range"
            ),
        ]

    def __str__(self):
        return f"{self.criterion}: {self.rating}"
