"""The beat-driven part of the cadence: materialise occurrences, sweep missed
sessions, escalate repeated misses, queue reminders and digests.

Everything here is idempotent and safe to run twice or concurrently: occurrences are
unique per (plan, slot) and generated under a lock on the plans; the sweep is one
conditional UPDATE; notifications are unique per (session, kind, recipient) or
(kind, recipient, period) and inserted with ON CONFLICT DO NOTHING."""

import io
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from itertools import cycle
from typing import NamedTuple
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from coaching.models import (
    RUNNING_ROLES,
    CoachingSession,
    FocusArea,
    ParticipantRole,
    SessionKind,
    SessionParticipant,
    SessionStatus,
    SharedNotes,
)
from notifications.models import Notification, NotificationKind, NotificationStatus, TeamChannel
from peers.models import PairMember
from people.models import Team, TeamMembership, User

from . import withdrawals
from .models import CadencePlan, Closure, Occurrence
from .recurrence import Rule, next_slot, slots

BATCH = 500
# Sessions for a team's members, drafted from the team as it is at each run.
TEAM_KINDS = (SessionKind.TEAM_CALL_REVIEW, SessionKind.ROLE_PLAY)
# A plan's `generated_until` is the first slot past the horizon: every slot before it
# has been made (or deliberately skipped), so a plan is due again only when that slot
# comes within the horizon — once a week for a weekly plan, not every hour. Looked for
# this far past the horizon, more than any rule's gap between two slots (8 weeks at
# most); a plan with none that close is due again when the horizon reaches the end.
NEXT_SLOT_WITHIN = timedelta(weeks=9)


def _batches(ids: list[int], size: int = BATCH):
    for i in range(0, len(ids), size):
        yield ids[i : i + size]


# --- Occurrences ----------------------------------------------------------------------


def occurrences_generate(
    *,
    now: datetime | None = None,
    plan_ids: list[int] | None = None,
    id_range: tuple[int, int] | None = None,
) -> int:
    """Materialise sessions for every live, unpaused plan up to now + horizon — or
    only those in `plan_ids`, or with an id in `id_range` (first, last). Returns how
    many were created."""
    now = now or timezone.now()
    horizon = now + timedelta(weeks=settings.CADENCE_HORIZON_WEEKS)
    due = _due(horizon)
    if plan_ids is not None:
        due = due.filter(pk__in=plan_ids)
    if id_range is not None:
        due = due.filter(pk__range=id_range)
    created = 0
    for chunk in _batches(list(due.order_by("pk").values_list("pk", flat=True))):
        created += _generate_batch(chunk, now=now, horizon=horizon)
    return created


