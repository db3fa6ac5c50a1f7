"""Reads with rules. Every scorecard read goes through `Scorecard.objects.visible_to`
(the reveal rule); a round is opened with `access_round` (404 for everyone it does not
concern). Trends and distributions are aggregated in the database."""

from dataclasses import dataclass, field
from datetime import date, datetime

from django.db.models import Avg, Count, Prefetch, Q, QuerySet
from django.db.models.functions import TruncMonth
from django.http import Http404

from people.models import User

from .agreement import CriterionAgreement, criterion_agreement, krippendorff_alpha_interval
from .models import (
    CriterionVersion,
    RaterRole,
    RecordedCall,
    RoundContext,
    RoundRater,
    Score,
    Scorecard,
    ScoringRound,
    Template,
    TemplateVersion,
)

# --- Templates -----------------------------------------------------------------------------


def offered_templates() -> QuerySet[Template]:
    return Template.objects.filter(retired_at__isnull=True).order_by("name")


def version_with_criteria(version_id: int) -> TemplateVersion:
    return (
        TemplateVersion.objects.select_related("template")
        .prefetch_related(
            Prefetch(
                "criteria",
                queryset=CriterionVersion.objects.prefetch_related("anchors").order_by("position"),
            )
        )
        .get(pk=version_id)
    )


# --- Calls ---------------------------------------------------------------------------------


def calls_visible_to(user: User) -> QuerySet[RecordedCall]:
    """Your calls and those of people below you."""
    from people.selectors import people_below

    if not (user and user.is_authenticated and user.is_active):
        return RecordedCall.objects.none()
    return RecordedCall.objects.filter(
        Q(person=user) | Q(person__in=people_below(person=user).values("pk"))
    )


# --- One round, as one person may see it ---------------------------------------------------


@dataclass
class RaterLine:
    rater: RoundRater
    scorecard: Scorecard | None  # None: not visible to the viewer (or not submitted)
    state: str  # "submitted", "hidden", "draft", "declined", "waiting"


@dataclass
class CriterionRow:
    criterion: CriterionVersion
    ratings: dict  # rater pk → Score, for the scorecards the viewer may see
    agreement: CriterionAgreement | None = None
    gap: int | None = None  # self-assessment minus the others' median (coach rounds)


@dataclass
class RoundView:
    round: ScoringRound
    version: TemplateVersion
    viewer_rater: RoundRater | None
    mine: Scorecard | None
    lines: list[RaterLine]
    rows: list[CriterionRow]
    visible: list[Scorecard]
    alpha: float | None = None
    waiting_on_me: bool = False
    hidden_until_i_score: bool = False
    notes: list[str] = field(default_factory=list)


def access_round(*, user: User, pk: int) -> ScoringRound:
    try:
        return (
            ScoringRound.objects.visible_to(user)
            .select_related("work__person", "version__template", "created_by")
            .get(pk=pk)
        )
    except ScoringRound.DoesNotExist:
        raise Http404 from None


def round_view(*, user: User, scoring: ScoringRound) -> RoundView:
    """The round as `user` may see it: who has scored (never what, until revealed),
    the scorecards the reveal rule shows them, side by side per criterion, and the
    agreement among them. A fixed number of queries."""
    version = version_with_criteria(scoring.version_id)
    raters = list(
        RoundRater.objects.filter(round=scoring)
        .select_related("person")
        .order_by("invited_at", "pk")
    )
    all_cards = {c.rater_id: c for c in Scorecard.objects.filter(round=scoring)}
    visible = list(
        Scorecard.objects.visible_to(user)
        .filter(round=scoring)
        .select_related("rater")
        .prefetch_related("scores")
    )
    shown = {c.rater_id: c for c in visible}
    viewer_rater = next((r for r in raters if r.person_id == user.pk), None)
    mine = shown.get(user.pk)
    lines = []
    for rater in raters:
        card = all_cards.get(rater.person_id)
        if rater.declined_at:
            state = "declined"
        elif card is None:
            state = "waiting"
        elif card.submitted_at is None:
            state = "draft" if rater.person_id == user.pk else "waiting"
        else:
            state = "submitted" if rater.person_id in shown else "hidden"
        lines.append(RaterLine(rater, shown.get(rater.person_id), state))
    submitted = [c for c in visible if c.submitted_at is not None]
    rows = _rows(version, submitted, scoring)
    done = viewer_rater is not None and (
        viewer_rater.declined_at is not None or (mine is not None and mine.submitted_at)
    )
    return RoundView(
        round=scoring,
        version=version,
        viewer_rater=viewer_rater,
        mine=mine,
        lines=lines,
        rows=rows,
        visible=submitted,
        alpha=krippendorff_alpha_interval(
            [[s.rating for s in row.ratings.values()] for row in rows]
        )
        if len(submitted) >= 2
        else None,
        waiting_on_me=viewer_rater is not None and not done and not scoring.is_closed,
        hidden_until_i_score=viewer_rater is not None
        and not done
        and any(line.state == "hidden" for line in lines),
    )


