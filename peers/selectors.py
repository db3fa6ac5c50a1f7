"""Reads about peer pairs that carry rules: who may form a pair and with whom, a
pair for someone who may see it (404 otherwise), the pages' lists with fixed query
counts, and the scorecard averages that help pick complementary or similar people.

Visibility itself is decided by the models' `visible_to`: the pair for its members
and whoever formed it; notes, habits and check-ins for its members only."""

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.core.paginator import Page, Paginator
from django.db.models import (
    Avg,
    Case,
    Count,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    When,
)
from django.db.models.functions import TruncMonth
from django.http import Http404
from django.utils import timezone

from coaching.models import (
    CoachingSession,
    FocusArea,
    SessionKind,
    SessionParticipant,
    SessionStatus,
)
from core.paging import StateChoice
from people.models import User
from people.roles import Role
from people.selectors import roles_of
from scorecards.models import RaterRole, RoundContext, Score, Scorecard

from .models import Habit, HabitCheckIn, PairMember, PairNote, PeerPair, PeerRequest, within_reach

# Check-ins shown under each habit on the pair page and in the API.
RECENT_CHECK_INS = 5
# Sessions offered when checking a habit in: the latest of the pair's, up to tomorrow.
CHECK_IN_SESSIONS = 6


WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def cadence_text(pair: PeerPair) -> str:
    """“Every 2 weeks on Tuesday at 10:00 (Europe/Berlin), 30 minutes”."""
    every = "Every week" if pair.interval_weeks == 1 else f"Every {pair.interval_weeks} weeks"
    return (
        f"{every} on {WEEKDAY_NAMES[pair.weekday]} at {pair.local_time:%H:%M} "
        f"({pair.time_zone}), {pair.duration_minutes} minutes"
    )


# --- Who forms pairs ---------------------------------------------------------------------


# --- Who asked for a peer --------------------------------------------------------------------


def peer_requests_for(*, user: User, roles=None) -> QuerySet[PeerRequest]:
    """The open requests of the people `user` may pair (not their own), who asked
    first first, with the person and the focus area (one query)."""
    return (
        PeerRequest.objects.visible_to(user, roles)
        .exclude(person=user)
        .filter(person__is_active=True)
        .select_related("person", "focus_area")
    )


def own_peer_request(*, user: User) -> PeerRequest | None:
    """`user`'s own open request for a peer, with its focus area (one query)."""
    return PeerRequest.objects.filter(person=user).select_related("focus_area").first()


def peer_requests_of(people: list[int]) -> dict[int, PeerRequest]:
    """{person id: their open request} among `people` (one query)."""
    return {r.person_id: r for r in PeerRequest.objects.filter(person_id__in=people)}


def is_programme_admin(user: User, roles=None) -> bool:
    return Role.PROGRAMME_ADMIN in (roles if roles is not None else roles_of(user))


def formable_people(*, user: User, roles=None) -> QuerySet[User]:
    """The active people `user` may pair, by name (one query when evaluated)."""
    people = within_reach(user=user, roles=roles).filter(is_active=True)
    return people.order_by("display_name", "pk")


# --- Pairs -----------------------------------------------------------------------------------


def _members_prefetch() -> Prefetch:
    return Prefetch("members", queryset=PairMember.objects.select_related("person").order_by("pk"))