def occurrences_due_ranges(
    parts: int, *, split_from: int = 0, now: datetime | None = None
) -> list[tuple[int, int]]:
    """The plans due for generation as at most `parts` id ranges (first, last) with
    about as many plans each — one range when fewer than `split_from` are due, none
    when none are. For generators side by side: every batch locks its plans in id
    order, so disjoint ranges never wait for each other."""
    now = now or timezone.now()
    ids = list(
        _due(now + timedelta(weeks=settings.CADENCE_HORIZON_WEEKS))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if not ids:
        return []
    if len(ids) < split_from:
        parts = 1
    size = -(-len(ids) // max(parts, 1))  # ceiling
    return [(ids[i], ids[min(i + size, len(ids)) - 1]) for i in range(0, len(ids), size)]


def _due(horizon: datetime):
    return (
        CadencePlan.objects.live()
        .filter(paused=False)
        .filter(Q(generated_until__isnull=True) | Q(generated_until__lt=horizon))
    )


@transaction.atomic
def _generate_batch(ids: list[int], *, now: datetime, horizon: datetime) -> int:
    # Lock the plans (in id order, so two generators never deadlock): a second
    # generator waits here and then sees what the first one made.
    plans = list(
        CadencePlan.objects.select_for_update(of=("self",))
        .filter(pk__in=ids, ended_at__isnull=True, paused=False)
        # The coach's zone dates a role-play's focus area: the zone alone, not 500
        # people built as model instances; looked up by key for each plan, as a join
        # made PostgreSQL hash every person in the organisation for each batch
        # (measured by bench/generate.py).
        .annotate(
            coach_time_zone=Subquery(
                User.objects.filter(pk=OuterRef("coach_id")).values("time_zone")
            )
        )
        .order_by("pk")
    )
    if not plans:
        return 0
    existing = set(  # unordered: Occurrence's default ordering would join the plans
        Occurrence.objects.filter(plan_id__in=[plan.id for plan in plans], slot_start__gte=now)
        .order_by()
        .values_list("plan_id", "slot_start")
    )
    context = _BatchContext(plans, now=now, horizon=horizon)
    drafts: list[_Draft] = []
    for plan in plans:
        rule = Rule.of(plan)
        start = max(now, plan.generated_until or now)
        for slot in slots(rule, start, horizon):
            if (plan.id, slot) in existing or context.closed(plan, slot):
                continue
            draft = context.draft(plan, slot)
            if draft is not None:
                drafts.append(draft)
        after = next_slot(rule, max(start, horizon), NEXT_SLOT_WITHIN)
        plan.generated_until = after or max(start, horizon) + NEXT_SLOT_WITHIN
    if drafts:
        if COPY_ROWS and connection.vendor == "postgresql":
            _insert_copy(drafts)
        else:
            _insert_orm(drafts)
    _save_generated_until(plans)
    return len(drafts)


def _save_generated_until(plans: list[CadencePlan]) -> None:
    """Each plan's own `generated_until` in one UPDATE … FROM (VALUES …): per plan a
    statement would be 500 of them, and bulk_update's CASE costs more Python than the
    first run's drafting (bench/generate.py)."""
    q = connection.ops.quote_name
    table = q(CadencePlan._meta.db_table)
    column = q(CadencePlan._meta.get_field("generated_until").column)
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {column} = v.column2"
            f" FROM (VALUES {', '.join(['(%s, %s)'] * len(plans))}) AS v"
            f" WHERE {table}.{q('id')} = v.column1"
            # The batch's id range: without it the join read every plan in the table.
            f" AND {table}.{q('id')} BETWEEN %s AND %s",
            [value for p in plans for value in (p.pk, adapt(p.generated_until))]
            + [min(p.pk for p in plans), max(p.pk for p in plans)],
        )


class _Draft(NamedTuple):
    """One slot's session as plain values: what both ways of writing rows read."""

    plan_id: int
    slot: datetime
    kind: str
    end: datetime
    duration_minutes: int
    team_id: int | None
    focus_area_id: int | None
    people: list[tuple[int, str]]  # (person id, role) in speaking order


# PostgreSQL writes a batch's rows with COPY (bench/generate.py: 1.5 million rows for
# 50,000 plans); the ORM path below writes the same rows and serves SQLite. Tests set
# this to False to compare the two on PostgreSQL.
COPY_ROWS = True


def _insert_orm(drafts: list[_Draft]) -> None:
    sessions = CoachingSession.objects.bulk_create(
        CoachingSession(
            kind=d.kind,
            scheduled_start=d.slot,
            original_start=d.slot,
            scheduled_end=d.end,
            duration_minutes=d.duration_minutes,
            team_id=d.team_id,
            focus_area_id=d.focus_area_id,
        )
        for d in drafts
    )
    # Rows by id, not by related object: cheaper for the hundreds of thousands of
    # rows a first run makes (bench/generate.py).
    SessionParticipant.objects.bulk_create(
        SessionParticipant(
            session_id=s.pk,
            person_id=person_id,
            role=role,
            speaking_order=order,
            scheduled_start=d.slot,
        )
        for s, d in zip(sessions, drafts, strict=True)
        for order, (person_id, role) in enumerate(d.people)
    )
    SharedNotes.objects.bulk_create(SharedNotes(session_id=s.pk) for s in sessions)
    Occurrence.objects.bulk_create(
        Occurrence(plan_id=d.plan_id, slot_start=d.slot, session_id=s.pk)
        for s, d in zip(sessions, drafts, strict=True)
    )


def _insert_copy(drafts: list[_Draft]) -> None:
    """The rows `_insert_orm` writes, as four COPYs: no model instances, no SQL
    parameters. Session ids come first from the table's sequence, so participants,
    notes and occurrences can name them (ascending, in draft order, as bulk_create
    assigns them). Where it may, it writes them without the per-row foreign-key
    triggers, having locked what they reference itself (`_references_locked`)."""
    text = _CopyText()
    with connection.cursor() as cursor:
        unchecked = _references_locked(cursor, drafts)
        if unchecked:
            cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "SELECT nextval(%s::regclass) FROM generate_series(1, %s)",
            [_session_id_sequence(cursor), len(drafts)],
        )
        ids = sorted(row[0] for row in cursor.fetchall())
        rows = list(zip(ids, drafts, strict=True))
        _copy(
            cursor,
            CoachingSession,
            ("id", "kind", "scheduled_start", "original_start", "scheduled_end")
            + ("duration_minutes", "team_id", "focus_area_id"),
            (
                f"{pk}\t{text(d.kind)}\t{text(d.slot)}\t{text(d.slot)}\t{text(d.end)}"
                f"\t{d.duration_minutes}\t{text(d.team_id)}\t{text(d.focus_area_id)}"
                for pk, d in rows
            ),
        )
        _copy(
            cursor,
            SessionParticipant,
            ("session_id", "person_id", "role", "speaking_order", "scheduled_start"),
            (
                f"{pk}\t{person_id}\t{text(role)}\t{order}\t{text(d.slot)}"
                for pk, d in rows
                for order, (person_id, role) in enumerate(d.people)
            ),
        )
        _copy(cursor, SharedNotes, ("session_id",), (str(pk) for pk in ids))
        _copy(
            cursor,
            Occurrence,
            ("plan_id", "slot_start", "session_id"),
            (f"{d.plan_id}\t{text(d.slot)}\t{pk}" for pk, d in rows),
        )
        if unchecked:
            cursor.execute("SET LOCAL session_replication_role = DEFAULT")


