"""Reads with rules. Every session or commitment a person touches comes through
`access_*` (404 for what they may not see); lists have fixed query counts."""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property

from django.core.paginator import Page, Paginator
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    TextField,
    Value,
    When,
    prefetch_related_objects,
)
from django.db.models.functions import Coalesce
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from core.queries import any_of, in_order
from people.models import ReportingLine, TeamMembership, User
from people.selectors import has_active_reports, managers_above, people_below

from . import rules, signals, since_last
from .models import (
    AgendaItem,
    CoachingSession,
    Commitment,
    CommitmentStatus,
    FocusArea,
    Goal,
    GrowStep,
    ParticipantRole,
    PrivateNote,
    Prompt,
    SessionChange,
    SessionKind,
    SessionParticipant,
    SessionStatus,
    SharedNotes,
    participants_with_people,
)
from .selectors_goals import latest_notes_goal, newest_active_goal
from .selectors_notes import notes_shown, written_by


def access_session(*, user: User, pk: int) -> CoachingSession:
    """The session with its people, notes and team — or 404 if `user` may not see it."""
    return get_object_or_404(
        CoachingSession.objects.visible_to(user).with_people().select_related("notes"), pk=pk
    )


def move_slots(*, session: CoachingSession) -> list:
    """The free slots `session` (from `access_session`) could move to within its week,
    for everyone in it: whatever the apps to the right answer (cadence.availability,
    which knows working hours and closed days); none without them."""
    return [
        slot
        for _, slots in signals.move_slots_wanted.send(sender=CoachingSession, session=session)
        for slot in slots or []
    ]


def access_since_last(*, user: User, pk: int) -> "since_last.SinceLast":
    """What happened since the last 1:1, beside the 1:1 `pk` — 404 unless `user` may see
    the session and is its coach or coachee (the chain above reads the notes only)."""
    session = access_session(user=user, pk=pk)
    if not since_last.applies(session, rules.role_in(user, session)):
        raise Http404
    return since_last.for_session(session=session, viewer=user)


def access_commitment(*, user: User, pk: int) -> Commitment:
    return get_object_or_404(Commitment.objects.visible_to(user).select_related("owner"), pk=pk)


def access_goal(*, user: User, pk: int) -> Goal:
    return get_object_or_404(
        Goal.objects.visible_to(user).select_related("owner", "focus_area"), pk=pk
    )


def access_agenda_item(*, user: User, pk: int) -> AgendaItem:
    visible = CoachingSession.objects.visible_to(user)
    item = get_object_or_404(AgendaItem.objects.filter(session__in=visible), pk=pk)
    # the rules need the session's participants
    item.session = access_session(user=user, pk=item.session_id)
    return item


def prompt_bank() -> list[tuple[str, str, list[Prompt]]]:
    """The whole question bank, retired questions too, for programme admins: (label,
    step, prompts) in GROW order, each step's in the order sessions show them (one
    query)."""
    grouped: dict[str, list[Prompt]] = {step: [] for step in GrowStep.values}
    for prompt in Prompt.objects.order_by("step", "position", "pk"):
        grouped.get(prompt.step, []).append(prompt)
    return [(GrowStep(step).label, step, prompts) for step, prompts in grouped.items()]


def prompts_for(kind: str) -> dict[str, list[Prompt]]:
    """The question bank for a kind of session, grouped by GROW step (one query)."""
    grouped: dict[str, list[Prompt]] = {step: [] for step in GrowStep.values}
    for prompt in Prompt.objects.filter(is_active=True).filter(Q(kind="") | Q(kind=kind)):
        grouped[prompt.step].append(prompt)
    return grouped


def carried_commitments(
    *, session: CoachingSession, viewer: User, closed_here_since: datetime | None = None
) -> list[Commitment]:
    """Open commitments of the session's coachee made before this session — shown on
    every session until closed, whoever the coach is now. With `closed_here_since`,
    also those closed in this session since then (what Undo may still reopen), in
    the same query."""
    coachee = session.coachee
    if coachee is None or not rules.carries_commitments(session):
        return []
    still = Q(status=CommitmentStatus.OPEN)
    if closed_here_since is not None:
        still |= Q(closed_in=session, closed_at__gte=closed_here_since)
    return list(
        Commitment.objects.visible_to(viewer)
        .filter(still)
        .filter(owner=coachee)
        .filter(
            Q(created_in__scheduled_start__lt=session.scheduled_start)
            | Q(created_in__isnull=True, created_at__lt=session.scheduled_end)
        )
        .exclude(created_in=session)
        .select_related("created_in")
        .order_by("due_on", "pk")
    )