def _with_next_session(pairs: QuerySet[PeerPair], *, viewer: User, now: datetime | None = None):
    """Annotate each pair with its next scheduled session (id and start) in the same
    query: the soonest of its cadence plans' (`Occurrence.plan.pair`) and, for a member,
    of the peer sessions they booked with its members between themselves — the next
    one their own session list shows. Whoever else reads the pair sees only the plans'
    (peer sessions stay with the peers)."""
    now = now or timezone.now()
    upcoming = CoachingSession.objects.filter(
        status=SessionStatus.SCHEDULED, scheduled_start__gte=now
    ).order_by("scheduled_start", "pk")
    # Two subqueries, each read by its own index, not one OR across them: as an OR,
    # PostgreSQL walked every scheduled session ahead for each pair (a member's
    # /peers/ at 10,000 people; bench/routes.py).
    planned = upcoming.filter(occurrence__plan__pair=OuterRef("pk"))
    member_now = PairMember.objects.filter(
        pair=OuterRef(OuterRef(OuterRef("pk"))), person=OuterRef("person"), left_at__isnull=True
    )
    outsider = SessionParticipant.objects.filter(session=OuterRef("pk")).exclude(Exists(member_now))
    booked = upcoming.filter(
        kind=SessionKind.PEER,
        pk__in=SessionParticipant.objects.filter(person=viewer).values("session_id"),
    ).exclude(Exists(outsider))
    pairs = pairs.annotate(
        planned_id=Subquery(planned.values("pk")[:1]),
        planned_start=Subquery(planned.values("scheduled_start")[:1]),
        booked_id=Subquery(booked.values("pk")[:1]),
        booked_start=Subquery(booked.values("scheduled_start")[:1]),
    )
    booked_first = Q(booked_start__isnull=False) & (
        Q(planned_start__isnull=True) | Q(booked_start__lt=F("planned_start"))
    )
    return pairs.annotate(
        next_session_id=Case(When(booked_first, then=F("booked_id")), default=F("planned_id")),
        next_session_start=Case(
            When(booked_first, then=F("booked_start")), default=F("planned_start")
        ),
    )


def pairs_for(*, user: User) -> QuerySet[PeerPair]:
    """The pairs `user` may see, each with its members and next session (two queries
    when evaluated, whatever the number of pairs)."""
    return _with_next_session(
        PeerPair.objects.visible_to(user)
        .select_related("focus_area", "created_by")
        .prefetch_related(_members_prefetch()),
        viewer=user,
    )


def invitations_for(*, user: User) -> QuerySet[PeerPair]:
    """Pairs of mine still waiting for my answer (invited, not accepted, declined or
    left; the pair not ended), oldest first, with who formed them (one query)."""
    invited = PairMember.objects.filter(
        pair=OuterRef("pk"), person=user, accepted_at__isnull=True, left_at__isnull=True
    )
    return (
        PeerPair.objects.filter(Exists(invited), ended_at__isnull=True)
        .select_related("created_by")
        .order_by("created_at", "pk")
    )


def access_pair(*, user: User, pk: int) -> PeerPair:
    """A pair `user` may see, with its members. Else 404."""
    try:
        return pairs_for(user=user).get(pk=pk)
    except PeerPair.DoesNotExist:
        raise Http404 from None


def member_of(pair: PeerPair, user: User) -> PairMember | None:
    """`user`'s membership of the pair (current or past), from the prefetched members."""
    for member in pair.members.all():
        if member.person_id == user.pk:
            return member
    return None


def member_state(member: PairMember, pair: PeerPair) -> str:
    """invited / accepted / declined / left — what anyone who sees the pair may know
    (never the reason someone gave)."""
    if member.left_at is not None:
        declined = pair.started_at is None or member.left_at < pair.started_at
        return "declined" if declined else "left"
    return "accepted" if member.accepted_at else "invited"


@dataclass
class MyPairs:
    waiting: list[PeerPair] = field(default_factory=list)  # my answer is needed
    forming: list[PeerPair] = field(default_factory=list)
    active: list[PeerPair] = field(default_factory=list)
    ended: list[PeerPair] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.waiting) + len(self.forming) + len(self.active) + len(self.ended)


def my_pairs(*, user: User) -> MyPairs:
    """/peers/: the pairs I am in or formed, by status; the ones waiting for my
    acceptance first."""
    found = MyPairs()
    for pair in pairs_for(user=user):
        mine = member_of(pair, user)
        pair.my_state = member_state(mine, pair) if mine else None
        pair.states = [(m, member_state(m, pair)) for m in pair.members.all()]
        pair.cadence_text = cadence_text(pair)
        if pair.status == "forming" and pair.my_state == "invited":
            found.waiting.append(pair)
        else:
            getattr(found, pair.status).append(pair)
    return found