def _session_id_sequence(cursor) -> str:
    """The sessions' id sequence by name, looked up once per batch: named inside
    nextval() it was looked up for every id, eight times the cost of the ids."""
    cursor.execute(
        "SELECT pg_get_serial_sequence(%s, 'id')",
        [connection.ops.quote_name(CoachingSession._meta.db_table)],
    )
    return cursor.fetchone()[0]


# Whether a batch's COPYs may skip the foreign-key triggers when the database role
# is allowed to (tests turn it off to compare both ways).
COPY_WITHOUT_FK_TRIGGERS = True


def _references_locked(cursor, drafts: list[_Draft]) -> bool:
    """Lock every row a batch's new rows reference, set-based, as its foreign-key
    triggers would one row at a time — True if they may then be skipped.

    The triggers are most of a first generation's cost in PostgreSQL (bench/
    generate.py measures it: 2.5 million checks at commit for 50,000 plans), yet
    each checks a row this transaction already holds or names: sessions it inserts
    (participants, notes, occurrences), plans it locked FOR UPDATE (occurrences),
    and the people, teams and focus areas it drafted from. Those last three are
    locked here FOR KEY SHARE — what each trigger takes — in one statement per
    table, so none can be deleted (or its key changed) before the batch commits;
    the generated sessions' other references are empty. If any is already gone, or
    the role may not set `session_replication_role` (a superuser, or on PostgreSQL
    15+ `GRANT SET ON PARAMETER session_replication_role`), the triggers run as
    ever and refuse the batch at commit as they always did."""
    if not COPY_WITHOUT_FK_TRIGGERS or not _may_skip_triggers(cursor):
        return False
    q = connection.ops.quote_name
    referenced = (
        (User, {person_id for d in drafts for person_id, _ in d.people}),
        (Team, {d.team_id for d in drafts if d.team_id is not None}),
        (FocusArea, {d.focus_area_id for d in drafts if d.focus_area_id is not None}),
    )
    for model, ids in referenced:
        if not ids:
            continue
        cursor.execute(
            f"SELECT count(*) FROM (SELECT 1 FROM {q(model._meta.db_table)}"
            " WHERE id = ANY(%s) FOR KEY SHARE) AS locked",
            [sorted(ids)],
        )
        if cursor.fetchone()[0] != len(ids):
            return False
    return True


def _may_skip_triggers(cursor) -> bool:
    may_set = "current_setting('is_superuser') = 'on'"
    if connection.pg_version >= 150000:
        may_set += " OR has_parameter_privilege('session_replication_role', 'SET')"
    cursor.execute(f"SELECT {may_set}")
    return cursor.fetchone()[0]


class _CopyText(dict):
    """A value in COPY's text format, remembered: a batch repeats a few kinds, roles,
    teams and slot times thousands of times. (Ids, strings and datetimes only: as a
    dictionary key True is 1.)"""

    def __call__(self, value) -> str:
        try:
            return self[value]
        except KeyError:
            self[value] = formatted = _copy_text(value)
            return formatted