def open_commitments_seen_by(
    pairs: Iterable[tuple[User, int]], *, limit: int = 10
) -> dict[tuple[int, int], list[Commitment]]:
    """For each (viewer, owner id) pair, the owner's open commitments the viewer may
    see, soonest due first, at most `limit`: what
    `Commitment.objects.visible_to(viewer).open().filter(owner=owner)` gives, for any
    number of pairs in at most two queries — the owners' open commitments, and the
    owners' management chains (`managers_above`, the mirror of `people_below`). The
    rule is `visible_to`'s: the owner, whoever wrote it down, and the owner's
    management chain, and nothing for an inactive viewer
    (tests/coaching/test_commitments_seen_by.py holds the two equal). The outbox's
    "session tomorrow" reminders read them for a whole claim at once."""
    pairs = [(viewer, owner) for viewer, owner in pairs if viewer is not None]
    seen: dict[tuple[int, int], list[Commitment]] = {
        (viewer.pk, owner): [] for viewer, owner in pairs
    }
    pairs = [(v, o) for v, o in pairs if v.is_authenticated and v.is_active]
    if not pairs:
        return seen
    mine: dict[int, list[Commitment]] = defaultdict(list)
    for commitment in (
        Commitment.objects.open()
        .filter(owner_id__in={owner for _, owner in pairs})
        .order_by("due_on", "pk")
    ):
        mine[commitment.owner_id].append(commitment)
    above = managers_above(people={o for v, o in pairs if v.pk != o and mine[o]})
    for viewer, owner in pairs:
        chain = viewer.pk == owner or viewer.pk in above.get(owner, ())
        seen[(viewer.pk, owner)] = [
            c for c in mine[owner] if chain or c.created_by_id == viewer.pk
        ][:limit]
    return seen


class SessionPage:
    """Everything the session page shows, each part read the first time it is asked
    for: an htmx save (the notes, the agenda, a commitment) renders its own part
    alone and reads nothing else, while the whole page reads each part once, in a
    fixed number of queries."""

    def __init__(self, *, session: CoachingSession, user: User):
        self.session = session
        self.viewer_role = rules.role_in(user, session)
        self.may_run = rules.may_run(user, session)
        # Before its day a session can be prepared, moved or cancelled, not held; on its
        # day, before its start, it can be logged held as "met earlier".
        now = timezone.now()
        self.may_log_held = rules.may_log_held(user, session, now)
        self.logs_early = self.may_log_held and session.scheduled_start > now
        self.may_edit = rules.may_edit_notes(user, session)
        self._user = user

    @cached_property
    def changes(self) -> list[SessionChange]:
        return session_changes(session=self.session)

    @cached_property
    def notes(self) -> SharedNotes:
        """As shown: with the coachee's current goal carried in while not held."""
        return notes_shown(self.session)

    @cached_property
    def written(self) -> dict[str, dict]:
        """Per field, who wrote it last and when (the people are loaded already)."""
        return written_by(self.session, self.notes)

    @cached_property
    def agenda(self) -> list[AgendaItem]:
        return list(self.session.agenda.select_related("author"))

    @cached_property
    def commitments_made(self) -> list[Commitment]:
        return list(
            Commitment.objects.visible_to(self._user)
            .filter(created_in=self.session)
            .select_related("owner")
            .order_by("due_on", "pk")
        )

    @cached_property
    def carried_listed(self) -> list[Commitment]:
        """The carried commitments, and those closed here a moment ago, still offered
        an Undo in their place."""
        since = timezone.now() - rules.UNDO_CLOSE
        return carried_commitments(session=self.session, viewer=self._user, closed_here_since=since)

    @cached_property
    def carried(self) -> list[Commitment]:
        return [c for c in self.carried_listed if c.status == CommitmentStatus.OPEN]

    @cached_property
    def private_note(self) -> PrivateNote | None:
        return PrivateNote.objects.visible_to(self._user).filter(session=self.session).first()

    @cached_property
    def prompts(self) -> dict[str, list[Prompt]]:
        return prompts_for(self.session.kind)

    @cached_property
    def others(self) -> list[User]:
        """Everyone in the session but the reader (a 1:1 has one other, a call review
        many): whom the private notes are kept from, by name where there is one."""
        return [p.person for p in self.session.participants.all() if p.person_id != self._user.pk]

    @cached_property
    def speaking_order(self) -> list[SessionParticipant]:
        return list(self.session.participants.all())

    @cached_property
    def coachee_quality(self) -> "CoachingQuality | None":
        """A manager review: how the reviewed manager's own 1:1s went in the 8 weeks
        before it."""
        session = self.session
        if session.kind != SessionKind.MANAGER_REVIEW or not session.coachee:
            return None
        return coaching_quality(
            coach=session.coachee,
            since=session.scheduled_start - timedelta(weeks=8),
            until=session.scheduled_start,
        )

    @cached_property
    def since_last(self) -> "since_last.SinceLast | None":
        """A 1:1, for its coach and coachee: the last 1:1, calls and feedback since."""
        if not since_last.applies(self.session, self.viewer_role):
            return None
        return since_last.for_session(session=self.session, viewer=self._user)