def overview_queryset() -> QuerySet[PeerPair]:
    """Every pair for programme admins, with who formed it and its members (two
    queries when evaluated). Notes, habits and check-ins are not read."""
    return PeerPair.objects.select_related("focus_area", "created_by").prefetch_related(
        _members_prefetch()
    )


# All pairs, for programme admins: a page at a time, in one state or all.
PAIRS_PER_PAGE = 25
PAIR_STATES = {
    "": ("All", Q()),
    "forming": ("Forming", Q(started_at__isnull=True, ended_at__isnull=True)),
    "active": ("Active", Q(started_at__isnull=False, ended_at__isnull=True)),
    "ended": ("Ended", Q(ended_at__isnull=False)),
}


def overview_choices(show: str) -> list[StateChoice]:
    """Each state with how many pairs are in it (one query)."""
    counts = PeerPair.objects.aggregate(
        **{key or "all": Count("pk", filter=rule) for key, (_, rule) in PAIR_STATES.items()}
    )
    return [
        StateChoice(key, label, counts[key or "all"], key == show)
        for key, (label, _) in PAIR_STATES.items()
    ]


def pairs_overview(*, show: str = "", page_number: int = 1) -> Page:
    """A page of the pairs in one state (`show`, a key of PAIR_STATES), newest first,
    for programme admins: status, who formed it, members with the reasons people gave
    for leaving (three queries: the count, the pairs, their members). A page past
    the end shows the last one."""
    pairs = overview_queryset().filter(PAIR_STATES[show][1])
    page = Paginator(pairs, PAIRS_PER_PAGE).get_page(page_number)
    page.object_list = list(page.object_list)
    for pair in page.object_list:
        pair.states = [(m, member_state(m, pair)) for m in pair.members.all()]
        pair.cadence_text = cadence_text(pair)
    return page


# --- The pair page -------------------------------------------------------------------------


def notes_of(*, pair: PeerPair, user: User) -> QuerySet[PairNote]:
    return PairNote.objects.visible_to(user).filter(pair=pair).select_related("author")


def habits_of(*, user: User, pair: PeerPair | None = None) -> QuerySet[Habit]:
    """Habits `user` may see (of one pair), each with its recent check-ins (two
    queries when evaluated)."""
    habits = Habit.objects.visible_to(user)
    if pair is not None:
        habits = habits.filter(pair=pair)
    recent = HabitCheckIn.objects.select_related("checked_by").order_by("-checked_on", "-id")
    return habits.select_related("owner").prefetch_related(
        Prefetch("check_ins", queryset=recent[:RECENT_CHECK_INS], to_attr="recent_check_ins")
    )


def check_ins_of(*, habit: Habit) -> QuerySet[HabitCheckIn]:
    return habit.check_ins.select_related("checked_by").order_by("-checked_on", "-id")


def access_habit(*, user: User, pk: int) -> Habit:
    try:
        return Habit.objects.visible_to(user).select_related("pair", "owner").get(pk=pk)
    except Habit.DoesNotExist:
        raise Http404 from None


def pair_sessions(*, pair: PeerPair) -> QuerySet[CoachingSession]:
    """Every session of the pair's plans (a trio that lost a member has had two)."""
    return CoachingSession.objects.filter(occurrence__plan__pair=pair)


def _check_in_sessions(*, pair: PeerPair, user: User) -> list[CoachingSession]:
    """The pair's sessions `user` was in, latest first, up to a day ahead: the ones a
    check-in can belong to."""
    soon = timezone.now() + timedelta(days=1)
    return list(
        pair_sessions(pair=pair)
        .filter(participants__person=user, scheduled_start__lte=soon)
        .exclude(status=SessionStatus.CANCELLED)
        .order_by("-scheduled_start", "-pk")[:CHECK_IN_SESSIONS]
    )


@dataclass
class HabitsOf:
    member: PairMember
    habits: list[Habit]


@dataclass
class PairPage:
    pair: PeerPair
    cadence: str
    me: PairMember | None
    states: list[tuple[PairMember, str]]
    active_members: int
    is_member: bool  # a current member: writes notes, keeps habits, checks in
    was_member: bool  # reads what the pair wrote while they were in it
    live: bool  # not ended; who may end it is `rules.may_end_pair`
    agreement_open: bool  # nobody accepted yet; who may adjust it is `rules.may_edit_agreement`
    notes: list[PairNote]
    habits: list[HabitsOf]
    sessions: list[CoachingSession]


