"""Reads of the learning loop: experiments, the learnings library and playbook modules.

Every experiment or learning a person opens comes through `access_*` (404 for what
they may not see: `visible_to` decides); lists have fixed query counts. The library
searches with PostgreSQL full-text search on PostgreSQL — written so that its
expression is the one of the `learning_search` GIN index (migration 0007) — and
with a plain `icontains` on every word elsewhere (SQLite)."""

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Count, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from coaching.models import (
    CoachingSession,
    Commitment,
    CommitmentStatus,
    FocusArea,
    GrowStep,
    Prompt,
    SessionParticipant,
)
from core.queries import any_of
from peers.models import PairMember, PeerPair
from people.models import Team, TeamMembership, User
from people.selectors import people_below

from . import rules
from .models import Experiment, Learning, LearningTag, PlaybookModule

LEARNINGS_PER_PAGE = 20
SEARCH_CONFIG = "english"
# How far back and ahead "link it to a session" offers sessions on the form.
SESSION_CHOICE_WINDOW = timedelta(days=60)


# --- Experiments ----------------------------------------------------------------------


def access_experiment(*, user: User, pk: int) -> Experiment:
    """The experiment with its owner and links — or 404 if `user` may not see it."""
    return get_object_or_404(
        Experiment.objects.visible_to(user).select_related(
            "owner", "focus_area", "session", "commitment", "pair"
        ),
        pk=pk,
    )


def access_own_experiment(*, user: User, pk: int) -> Experiment:
    """For a change: 404 for what `user` may not see, 403 for what they see but do
    not own (the owner runs their experiment; the others read it)."""
    experiment = access_experiment(user=user, pk=pk)
    if refusal := rules.why_not_change_experiment(user, experiment):
        raise PermissionDenied(refusal)
    return experiment


def experiment_prompts() -> list[Prompt]:
    """The prompt menu shown beside the experiment form (one query)."""
    return list(Prompt.objects.filter(step=GrowStep.EXPERIMENT, is_active=True))


def experiments_of(*, viewer: User, owner: User) -> QuerySet[Experiment]:
    """Someone's experiments as `viewer` may see them, newest first (one query)."""
    return Experiment.objects.visible_to(viewer).filter(owner=owner).select_related("focus_area")


def experiments_from_pairs(*, viewer: User) -> QuerySet[Experiment]:
    """Experiments my current pair partners linked to a pair we are both in (one
    query)."""
    mine = PairMember.objects.filter(person=viewer, left_at__isnull=True).values("pair")
    return (
        Experiment.objects.visible_to(viewer)
        .filter(pair__in=mine)
        .exclude(owner=viewer)
        .select_related("owner", "focus_area")
    )


def by_state(experiments) -> dict[str, list[Experiment]]:
    """Running first (what I am trying now), then planned, done and dropped."""
    groups: dict[str, list[Experiment]] = {s: [] for s in ("running", "planned", "done", "dropped")}
    for experiment in experiments:
        groups[experiment.status].append(experiment)
    return groups


def sessions_to_link(*, owner: User, kept: int | None = None) -> QuerySet[CoachingSession]:
    """Sessions `owner` takes part in, around now (an experiment is linked to the
    session it came out of, or the one it will be reviewed in), and `kept`, the one
    it already links to."""
    now = timezone.now()
    around = Q(
        scheduled_start__gte=now - SESSION_CHOICE_WINDOW,
        scheduled_start__lte=now + SESSION_CHOICE_WINDOW,
    )
    return (
        linkable_session(owner=owner)
        .filter(around | Q(pk=kept))
        .with_people()
        .order_by("-scheduled_start")
    )


def linkable_session(*, owner: User) -> QuerySet[CoachingSession]:
    """Any session `owner` took part in (the rule; the form offers recent ones)."""
    return CoachingSession.objects.filter(
        pk__in=SessionParticipant.objects.filter(person=owner).values("session")
    )


def commitments_to_link(*, owner: User) -> QuerySet[Commitment]:
    """Commitments `owner` may see: their own, those they wrote down, their people's."""
    return Commitment.objects.visible_to(owner).select_related("owner")