def _copy_text(value) -> str:
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, datetime):
        return value.isoformat()
    return (
        str(value)
        .replace("\\", "\\\\")
        .replace("\n", "\\n")
        .replace("\r", "\\r")
        .replace("\t", "\\t")
    )


def _copy(cursor, model, columns: tuple[str, ...], lines) -> None:
    """COPY rows of `model`: each line holds `columns` (attnames, in COPY's text
    format); every other column but the id gets its field's default, as the ORM
    would save it."""
    q = connection.ops.quote_name
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    fields = [f for f in by_attname.values() if f.attname not in columns and not f.primary_key]
    tail = "".join(
        "\t" + _copy_text(f.get_db_prep_save(f.get_default(), connection)) for f in fields
    )
    names = ", ".join(q(f.column) for f in [*(by_attname[c] for c in columns), *fields])
    data = io.StringIO("".join(f"{line}{tail}\n" for line in lines))
    cursor.copy_expert(f"COPY {q(model._meta.db_table)} ({names}) FROM STDIN", data)


class _BatchContext:
    """What drafting sessions needs beyond the plan, loaded once per batch — as ids,
    not model instances: a first run drafts 250,000 sessions from 40,000 memberships
    (bench/generate.py)."""

    def __init__(self, plans: list[CadencePlan], *, now: datetime, horizon: datetime):
        # Only team sessions are for the team's members (most plans are 1:1s).
        team_ids = {p.team_id for p in plans if p.team_id and p.kind in TEAM_KINDS}
        self.members: dict[int, list[int]] = defaultdict(list)
        memberships = list(
            TeamMembership.objects.current()
            .filter(team_id__in=team_ids)
            .order_by()
            .values_list("team_id", "person_id")
        )
        # Members in name order, their names read by key apart from the memberships:
        # joined, PostgreSQL hashed every person in the organisation for a batch's
        # few hundred (measured by bench/generate.py).
        by_name = User.objects.filter(
            pk__in={person_id for _, person_id in memberships}, is_active=True
        ).order_by("display_name", "pk")
        rank = {pk: i for i, pk in enumerate(by_name.values_list("pk", flat=True))}
        for team_id, person_id in sorted(
            (m for m in memberships if m[1] in rank), key=lambda m: rank[m[1]]
        ):
            self.members[team_id].append(person_id)
        # A pair's sessions are for its current members (two or three).
        self.pair_members: dict[int, list[int]] = defaultdict(list)
        for pair_id, person_id in (
            PairMember.objects.filter(
                pair_id__in={p.pair_id for p in plans if p.pair_id},
                left_at__isnull=True,
                person__is_active=True,
            )
            .order_by("pk")
            .values_list("pair_id", "person_id")
        ):
            self.pair_members[pair_id].append(person_id)
        self.others: dict[int, list[int]] = {}  # per team plan, its members but the coach
        self.hosts = self._host_rotations(plans)
        self.fixed_people: dict[int, list[tuple[int, str]] | None] = {}
        # Days the programme is closed, as dates: a slot on one (in its plan's zone)
        # gets no session. Closures read a day either side of the window, whose ends
        # are UTC's days.
        self.closed_days = {
            closure.first_day + timedelta(days=i)
            for closure in Closure.objects.filter(
                last_day__gte=now.date() - timedelta(days=1),
                first_day__lte=horizon.date() + timedelta(days=1),
            )
            for i in range((closure.last_day - closure.first_day).days + 1)
        }
        self.focus_areas = list(
            FocusArea.objects.filter(starts_on__lte=horizon.date())
            .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=now.date()))
            .prefetch_related("teams")
            .order_by("-starts_on", "pk")
        )

    def closed(self, plan: CadencePlan, slot: datetime) -> bool:
        return bool(self.closed_days) and (
            slot.astimezone(ZoneInfo(plan.time_zone)).date() in self.closed_days
        )

    def members_but_coach(self, plan: CadencePlan) -> list[int]:
        if plan.id not in self.others:
            self.others[plan.id] = [pk for pk in self.members[plan.team_id] if pk != plan.coach_id]
        return self.others[plan.id]

    def _host_rotations(self, plans):
        """Per team, an endless rotation of hosts starting after the last one."""
        reviews = [p for p in plans if p.kind == SessionKind.TEAM_CALL_REVIEW]
        last = _last_hosts([p.team_id for p in reviews])
        rotations = {}
        for plan in reviews:
            hosts = self.members_but_coach(plan)
            if not hosts:
                continue
            start = hosts.index(last[plan.team_id]) + 1 if last.get(plan.team_id) in hosts else 0
            rotations[plan.team_id] = cycle(hosts[start:] + hosts[:start])
        return rotations

    def focus_area_for(self, plan: CadencePlan, day) -> FocusArea | None:
        for area in self.focus_areas:
            if area.starts_on <= day and (area.ends_on is None or area.ends_on >= day):
                teams = {t.pk for t in area.teams.all()}
                if not teams or plan.team_id in teams:
                    return area
        return None

    def draft(self, plan: CadencePlan, slot: datetime) -> "_Draft | None":
        """One slot's session and its participants, or None when the slot cannot be
        held (a role-play with no focus area, a team with nobody on it)."""
        focus_area_id = None
        if plan.kind not in TEAM_KINDS:
            if plan.id not in self.fixed_people:
                self.fixed_people[plan.id] = self._people_of(plan)
            people = self.fixed_people[plan.id]
            if people is None:
                return None
        else:
            members = self.members_but_coach(plan)
            if not members:
                return None
            if plan.kind == SessionKind.TEAM_CALL_REVIEW:
                host = next(self.hosts[plan.team_id])
                people = [(pk, HOST if pk == host else PARTICIPANT) for pk in members] + [
                    (plan.coach_id, MANAGER)  # the manager speaks last
                ]
            else:
                coach_zone = ZoneInfo(plan.coach_time_zone)
                area = self.focus_area_for(plan, slot.astimezone(coach_zone).date())
                if area is None:
                    return None  # a role-play practises a focus area; none is active
                focus_area_id = area.pk
                people = [(plan.coach_id, COACH)] + [(pk, PARTICIPANT) for pk in members]
        return _Draft(
            plan_id=plan.id,
            slot=slot,
            kind=plan.kind,
            end=slot + timedelta(minutes=plan.duration_minutes),
            duration_minutes=plan.duration_minutes,
            team_id=plan.team_id,
            focus_area_id=focus_area_id,
            people=people,
        )

    def _people_of(self, plan: CadencePlan) -> list[tuple[int, str]] | None:
        """Who meets at every slot of a 1:1, a manager review or a peer session, or
        None when they cannot meet."""
        if plan.kind in (SessionKind.ONE_ON_ONE, SessionKind.MANAGER_REVIEW):
            return [(plan.coach_id, COACH), (plan.coachee_id, COACHEE)]
        if plan.pair_id:
            members = self.pair_members[plan.pair_id]
            if len(members) < 2:
                return None  # a pair of one does not meet
            return [(pk, PEER) for pk in members]
        return [(plan.coach_id, PEER), (plan.coachee_id, PEER)]