def session_changes(*, session: CoachingSession) -> list[SessionChange]:
    """Who moved or cancelled a session `session` (already read through its rules),
    from when to when, oldest first; the cancel note is for those who may see the
    session, like the rest of it. No query for a session never changed."""
    if not session.sequence:
        return []
    return list(session.changes.select_related("actor"))


def changes_prefetch() -> Prefetch:
    """Sessions' changes with who made them, for a list (one query a page)."""
    return Prefetch("changes", queryset=SessionChange.objects.select_related("actor"))


def session_page(*, user: User, pk: int) -> SessionPage:
    """The session page of a session `user` may see (404 otherwise)."""
    return SessionPage(session=access_session(user=user, pk=pk), user=user)


def sessions_of(*, person: User) -> QuerySet[CoachingSession]:
    """Sessions `person` takes part in, with people loaded. Their ids are read by the
    participants' person index first (`any_of`): as a join, "my latest 30" let
    PostgreSQL walk every session newest first betting to meet mine soon, and for
    someone in few sessions (the head) it read 600,000 (`/sessions/`; bench/routes.py)."""
    mine = SessionParticipant.objects.filter(person=person).values("session_id")
    return CoachingSession.objects.filter(any_of("pk", mine)).with_people()


def upcoming_and_recent(
    *, person: User, upcoming: int, recent: int
) -> tuple[list[CoachingSession], list[CoachingSession]]:
    """The next `upcoming` sessions of `person` still to log (from two hours ago),
    soonest first, and the latest `recent` that have begun or been resolved, newest
    first — their people read in one prefetch for both lists (three queries)."""
    soon = list(_upcoming(person).prefetch_related(None)[:upcoming])
    past = list(_recent(person).prefetch_related(None)[:recent])
    prefetch_related_objects([*soon, *past], participants_with_people())
    return soon, past


def upcoming_and_past_page(
    *, person: User, upcoming: int, page: int, per_page: int
) -> tuple[list[CoachingSession], Page]:
    """For "My sessions": one page of the sessions begun or resolved, newest first
    (past the last page, the last), and on the first page the next `upcoming` still to
    log — with those cancelled ahead in their place, said cancelled, so a cancelled
    1:1 does not vanish from where it was. Each carries `coachee_prepared_at` (for the
    coach's "prepared"), `viewer_role` and `week_label`. Their people in one prefetch
    for both (four queries; three on later pages)."""
    now = timezone.now()
    past = Paginator(
        _recent(person)
        .exclude(status=SessionStatus.CANCELLED, scheduled_start__gte=now)
        .prefetch_related(None),
        per_page,
    ).get_page(page)
    past.object_list = list(past.object_list)
    soon = []
    if past.number == 1:
        ahead = (
            sessions_of(person=person)
            .filter(
                Q(status=SessionStatus.SCHEDULED, scheduled_start__gte=now - timedelta(hours=2))
                | Q(status=SessionStatus.CANCELLED, scheduled_start__gte=now)
            )
            .annotate(coachee_prepared_at=F("notes__coachee_prepared_at"))
            .order_by("scheduled_start", "pk")
        )
        soon = list(ahead.prefetch_related(None)[:upcoming])
    prefetch_related_objects([*soon, *past.object_list], participants_with_people())
    today = timezone.localdate()
    for s in [*soon, *past.object_list]:
        s.viewer_role = next(
            (p.role for p in s.participants.all() if p.person_id == person.pk), None
        )
        s.week_label = week_label(timezone.localtime(s.scheduled_start).date(), today=today)
    return soon, past