def commitments_to_offer(*, owner: User, kept: int | None = None) -> QuerySet[Commitment]:
    """The commitments the form offers to link: the open ones of the owner, that they
    wrote down or of their direct reports — all within `commitments_to_link`, which
    the API accepts in full — and `kept`, the one it already links to if still
    visible. The whole tree's would be every open commitment in the organisation for
    its head (9,000 options, 1.1 MB at 10,000 people); each part is read by its index
    (`any_of` for the reports), not by walking the tree."""
    reports = User.objects.filter(reports_to=owner).values("pk")
    near = Q(owner=owner) | Q(created_by=owner) | any_of("owner_id", reports)
    offered = near & Q(status=CommitmentStatus.OPEN)
    if kept is not None:
        offered |= Q(pk__in=commitments_to_link(owner=owner).filter(pk=kept).values("pk"))
    return Commitment.objects.filter(offered).select_related("owner")


def pairs_to_link(*, owner: User, kept: int | None = None) -> QuerySet[PeerPair]:
    """Live pairs `owner` is a current member of (and `kept`, the one it already
    links to), with their members."""
    member = PairMember.objects.filter(person=owner, left_at__isnull=True).values("pair")
    return (
        PeerPair.objects.filter(Q(pk__in=member, ended_at__isnull=True) | Q(pk=kept))
        .prefetch_related(Prefetch("members", queryset=PairMember.objects.select_related("person")))
        .order_by("-created_at", "-id")
    )


def focus_areas_for(*, person: User, kept: FocusArea | None = None) -> QuerySet[FocusArea]:
    """Current focus areas that apply to `person` (and `kept`, an ended one already
    chosen, which may stay)."""
    today = timezone.localdate(timezone=person.tzinfo)
    offered = Q(pk__in=FocusArea.objects.active_on(today).for_person(person).values("pk"))
    if kept is not None:
        offered |= Q(pk=kept.pk)
    return FocusArea.objects.filter(offered).order_by("name")


# --- The learnings library ------------------------------------------------------------


def my_teams(*, person: User, kept: int | None = None) -> QuerySet[Team]:
    """The teams someone may publish to: those they are currently on and those they
    lead (a lead shares with the team they run); and `kept`, one already chosen."""
    on = TeamMembership.objects.current().filter(person=person).values("team")
    return Team.objects.filter(Q(pk__in=on) | Q(lead=person) | Q(pk=kept)).order_by("name")


def access_learning(*, user: User, pk: int) -> Learning:
    return get_object_or_404(
        Learning.objects.visible_to(user)
        .select_related("author", "team", "focus_area", "experiment", "session")
        .prefetch_related("tags"),
        pk=pk,
    )


def access_own_learning(*, user: User, pk: int) -> Learning:
    """404 for what `user` may not see, 403 for someone else's learning."""
    learning = access_learning(user=user, pk=pk)
    if refusal := rules.why_not_change_learning(user, learning):
        raise PermissionDenied(refusal)
    return learning


def full_text_search_available() -> bool:
    """PostgreSQL searches with its full-text search; anything else (SQLite) with
    a plain case-insensitive match."""
    return connection.vendor == "postgresql"


@dataclass(frozen=True)
class LibraryFilters:
    q: str = ""
    tag: str = ""
    kind: str = ""
    focus_area: int | None = None
    team: int | None = None

    @property
    def any(self) -> bool:
        return bool(self.q or self.tag or self.kind or self.focus_area or self.team)


def _search_vector() -> SearchVector:
    """`to_tsvector('english', coalesce(title, '') || ' ' || coalesce(body, ''))` —
    the very expression of the `learning_search` index, so PostgreSQL can use it.
    (SearchVector coalesces text columns without a cast and joins with ' '.)"""
    return SearchVector("title", "body", config=SEARCH_CONFIG)


def _search_query(text: str) -> SearchQuery:
    # websearch: any text people type is a valid query ("quotes", -not, or).
    return SearchQuery(text, config=SEARCH_CONFIG, search_type="websearch")