# Roles as the plain strings a draft carries.
HOST, PARTICIPANT, MANAGER, COACH, COACHEE, PEER = (
    str(role)
    for role in (
        ParticipantRole.HOST,
        ParticipantRole.PARTICIPANT,
        ParticipantRole.MANAGER,
        ParticipantRole.COACH,
        ParticipantRole.COACHEE,
        ParticipantRole.PEER,
    )
)


def _last_hosts(team_ids: list[int]) -> dict[int, int]:
    """{team id: who hosted its latest call review}, one index walk per team: a
    join over every host read all of a first run's growing tables each batch
    (bench/generate.py)."""
    latest_host = (
        SessionParticipant.objects.filter(
            session__team_id=OuterRef("pk"),
            session__kind=SessionKind.TEAM_CALL_REVIEW,
            role=ParticipantRole.HOST,
        )
        .order_by("-session__scheduled_start", "-session_id")
        .values("person_id")[:1]
    )
    rows = Team.objects.filter(pk__in=team_ids).order_by().values_list("pk", Subquery(latest_host))
    return {team_id: person_id for team_id, person_id in rows if person_id is not None}


def occurrences_discard_untouched(
    *,
    plan: CadencePlan | None = None,
    plans: list[CadencePlan] | None = None,
    now: datetime | None = None,
    why: str = withdrawals.PLAN_CHANGED,
    actor_id: int | None = None,
) -> int:
    """Delete future occurrences nobody has touched (still at their slot, nothing
    written, nothing on the agenda), so an edited plan can regenerate them — of one
    plan or of several at once (a fixed number of queries either way), withdrawing
    those already in people's calendars (`withdrawals`, saying `why`). Held,
    cancelled, moved or prepared ones are never altered."""
    now = now or timezone.now()
    plans = [plan] if plan is not None else list(plans or [])
    doomed = list(_untouched(now).filter(occurrence__plan__in=plans).values_list("pk", flat=True))
    withdrawals.withdrawals_queue(doomed, why=why, actor_id=actor_id, now=now)
    deleted, _ = CoachingSession.objects.filter(pk__in=doomed).delete()
    return deleted


