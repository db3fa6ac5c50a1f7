"""Reads with rules. Every scorecard read goes through `Scorecard.objects.visible_to`
(the reveal rule); a round is opened with `access_round` (404 for everyone it does not
concern). Trends and distributions are aggregated in the database."""

from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import date, datetime
from statistics import median

from django.db.models import (
    Avg,
    Count,
    Exists,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.db.models.functions import Coalesce, TruncMonth
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
    scoring_over,
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
    """Your calls, those of people below you, and the calls of rounds you may see (a
    colleague asked to score one, a calibrating rater). One query."""
    from people.selectors import people_below

    if not (user and user.is_authenticated and user.is_active):
        return RecordedCall.objects.none()
    return RecordedCall.objects.filter(
        Q(person=user)
        | Q(person__in=people_below(person=user).values("pk"))
        | Q(pk__in=ScoringRound.objects.visible_to(user).values("work_id"))
    )


def calls_of(person: User, *, viewer: User) -> QuerySet[RecordedCall]:
    """`person`'s calls that `viewer` may see (`calls_visible_to`): all of them when they
    are the viewer's own or a direct report's — the rule's first two parts, read
    without building the rest (a walk down the reporting lines and four kinds of round:
    more Python than a 1:1's page spends) — else through the whole rule."""
    if viewer.is_active and viewer.pk in (person.pk, person.reports_to_id):
        return RecordedCall.objects.filter(person=person)
    return calls_visible_to(viewer).filter(person=person)


def calls_for_lists(user: User, below: list[int] | None = None) -> QuerySet[RecordedCall]:
    """`calls_visible_to(user)` — the same calls — for lists read newest first a page
    at a time. Below LARGE_SCOPE_FROM people below, the ids are gathered first from
    indexes (mine, those of the people below me, those of rounds I may see): as the
    rule's OR, PostgreSQL walked `call_newest_first` through every call in the
    organisation to find a rep's 29 (bench/routes.py). From
    LARGE_SCOPE_FROM people below, gathering the ids first gathers most of the
    organisation's calls (133,000 for its head); each call is checked
    instead, so a page walks `call_newest_first`. A round about my call or one below
    me is about a call already in the list, so of the rounds only those I opened or
    was asked to score add calls. `below`: the ids below `user`, when the page has
    read them already (`list_ids_below`)."""
    from core.queries import one_of
    from people.selectors import LARGE_SCOPE_FROM, list_ids_below

    if not (user and user.is_authenticated and user.is_active):
        return RecordedCall.objects.none()
    if below is None:
        below = list_ids_below(person=user)
    if len(below) < LARGE_SCOPE_FROM:
        calls = RecordedCall.objects.order_by()
        ids = (
            calls.filter(person=user)
            .values("pk")
            .union(
                calls.filter(one_of("person_id", below)).values("pk"),
                ScoringRound.objects.visible_to(user).order_by().values("work_id"),
            )
        )
        return RecordedCall.objects.filter(pk__in=ids)
    in_round = ScoringRound.objects.filter(work=OuterRef("pk")).filter(
        Q(created_by=user) | Exists(RoundRater.objects.filter(round=OuterRef("pk"), person=user))
    )
    return RecordedCall.objects.filter(
        Q(person=user) | one_of("person_id", below) | Exists(in_round)
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
    gap: float | None = None  # self-assessment minus the others' median


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
    # Someone else has scored, and the viewer sees it only once they have: a rater
    # not done yet (the coach too) …
    hidden_until_i_score: bool = False
    # … or someone who is no rater here (the subject's management chain) while
    # anyone is still scoring (`scorecards.models.scoring_over`).
    hidden_until_everyone_scored: bool = False
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
        hidden_until_everyone_scored=viewer_rater is None
        and not scoring.is_closed
        and scoring.context != RoundContext.CALIBRATION  # its organiser waits for the close
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
            gap = ratings[subject_card.rater_id].rating - median(others)
            row.gap = int(gap) if gap == int(gap) else gap  # a half point with two others
        rows.append(row)
    return rows


# --- Lists -----------------------------------------------------------------------------------


def rounds_for(*, user: User, below: list[int] | None = None) -> QuerySet[ScoringRound]:
    """Rounds that concern me, newest first, with what the list shows (`below`: as for
    `calls_for_lists`)."""
    return (
        ScoringRound.objects.visible_for_lists(user, below=below)
        .select_related("work__person", "version__template")
        # Counted per round shown, not grouped: a GROUP BY over the joined raters and
        # scorecards of every visible round came before the page was cut.
        .annotate(
            raters_count=_count(RoundRater.objects.filter(round=OuterRef("pk"))),
            submitted_count=_count(
                Scorecard.objects.filter(round=OuterRef("pk"), submitted_at__isnull=False)
            ),
        )
        .order_by("-created_at", "-id")
    )


def _count(rows: QuerySet, per: str = "round") -> Coalesce:
    """How many `rows` (filtered on `per`=OuterRef("pk")) each row shown has, as a
    subquery: counted for the rows of the page only, not grouped over every visible
    row before the page is cut."""
    counted = rows.order_by().values(per).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def waiting_on(*, user: User) -> QuerySet[ScoringRound]:
    """Open rounds where I am a rater and have neither submitted nor declined."""
    # Exists, not exclude(scorecards__rater=…, scorecards__submitted_at…): across a
    # multi-valued relation exclude() need not match both on the same scorecard, and
    # a draft of mine next to anyone's submitted one would hide the round.
    mine_submitted = Scorecard.objects.filter(
        round=OuterRef("pk"), rater=user, submitted_at__isnull=False
    )
    return (
        ScoringRound.objects.open()
        .filter(raters__person=user, raters__declined_at__isnull=True)
        .exclude(Exists(mine_submitted))
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
    *,
    viewer: User,
    person: User,
    since: datetime | None = None,
    criteria: list[int] | None = None,
) -> list[CriterionTrend]:
    """Per criterion lineage and month: the others' mean and the self-assessment mean
    (two aggregate queries plus one for the titles, whatever the number of scores, and
    for someone else's trend one walk up from `person`: `counted_in_trends`).
    Only the scorecards `viewer` may see count (the reveal rule, as a subquery): a
    subject's own trend does not move with a coach's scores before they scored or
    declined. Calibrations are left out: they measure raters, not the person. With
    `since`, each trend also says how much the others' mean moved after that moment."""
    scores = _scores_seen(viewer=viewer, person=person)
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
        changes = _changes(scores, windows={None: (since, criteria)})
        for (_, lineage), change in changes.items():
            trends[lineage].change_since = change
    return sorted(trends.values(), key=lambda t: (t.template, t.title))


def _scores_seen(*, viewer: User, person: User) -> QuerySet[Score]:
    """The scores about `person` on the submitted scorecards `viewer` may see, the
    calibrations aside."""
    cards = Scorecard.objects.counted_in_trends(viewer, [person])
    return Score.objects.filter(scorecard__in=cards.values("pk"))


def trend_changes(
    *, viewer: User, person: User, windows: dict[Hashable, tuple[datetime, list[int] | None]]
) -> dict[tuple[Hashable, int], float]:
    """How much the others' mean moved after a moment, per criterion lineage, for
    several windows at once: `windows` maps a key (a focus area) to its start and
    its lineages (None: all). Returns {(key, lineage): after − before} where both
    exist. One aggregate query, whatever the number of windows (and the walk up from
    `person` that `counted_in_trends` may take)."""
    if not windows:
        return {}
    return _changes(_scores_seen(viewer=viewer, person=person), windows=windows)


def _changes(
    seen: QuerySet[Score], *, windows: dict[Hashable, tuple[datetime, list[int] | None]]
) -> dict[tuple[Hashable, int], float]:
    """`trend_changes` over the scores `_scores_seen` gave."""
    keys = list(windows)
    others = seen.filter(~Q(scorecard__rater_role=RaterRole.SUBJECT))
    if all(lineages is not None for _, lineages in windows.values()):
        wanted = {pk for _, lineages in windows.values() for pk in lineages}
        others = others.filter(criterion__criterion_id__in=wanted)
    annotations = {}
    for n, key in enumerate(keys):
        since, lineages = windows[key]
        scope = Q() if lineages is None else Q(criterion__criterion_id__in=lineages)
        annotations[f"before_{n}"] = Avg(
            "rating", filter=scope & Q(scorecard__submitted_at__lt=since)
        )
        annotations[f"after_{n}"] = Avg(
            "rating", filter=scope & Q(scorecard__submitted_at__gte=since)
        )
    changes = {}
    for row in others.values("criterion__criterion_id").annotate(**annotations):
        for n, key in enumerate(keys):
            before, after = row[f"before_{n}"], row[f"after_{n}"]
            if before is not None and after is not None:
                changes[(key, row["criterion__criterion_id"])] = round(float(after - before), 2)
    return changes


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
    return team_distribution_windows(people=people, windows={None: (since, criteria)})[None]


def team_distribution_windows(
    *,
    people: QuerySet[User] | list[int],
    windows: dict[Hashable, tuple[datetime | None, list[int]]],
) -> dict[Hashable, list[Distribution]]:
    """`team_distribution` for several windows at once: `windows` maps a key (a focus
    area) to its start (None: all time) and its lineages. One aggregate query plus
    one for the titles, whatever the number of windows. Only rounds whose scoring is
    over count: a rater still scoring must not see the others' scores move a bar."""
    keys = list(windows)
    wanted = {pk for _, lineages in windows.values() for pk in lineages}
    scores = (
        Score.objects.filter(
            scorecard__subject__in=people,
            scorecard__submitted_at__isnull=False,
            criterion__criterion_id__in=wanted,
        )
        .exclude(scorecard__rater_role=RaterRole.SUBJECT)
        .exclude(scorecard__context=RoundContext.CALIBRATION)
        .filter(scoring_over("scorecard__round"))
    )
    starts = [since for since, _ in windows.values()]
    if starts and None not in starts:
        scores = scores.filter(scorecard__submitted_at__gte=min(s for s in starts if s))
    counts = {}
    for n, key in enumerate(keys):
        since, lineages = windows[key]
        scope = Q(criterion__criterion_id__in=lineages)
        if since is not None:
            scope &= Q(scorecard__submitted_at__gte=since)
        counts[f"n_{n}"] = Count("pk", filter=scope)
    rows = scores.values("criterion__criterion_id", "rating").annotate(**counts) if keys else []
    titles = _latest_titles(wanted)
    found: dict[Hashable, dict[int, Distribution]] = {
        key: {
            lineage: Distribution(lineage, titles[lineage][0], {}, 0)
            for lineage in lineages
            if lineage in titles
        }
        for key, (_, lineages) in windows.items()
    }
    for row in rows:
        for n, key in enumerate(keys):
            dist = found[key].get(row["criterion__criterion_id"])
            if dist is not None and row[f"n_{n}"]:
                dist.counts[row["rating"]] = row[f"n_{n}"]
                dist.total += row[f"n_{n}"]
    return {key: list(dists.values()) for key, dists in found.items()}


# --- Pages ------------------------------------------------------------------------------------


def access_call(*, user: User, pk: int) -> RecordedCall:
    try:
        return calls_visible_to(user).select_related("person").get(pk=pk)
    except RecordedCall.DoesNotExist:
        raise Http404 from None


def _calls_with_rounds(
    *, user: User, mine: bool, below: list[int] | None = None
) -> QuerySet[RecordedCall]:
    """My calls, or the others I may see (those of the people below me, and of rounds
    I opened or score), each with how many rounds score it (one query; two for the
    others)."""
    if mine:
        calls = (
            RecordedCall.objects.filter(person=user)
            if user.is_active
            else RecordedCall.objects.none()
        )
    else:
        calls = calls_for_lists(user, below).exclude(person=user)
    return calls.select_related("person").annotate(
        rounds_count=_count(ScoringRound.objects.filter(work=OuterRef("pk")), per="work")
    )


def calls_newest_first(
    *, user: User, mine: bool, below: list[int] | None = None
) -> QuerySet[RecordedCall]:
    """`_calls_with_rounds`, the newest call first (the scorecards home, the calls page)."""
    return _calls_with_rounds(user=user, mine=mine, below=below).order_by("-call_date", "-pk")


def rounds_of_call(*, user: User, call: RecordedCall) -> QuerySet[ScoringRound]:
    return rounds_for(user=user).filter(work=call)


def templates_with_current(*, include_retired: bool = False) -> list[Template]:
    """The library: each template with `current` (its newest version, criteria in
    order). Three queries, whatever the number of templates."""
    chosen = Template.objects.all() if include_retired else offered_templates()
    templates = list(
        chosen.order_by("name").prefetch_related(
            Prefetch(
                "versions",
                queryset=TemplateVersion.objects.order_by("-number").prefetch_related(
                    Prefetch("criteria", queryset=CriterionVersion.objects.order_by("position"))
                ),
            )
        )
    )
    for template in templates:
        versions = template.versions.all()
        template.current = versions[0] if versions else None
    return templates


# --- Monthly averages for many people --------------------------------------------------------


@dataclass
class MonthlyAverage:
    """One person's scores on a set of criteria in one month: the others' mean and the
    self-assessment mean over every score on those criteria (not a mean of means)."""

    month: date
    others: float | None
    self: float | None
    others_count: int
    self_count: int

    @property
    def gap(self) -> float | None:
        """Self minus others, where both exist."""
        if self.others is None or self.self is None:
            return None
        return round(self.self - self.others, 2)


@dataclass
class PersonMonthly:
    months: list[MonthlyAverage]  # oldest first; only the months with scores
    scale_max: int  # the widest scale among the criteria scored


def monthly_averages(
    *, viewer: User, criteria: dict[int, list[int]], since: datetime
) -> dict[int, PersonMonthly]:
    """For many people at once, per month since `since`: the mean of the others' scores
    and of the self-assessments on that person's criterion lineages (`criteria` maps a
    person id to them). Only the scorecards `viewer` may see count (the reveal rule),
    calibrations aside, as in `person_trends`. One aggregate query, whatever the
    number of people, criteria or months (and the walk up from them that
    `counted_in_trends` takes); people without scores are left out."""
    wanted = {pk for lineages in criteria.values() for pk in lineages}
    if not wanted:
        return {}
    # Grouped from the scorecards, joined to their scores, rather than scores filtered
    # by `scorecard IN (the visible scorecards)`: as a subquery the reveal rule's
    # correlated EXISTS were resolved a second time (a rep's own trend 9.2 → 6.8 ms).
    is_self = Q(rater_role=RaterRole.SUBJECT)
    rows = (
        Scorecard.objects.counted_in_trends(viewer, list(criteria))
        .filter(submitted_at__gte=since, scores__criterion__criterion_id__in=wanted)
        .annotate(month=TruncMonth("submitted_at"))
        .values("subject_id", "scores__criterion__criterion_id", "month")
        .annotate(
            others_sum=Sum("scores__rating", filter=~is_self),
            others_n=Count("scores", filter=~is_self),
            self_sum=Sum("scores__rating", filter=is_self),
            self_n=Count("scores", filter=is_self),
            top=Max("scores__criterion__scale_max"),
        )
        .order_by()
    )
    sums: dict[int, dict[date, list[int]]] = {}
    scales: dict[int, int] = {}
    for row in rows:
        person = row["subject_id"]
        if row["scores__criterion__criterion_id"] not in criteria[person]:
            continue  # someone else's focus criterion
        month = row["month"].date() if isinstance(row["month"], datetime) else row["month"]
        total = sums.setdefault(person, {}).setdefault(month, [0, 0, 0, 0])
        total[0] += row["others_sum"] or 0
        total[1] += row["others_n"]
        total[2] += row["self_sum"] or 0
        total[3] += row["self_n"]
        scales[person] = max(scales.get(person, 0), row["top"])
    return {
        person: PersonMonthly(
            [
                MonthlyAverage(
                    month,
                    _round(o_sum / o_n) if o_n else None,
                    _round(s_sum / s_n) if s_n else None,
                    o_n,
                    s_n,
                )
                for month, (o_sum, o_n, s_sum, s_n) in sorted(by_month.items())
            ],
            scales[person],
        )
        for person, by_month in sums.items()
    }