def library(*, user: User, filters: LibraryFilters, use_fts: bool | None = None) -> QuerySet:
    """Learnings `user` may see that match the filters: ranked by relevance when
    searching on PostgreSQL, newest first otherwise. Tags are not loaded here (the
    page prefetches them for its rows only)."""
    if use_fts is None:
        use_fts = full_text_search_available()
    learnings = Learning.objects.visible_to(user).select_related("author", "team", "focus_area")
    if filters.tag:
        learnings = learnings.filter(tags__name=filters.tag)
    if filters.kind:
        learnings = learnings.filter(kind=filters.kind)
    if filters.focus_area:
        learnings = learnings.filter(focus_area_id=filters.focus_area)
    if filters.team:
        learnings = learnings.filter(team_id=filters.team)
    text = filters.q.strip()
    if not text:
        return learnings.order_by("-published_at", "-id")
    if use_fts:
        query = _search_query(text)
        return (
            learnings.annotate(search=_search_vector(), rank=SearchRank(_search_vector(), query))
            .filter(search=query)
            .order_by("-rank", "-published_at", "-id")
        )
    for word in text.split()[:10]:
        learnings = learnings.filter(Q(title__icontains=word) | Q(body__icontains=word))
    return learnings.order_by("-published_at", "-id")


def library_page(
    *, user: User, filters: LibraryFilters, page_number=1, use_fts: bool | None = None
) -> Page:
    """One page of `library` with each row's tags (three queries: count, rows, tags).
    A page past the end shows the last one."""
    paginator = Paginator(library(user=user, filters=filters, use_fts=use_fts), LEARNINGS_PER_PAGE)
    page = paginator.get_page(page_number)
    rows = list(page.object_list)
    tags = Learning.tags.through.objects.filter(
        learning_id__in=[r.pk for r in rows]
    ).select_related("learningtag")
    by_learning: dict[int, list[LearningTag]] = {}
    for link in tags:
        by_learning.setdefault(link.learning_id, []).append(link.learningtag)
    for row in rows:
        row.tag_list = sorted(by_learning.get(row.pk, []), key=lambda t: t.name)
    page.object_list = rows
    return page


def tag_counts(*, user: User) -> list[tuple[str, int]]:
    """Each tag with the number of learnings `user` may see that carry it, most used
    first (one query). Tags only on learnings they may not see do not appear."""
    visible = Learning.objects.visible_to(user).values("pk")
    rows = (
        Learning.tags.through.objects.filter(learning_id__in=visible)
        .values("learningtag__name")
        .annotate(n=Count("id"))
        .order_by("-n", "learningtag__name")
    )
    return [(r["learningtag__name"], r["n"]) for r in rows]


def library_choices(*, user: User) -> tuple[list[FocusArea], list[Team]]:
    """The focus areas and teams that learnings `user` may see are tagged with, for
    the filters (two queries)."""
    visible = Learning.objects.visible_to(user)
    areas = FocusArea.objects.filter(pk__in=visible.values("focus_area")).order_by("name")
    teams = Team.objects.filter(pk__in=visible.values("team")).order_by("name")
    return list(areas), list(teams)


def learnings_from_experiments(*, experiments) -> set[int]:
    """Which of these experiments a learning was already published from."""
    return set(
        Learning.objects.filter(experiment__in=[e.pk for e in experiments]).values_list(
            "experiment_id", flat=True
        )
    )


# --- Playbooks ------------------------------------------------------------------------


def playbook_modules(*, include_inactive: bool = False) -> QuerySet[PlaybookModule]:
    modules = PlaybookModule.objects.prefetch_related("teams").order_by("position", "name")
    return modules if include_inactive else modules.filter(is_active=True)


def teams_led_or_below(*, user: User) -> QuerySet[Team]:
    """Teams whose lead is `user` or someone below them: the teams whose playbook
    picks they make (one query when evaluated)."""
    below = people_below(person=user).values("pk")
    return Team.objects.filter(Q(lead=user) | Q(lead__in=below)).order_by("name")


def access_team_playbooks(*, user: User, pk: int) -> Team:
    """The team, for its lead and the people above the lead; 404 for everyone else."""
    return get_object_or_404(
        teams_led_or_below(user=user).select_related("lead").prefetch_related("playbook_modules"),
        pk=pk,
    )