def _untouched(now: datetime):
    """Planned sessions still ahead that nobody has touched: at their slot, nothing
    written, nothing on the agenda, no commitment made in them."""
    return CoachingSession.objects.filter(
        occurrence__slot_start__gt=now,
        status=SessionStatus.SCHEDULED,
        scheduled_start=F("original_start"),
        notes__version=0,
        agenda__isnull=True,
        private_notes__isnull=True,
        commitments_made__isnull=True,
    )


def occurrences_discard_closed(closure: Closure, *, now: datetime | None = None) -> int:
    """Delete the untouched planned sessions whose slot falls on the closure's days in
    their plan's time zone; returns how many. Those someone moved, prepared or wrote
    in stay (cancel them if they will not happen)."""
    now = now or timezone.now()
    # Every zone's days lie within a day either side of UTC's: narrow by index first,
    # then decide by each plan's own calendar. An untouched session is still at its
    # slot, so the range is the sessions' own start too: `session_by_status_start`
    # then finds the closure's few days of scheduled sessions, where by the slot alone
    # PostgreSQL walked every scheduled session ahead (10,000 people, 24 Dec – 1 Jan:
    # 61,000 rows for 14,000; bench/routes.py at tandem_scale).
    since = utc_midnight(closure.first_day - timedelta(days=1))
    until = utc_midnight(closure.last_day + timedelta(days=2))
    window = _untouched(now).filter(
        scheduled_start__gte=since,
        scheduled_start__lt=until,
        occurrence__slot_start__gte=since,
        occurrence__slot_start__lt=until,
    )
    doomed = [
        pk
        for pk, slot, zone in window.order_by().values_list(
            "pk", "occurrence__slot_start", "occurrence__plan__time_zone"
        )
        if closure.holds(slot.astimezone(ZoneInfo(zone)).date())
    ]
    deleted = 0
    for chunk in _batches(doomed):
        withdrawals.withdrawals_queue(chunk, why=withdrawals.closed_day(closure.name), now=now)
        deleted += (
            CoachingSession.objects.filter(pk__in=chunk)
            .delete()[1]
            .get(CoachingSession._meta.label, 0)
        )
    return deleted


def utc_midnight(day) -> datetime:
    return datetime.combine(day, datetime.min.time(), tzinfo=UTC)


# --- The missed-session sweep ----------------------------------------------------------