def week_label(day, *, today) -> str:
    """The week `day` falls in, as a list heads it: "This week", "Next week", "Last
    week", or "Week of 14 Dec" (weeks start on Monday)."""
    monday = day - timedelta(days=day.weekday())
    weeks = (monday - (today - timedelta(days=today.weekday()))).days // 7
    named = {0: "This week", 1: "Next week", -1: "Last week"}
    if weeks in named:
        return named[weeks]
    year = "" if monday.year == today.year else f" {monday.year}"
    return f"Week of {monday.day} {monday:%b}{year}"


def _upcoming(person: User) -> QuerySet[CoachingSession]:
    return (
        sessions_of(person=person)
        .filter(
            status=SessionStatus.SCHEDULED,
            scheduled_start__gte=timezone.now() - timedelta(hours=2),
        )
        .order_by("scheduled_start")
    )


def _recent(person: User) -> QuerySet[CoachingSession]:
    return (
        sessions_of(person=person)
        .exclude(status=SessionStatus.SCHEDULED, scheduled_start__gte=timezone.now())
        .order_by("-scheduled_start")
    )


def coaching_history(*, viewer: User, person: User) -> QuerySet[CoachingSession]:
    """Every session where `person` was coached or presented, under any manager, that
    `viewer` may see, newest first — so a new manager can read back through the
    history (two years of weekly 1:1s and call reviews: a few hundred; page it). The
    rule in its list shape: the person's few hundred sessions are the narrow side, so
    from far above each is checked, rather than gathering the million the head of
    10,000 people may see (their page of a rep's history; bench/routes.py)."""
    return (
        CoachingSession.objects.visible_for_lists(viewer)
        .filter(
            participants__person=person,
            participants__role__in=[
                ParticipantRole.COACHEE,
                ParticipantRole.PRESENTER,
                ParticipantRole.PARTICIPANT,
            ],
        )
        .with_people()
        .select_related("notes")
        .order_by("-scheduled_start", "-pk")
    )


def goals_of(*, viewer: User, owner: User) -> QuerySet[Goal]:
    """Someone's development goals as `viewer` may see them: active first, newest
    first, with their focus areas (one query)."""
    return (
        Goal.objects.visible_to(viewer)
        .filter(owner=owner)
        .select_related("focus_area")
        .active_first()
    )


def commitments_of(*, viewer: User, owner: User) -> QuerySet[Commitment]:
    """`owner`'s commitments as `viewer` may see them: the open ones first, soonest due
    first (what is still to do), then the kept and dropped ones, latest due first."""
    is_open = Q(status=CommitmentStatus.OPEN)
    return (
        Commitment.objects.visible_to(viewer)
        .filter(owner=owner)
        .select_related("created_in", "owner")
        .order_by(
            Case(When(is_open, then=Value(0)), default=Value(1)),
            Case(When(is_open, then=F("due_on"))).asc(),
            F("due_on").desc(),
            "-pk",
        )
    )


def just_closed(*, viewer: User, raw: str | None) -> tuple[Commitment | None, str | None]:
    """The commitment named by the commitments page's `?closed=` (just closed there),
    if `viewer` may see it and it is closed; or the message for a bad value."""
    if raw in (None, ""):
        return None, None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 18:
        return None, "closed= takes the number of the commitment just closed."
    closed = (
        Commitment.objects.visible_to(viewer)
        .exclude(status=CommitmentStatus.OPEN)
        .select_related("owner")
        .filter(pk=int(raw))
        .first()
    )
    return closed, None