def pair_page(*, user: User, pair: PeerPair) -> PairPage:
    """Everything on the pair page for `user` (a fixed number of queries). Whoever
    formed the pair sees its members, agreement and cadence; only members read the
    notes, habits and check-ins."""
    me = member_of(pair, user)
    is_member = me is not None and me.left_at is None and pair.ended_at is None
    live = pair.ended_at is None
    notes, habits, sessions = [], [], []
    if me is not None:
        notes = list(notes_of(pair=pair, user=user))
        by_owner: dict[int, list[Habit]] = {}
        for habit in habits_of(user=user, pair=pair):
            by_owner.setdefault(habit.owner_id, []).append(habit)
        habits = [
            HabitsOf(m, by_owner.get(m.person_id, []))
            for m in pair.members.all()
            if m.left_at is None or m.person_id in by_owner
        ]
        if is_member:
            sessions = _check_in_sessions(pair=pair, user=user)
    return PairPage(
        pair=pair,
        cadence=cadence_text(pair),
        me=me,
        states=[(m, member_state(m, pair)) for m in pair.members.all()],
        active_members=sum(1 for m in pair.members.all() if m.left_at is None),
        is_member=is_member,
        was_member=me is not None,
        live=live,
        agreement_open=live
        and pair.started_at is None
        and not any(m.accepted_at for m in pair.members.all()),
        notes=notes,
        habits=habits,
        sessions=sessions,
    )


# --- Pairing suggestions -------------------------------------------------------------------


@dataclass(frozen=True)
class FocusScore:
    """A person's coaches'-and-peers' average on a focus area's criteria, in the
    latest month with scores, and the month before (if scored then)."""

    month: date
    average: float
    count: int
    previous: float | None

    @property
    def change(self) -> float | None:
        return None if self.previous is None else round(self.average - self.previous, 1)


def focus_scores(
    *, viewer: User, focus_area: FocusArea | None, people: list[int]
) -> dict[int, FocusScore]:
    """{person id: FocusScore} for the people `viewer` may see scores of — the same
    reveal rule as skill trends (a programme admin sees none: aggregates only). One
    aggregate query, whatever the number of people; nothing is stored."""
    if focus_area is None or not people:
        return {}
    cards = (
        Scorecard.objects.visible_to(viewer)
        .filter(subject_id__in=people, submitted_at__isnull=False)
        .exclude(context=RoundContext.CALIBRATION)
        .exclude(rater_role=RaterRole.SUBJECT)
    )
    monthly = (
        Score.objects.filter(
            scorecard__in=cards.values("pk"),
            criterion__criterion_id__in=focus_area.criteria.values("pk"),
        )
        .annotate(month=TruncMonth("scorecard__submitted_at"))
        .values("scorecard__subject_id", "month")
        .annotate(average=Avg("rating"), count=Count("pk"))
        .order_by("scorecard__subject_id", "month")
    )
    months: dict[int, list[dict]] = {}
    for row in monthly:
        months.setdefault(row["scorecard__subject_id"], []).append(row)
    scores = {}
    for person, rows in months.items():
        last = rows[-1]
        before = rows[-2]["average"] if len(rows) > 1 else None
        month = last["month"].date() if isinstance(last["month"], datetime) else last["month"]
        scores[person] = FocusScore(
            month=month,
            average=round(float(last["average"]), 1),
            count=last["count"],
            previous=None if before is None else round(float(before), 1),
        )
    return scores


def current_focus_areas() -> QuerySet[FocusArea]:
    return FocusArea.objects.active_on(timezone.localdate()).order_by("name")


def current_focus_area(raw) -> FocusArea | None:
    """The current focus area a form or query string names (`?focus_area=`), or None
    for anything else."""
    raw = str(raw or "")
    return current_focus_areas().filter(pk=int(raw)).first() if raw.isdigit() else None