@transaction.atomic
def sweep_missed(*, now: datetime | None = None) -> int:
    """Mark every scheduled session whose end + grace has passed as missed — one
    conditional UPDATE — and record the "missed" and "escalation" notifications in
    the same transaction. Returns how many sessions were marked."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.CADENCE_MISSED_GRACE_HOURS)
    marked = CoachingSession.objects.filter(
        status=SessionStatus.SCHEDULED, scheduled_end__lt=cutoff
    ).update(status=SessionStatus.MISSED, missed_at=now)
    if not marked:
        return 0
    # `missed_at = now` identifies exactly this sweep's rows.
    missed = CoachingSession.objects.filter(status=SessionStatus.MISSED, missed_at=now)
    _notify_runners_of_misses(now)
    _escalate(missed, now=now)
    return marked


def _notify_runners_of_misses(now: datetime) -> None:
    """One INSERT … SELECT: a "missed" notification for whoever runs each session
    this sweep marked (no rows travel through Python; the unique constraint makes
    a repeat a no-op)."""
    q = connection.ops.quote_name
    roles = [*sorted(RUNNING_ROLES), ParticipantRole.PEER]
    sql = (  # only our own quoted table names are interpolated
        f"INSERT INTO {q(Notification._meta.db_table)} (kind, recipient_id, session_id, period,"
        " status, attempts, last_error, next_attempt_at, created_at)"
        f" SELECT %s, p.person_id, p.session_id, '', %s, 0, '', %s, %s"
        f" FROM {q(SessionParticipant._meta.db_table)} p"
        f" JOIN {q(CoachingSession._meta.db_table)} s ON s.id = p.session_id"
        f" WHERE s.status = %s AND s.missed_at = %s"
        f" AND p.role IN ({', '.join(['%s'] * len(roles))})"
        " ON CONFLICT DO NOTHING"
    )
    at = connection.ops.adapt_datetimefield_value(now)  # exactly as the ORM stored it
    params = [
        NotificationKind.MISSED,
        NotificationStatus.PENDING,
        at,
        at,
        SessionStatus.MISSED,
        at,
        *roles,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _escalate(missed, *, now: datetime) -> None:
    """After N missed occurrences of one plan in a row, tell the coach's manager —
    once per triggering session."""
    n = settings.CADENCE_ESCALATE_AFTER
    plan_ids = Occurrence.objects.filter(session__in=missed).values("plan_id")
    latest = (
        Occurrence.objects.filter(plan_id__in=plan_ids, slot_start__lt=now)
        .exclude(session__status=SessionStatus.SCHEDULED)
        .annotate(
            rank=Window(RowNumber(), partition_by=[F("plan_id")], order_by=F("slot_start").desc())
        )
        .filter(rank__lte=n)
        .order_by("plan_id", "rank")
        .values_list("plan_id", "session_id", "session__status", "plan__coach__reports_to_id")
    )
    streaks: dict[int, list] = defaultdict(list)
    for plan_id, session_id, status, boss_id in latest:
        streaks[plan_id].append((session_id, status, boss_id))
    Notification.objects.bulk_create(
        [
            Notification(
                kind=NotificationKind.ESCALATION,
                session_id=rows[0][0],
                recipient_id=rows[0][2],
                plan_id=plan_id,
            )
            for plan_id, rows in streaks.items()
            if len(rows) == n and rows[0][2] and all(r[1] == SessionStatus.MISSED for r in rows)
        ],
        ignore_conflicts=True,
    )


# --- Reminders and digests -------------------------------------------------------------


def reminders_queue(*, now: datetime | None = None) -> int:
    """ "Upcoming" notifications for everyone in a session starting within the
    reminder window, and the team channel's call-review reminder. Returns how many
    were offered; those already recorded are left as they are."""
    now = now or timezone.now()
    soon = CoachingSession.objects.filter(
        status=SessionStatus.SCHEDULED,
        scheduled_start__gt=now,
        scheduled_start__lte=now + timedelta(hours=settings.CADENCE_REMINDER_HOURS),
    )
    rows = [
        Notification(kind=NotificationKind.UPCOMING, session_id=session_id, recipient_id=person_id)
        for session_id, person_id in SessionParticipant.objects.filter(
            session__in=soon, person__is_active=True
        ).values_list("session_id", "person_id")
    ]
    channels = TeamChannel.objects.filter(is_active=True).values("team_id")
    rows += [
        Notification(kind=NotificationKind.TEAM_REMINDER, session_id=session_id, team_id=team_id)
        for session_id, team_id in soon.filter(
            kind=SessionKind.TEAM_CALL_REVIEW, team_id__in=channels
        ).values_list("pk", "team_id")
    ]
    return len(Notification.objects.bulk_create(rows, ignore_conflicts=True))


def iso_week(moment: datetime) -> str:
    year, week, _ = moment.isocalendar()
    return f"{year}-W{week:02d}"


def digests_queue(*, now: datetime | None = None) -> int:
    """One weekly digest per active manager, and one per team with a channel."""
    now = now or timezone.now()
    period = iso_week(now)
    managers = User.objects.filter(is_active=True, direct_reports__is_active=True).distinct()
    rows = [
        Notification(kind=NotificationKind.DIGEST, recipient_id=pk, period=period)
        for pk in managers.values_list("pk", flat=True)
    ]
    rows += [
        Notification(kind=NotificationKind.TEAM_DIGEST, team_id=team_id, period=period)
        for team_id in TeamChannel.objects.filter(is_active=True).values_list("team_id", flat=True)
    ]
    return len(Notification.objects.bulk_create(rows, ignore_conflicts=True))