def commitments_for_manager(*, manager: User, page: int, per_page: int) -> Page:
    """A page of the open commitments of everyone below `manager`, soonest due first
    (past the last page, the last). Three queries — the count, the page's ids, its rows
    with their owner and session: joined before the cut, the planner read every open
    commitment below the head of 10,000 people (8,654) with its joins for a page of 50
    (measured by bench/routes.py)."""
    listed = (
        Commitment.objects.open()
        .filter(owner__in=people_below(person=manager).values("pk"))
        .order_by("due_on", "pk")
    )
    found = Paginator(listed.values_list("pk", flat=True), per_page).get_page(page)
    rows = Commitment.objects.select_related("owner", "created_in")
    found.object_list = in_order(rows, list(found.object_list))
    return found


# --- My people (manager home) ---------------------------------------------------------


def _coachee_one_on_ones(person_ref) -> QuerySet[SessionParticipant]:
    """A person's 1:1s as coachee, as their participant rows: these carry the
    session's time, so "the next" and "the last" are the first rows of a range of
    `participant_by_person_time`, not a probe of every 1:1 they ever had."""
    return SessionParticipant.objects.filter(
        person=person_ref, role=ParticipantRole.COACHEE, session__kind=SessionKind.ONE_ON_ONE
    )


def people_overview(*, manager: User) -> list[User]:
    """Direct reports, each annotated with next 1:1 start, last held 1:1, number of
    open commitments, current goal, since when they report to `manager`, and whether
    they have active reports of their own
    (managers, whose own people's dashboard is a page of its own); teams prefetched.
    Four queries, whatever the number of people."""
    now = timezone.now()
    person = OuterRef("pk")
    upcoming = (
        _coachee_one_on_ones(person)
        .filter(session__status=SessionStatus.SCHEDULED, scheduled_start__gte=now)
        .order_by("scheduled_start", "session_id")
    )
    # When the last held 1:1 took place (not when someone got round to logging it).
    last_held = (
        _coachee_one_on_ones(person)
        .filter(session__status=SessionStatus.HELD)
        .order_by("-scheduled_start")
        .values("scheduled_start")[:1]
    )
    open_count = (
        Commitment.objects.open()
        .filter(owner=person)
        .values("owner")
        .annotate(n=Count("pk"))
        .values("n")
    )
    overdue_count = (
        Commitment.objects.open()
        .filter(owner=person, due_on__lt=timezone.localdate())
        .values("owner")
        .annotate(n=Count("pk"))
        .values("n")
    )
    goal = Coalesce(
        Subquery(newest_active_goal(person).values("title")[:1]),
        Subquery(latest_notes_goal(person).values("session__notes__goal")[:1]),
        output_field=TextField(),
    )
    return list(
        User.objects.filter(reports_to=manager, is_active=True)
        .annotate(
            next_session_start=Subquery(upcoming.values("scheduled_start")[:1]),
            next_session_id=Subquery(upcoming.values("session_id")[:1]),
            last_held_at=Subquery(last_held),
            open_commitments=Coalesce(Subquery(open_count, output_field=IntegerField()), 0),
            overdue_commitments=Coalesce(Subquery(overdue_count, output_field=IntegerField()), 0),
            goal=goal,
            has_reports=has_active_reports(),
            # Since when they report to this manager: someone new is not yet overdue.
            reports_since=Subquery(
                ReportingLine.objects.filter(report=person, ended_at__isnull=True)
                .order_by("-started_at")
                .values("started_at")[:1]
            ),
        )
        .prefetch_related(
            Prefetch(
                "memberships",
                queryset=TeamMembership.objects.current().select_related("team"),
                to_attr="current_memberships",
            ),
            "led_teams",
        )
        .order_by("display_name")
    )


# --- Coaching quality (manager review page, health metrics) ---------------------------


@dataclass(frozen=True)
class CoachingQuality:
    due: int
    held: int
    missed: int
    cancelled: int
    held_but_empty: int
    commitments_made: int
    commitments_done: int
    commitments_closed: int

    @property
    def adherence(self) -> float | None:
        return self.held / self.due if self.due else None

    @property
    def held_but_empty_share(self) -> float | None:
        return self.held_but_empty / self.held if self.held else None

    @property
    def close_rate(self) -> float | None:
        """Done ÷ made, over commitments made in the window."""
        return self.commitments_done / self.commitments_made if self.commitments_made else None