def _rows(version, cards, scoring) -> list[CriterionRow]:
    rows = []
    for criterion in version.criteria.all():
        ratings = {}
        for card in cards:
            score = next((s for s in card.scores.all() if s.criterion_id == criterion.pk), None)
            if score is not None:
                ratings[card.rater_id] = score
        row = CriterionRow(criterion, ratings)
        if len(ratings) >= 2:
            row.agreement = criterion_agreement({k: s.rating for k, s in ratings.items()})
        subject_card = next((c for c in cards if c.rater_role == RaterRole.SUBJECT), None)
        others = [
            s.rating for k, s in ratings.items() if not subject_card or k != subject_card.rater_id
        ]
        if subject_card and subject_card.rater_id in ratings and others:
            others.sort()
            middle = others[len(others) // 2]
            row.gap = ratings[subject_card.rater_id].rating - middle
        rows.append(row)
    return rows


# --- Lists -----------------------------------------------------------------------------------


def rounds_for(*, user: User) -> QuerySet[ScoringRound]:
    """Rounds that concern me, newest first, with what the list shows."""
    return (
        ScoringRound.objects.visible_to(user)
        .select_related("work__person", "version__template")
        .annotate(
            raters_count=Count("raters", distinct=True),
            submitted_count=Count(
                "scorecards", filter=Q(scorecards__submitted_at__isnull=False), distinct=True
            ),
        )
    )


def waiting_on(*, user: User) -> QuerySet[ScoringRound]:
    """Open rounds where I am a rater and have neither submitted nor declined."""
    return (
        ScoringRound.objects.open()
        .filter(raters__person=user, raters__declined_at__isnull=True)
        .exclude(scorecards__rater=user, scorecards__submitted_at__isnull=False)
        .select_related("work__person", "version__template")
        .distinct()
    )


# --- Trends ------------------------------------------------------------------------------------


@dataclass
class TrendPoint:
    month: date
    others: float | None  # mean rating by coaches, peers, reviewers
    self: float | None  # mean self-assessment
    count: int

    @property
    def gap(self) -> float | None:
        if self.others is None or self.self is None:
            return None
        return round(self.self - self.others, 2)


@dataclass
class CriterionTrend:
    criterion_id: int
    title: str
    template: str
    points: list[TrendPoint]
    change_since: float | None = None  # others' mean after `since` minus before


def person_trends(
    *, person: User, since: datetime | None = None, criteria: list[int] | None = None
) -> list[CriterionTrend]:
    """Per criterion lineage and month: the others' mean and the self-assessment mean
    (two aggregate queries plus one for the titles, whatever the number of scores).
    Calibrations are left out: they measure raters, not the person. With `since`,
    each trend also says how much the others' mean moved after that moment."""
    scores = Score.objects.filter(
        scorecard__subject=person, scorecard__submitted_at__isnull=False
    ).exclude(scorecard__context=RoundContext.CALIBRATION)
    if criteria is not None:
        scores = scores.filter(criterion__criterion_id__in=criteria)
    is_self = Q(scorecard__rater_role=RaterRole.SUBJECT)
    monthly = (
        scores.annotate(month=TruncMonth("scorecard__submitted_at"))
        .values("criterion__criterion_id", "month")
        .annotate(
            others=Avg("rating", filter=~is_self),
            mine=Avg("rating", filter=is_self),
            count=Count("pk"),
        )
        .order_by("criterion__criterion_id", "month")
    )
    trends: dict[int, CriterionTrend] = {}
    titles = _latest_titles({row["criterion__criterion_id"] for row in monthly})
    for row in monthly:
        lineage = row["criterion__criterion_id"]
        trend = trends.get(lineage)
        if trend is None:
            title, template = titles[lineage]
            trend = trends[lineage] = CriterionTrend(lineage, title, template, [])
        month = row["month"].date() if isinstance(row["month"], datetime) else row["month"]
        trend.points.append(
            TrendPoint(month, _round(row["others"]), _round(row["mine"]), row["count"])
        )
    if since is not None and trends:
        moves = (
            scores.filter(~is_self)
            .values("criterion__criterion_id")
            .annotate(
                before=Avg("rating", filter=Q(scorecard__submitted_at__lt=since)),
                after=Avg("rating", filter=Q(scorecard__submitted_at__gte=since)),
            )
        )
        for row in moves:
            if row["before"] is not None and row["after"] is not None:
                trends[row["criterion__criterion_id"]].change_since = _round(
                    row["after"] - row["before"]
                )
    return sorted(trends.values(), key=lambda t: (t.template, t.title))


def _latest_titles(lineages: set[int]) -> dict[int, tuple[str, str]]:
    rows = (
        CriterionVersion.objects.filter(criterion_id__in=lineages)
        .order_by("criterion_id", "-version__number")
        .values_list("criterion_id", "title", "version__template__name")
    )
    titles: dict[int, tuple[str, str]] = {}
    for lineage, title, template in rows:
        titles.setdefault(lineage, (title, template))
    return titles


def _round(value) -> float | None:
    return None if value is None else round(float(value), 2)


@dataclass
class Distribution:
    criterion_id: int
    title: str
    counts: dict  # rating → how many scores
    total: int


def team_distribution(
    *, people: QuerySet[User] | list[int], criteria: list[int], since: datetime | None = None
) -> list[Distribution]:
    """How the scores of these people spread over the rating levels, per criterion
    lineage (coaches', peers' and reviewers' scores; one aggregate query)."""
    scores = (
        Score.objects.filter(
            scorecard__subject__in=people,
            scorecard__submitted_at__isnull=False,
            criterion__criterion_id__in=criteria,
        )
        .exclude(scorecard__rater_role=RaterRole.SUBJECT)
        .exclude(scorecard__context=RoundContext.CALIBRATION)
    )
    if since is not None:
        scores = scores.filter(scorecard__submitted_at__gte=since)
    rows = scores.values("criterion__criterion_id", "rating").annotate(n=Count("pk"))
    titles = _latest_titles(set(criteria))
    found: dict[int, Distribution] = {
        lineage: Distribution(lineage, titles[lineage][0], {}, 0)
        for lineage in criteria
        if lineage in titles
    }
    for row in rows:
        dist = found[row["criterion__criterion_id"]]
        dist.counts[row["rating"]] = row["n"]
        dist.total += row["n"]
    return list(found.values())