def coaching_quality(*, coach: User, since: datetime, until: datetime) -> CoachingQuality:
    """How a coach's own 1:1s went in a window: two aggregate queries."""
    sessions = CoachingSession.objects.filter(
        kind=SessionKind.ONE_ON_ONE,
        scheduled_start__gte=since,
        scheduled_start__lt=until,
        participants__person=coach,
        participants__role=ParticipantRole.COACH,
    )
    counts = sessions.aggregate(
        # Due: every session whose time has come, cancelled ones included — a
        # cancelled 1:1 is a 1:1 that did not happen.
        due=Count("pk", filter=Q(scheduled_start__lt=timezone.now())),
        held=Count("pk", filter=Q(status=SessionStatus.HELD)),
        missed=Count("pk", filter=Q(status=SessionStatus.MISSED)),
        cancelled=Count("pk", filter=Q(status=SessionStatus.CANCELLED)),
        held_but_empty=Count("pk", filter=Q(status=SessionStatus.HELD, held_but_empty=True)),
    )
    commitments = Commitment.objects.filter(created_in__in=sessions.values("pk")).aggregate(
        made=Count("pk"),
        done=Count("pk", filter=Q(status=CommitmentStatus.DONE)),
        closed=Count("pk", filter=~Q(status=CommitmentStatus.OPEN)),
    )
    return CoachingQuality(
        due=counts["due"],
        held=counts["held"],
        missed=counts["missed"],
        cancelled=counts["cancelled"],
        held_but_empty=counts["held_but_empty"],
        commitments_made=commitments["made"],
        commitments_done=commitments["done"],
        commitments_closed=commitments["closed"],
    )


def commitment_close_rates(*, owners=None, coaches=None, since=None, until=None) -> dict:
    """Close rate (done ÷ made) per coachee or per coach over commitments made in the
    window, one grouped query. Returns {person_id: (done, made)}."""
    qs = Commitment.objects.all()
    if since is not None:
        qs = qs.filter(created_at__gte=since)
    if until is not None:
        qs = qs.filter(created_at__lt=until)
    if coaches is not None:
        coach_role = SessionParticipant.objects.filter(
            session=OuterRef("created_in"), role=ParticipantRole.COACH
        )
        rows = (
            qs.filter(Exists(coach_role.filter(person__in=coaches)))
            .annotate(coach_id=Subquery(coach_role.values("person")[:1]))
            .values("coach_id")
            .annotate(made=Count("pk"), done=Count("pk", filter=Q(status=CommitmentStatus.DONE)))
        )
        return {r["coach_id"]: (r["done"], r["made"]) for r in rows}
    if owners is not None:
        qs = qs.filter(owner__in=owners)
    rows = qs.values("owner_id").annotate(
        made=Count("pk"), done=Count("pk", filter=Q(status=CommitmentStatus.DONE))
    )
    return {r["owner_id"]: (r["done"], r["made"]) for r in rows}


# A coachee's own close rate looks back as far as the dashboards do by default.
CLOSE_RATE_WEEKS = 8


@dataclass(frozen=True)
class CloseRate:
    """A person's commitments made in [since, until), and how many of them are done."""

    weeks: int
    since: datetime
    until: datetime
    made: int
    done: int

    @property
    def rate(self) -> float | None:
        return self.done / self.made if self.made else None


def close_rate_of(*, person: User, now: datetime | None = None) -> CloseRate:
    """`person`'s close rate over the last CLOSE_RATE_WEEKS weeks, counted as
    `commitment_close_rates` counts it per coachee (one query). Only for whoever may
    see their commitments — themselves and the people above them: callers pass a
    person from `access_person`."""
    until = now or timezone.now()
    since = until - timedelta(weeks=CLOSE_RATE_WEEKS)
    rates = commitment_close_rates(owners=[person.pk], since=since, until=until)
    done, made = rates.get(person.pk, (0, 0))
    return CloseRate(weeks=CLOSE_RATE_WEEKS, since=since, until=until, made=made, done=done)


def focus_areas_for_choice() -> QuerySet[FocusArea]:
    return FocusArea.objects.active_on(timezone.localdate())
