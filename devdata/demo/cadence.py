"""The demo's cadence: the "Sales team standard" policy applied to the three demo teams
(and "New team ramp-up" written by the programme admin for teams to come) and Daniel's
own weekly 1:1 plans with his managers; their sessions for the weeks ahead (none in the
winter break the programme closes for), a team channel, and a few notifications.
Then (`seed_forecast_push`) Marcus ends his slipping team's monthly role-play plan for
the forecast push, so Team cadence shows a team lacking a plan its policy makes.

It runs after the coaching demo, which wrote twelve weeks of history and each rep's
next 1:1 (and the next call review and manager review). So that nothing is doubled,
each plan continues the day after the last session of its kind between the same
people (or for the same team) and keeps the time of day history shows, weekly plans
their day too — Sofia's Monday 10:00 with Aisha stays Monday 10:00 — through the same
service a manager uses on "My cadence". The history's sessions become the plan's past
occurrences, as if the plan had been kept all along, so runs of misses count back
through them (Marcus's slipping team shows in "Needs attention").

Written through `cadence.services` and `cadence.engine`, except what no service can
express: a plan's `starts_on` (policies start plans today), its past occurrences, the
channel's last failure, and the "missed" and "escalation" notifications the sweep
would have recorded for the misses the coaching demo wrote directly (Sam Carter's run
reaches Daniel, his coach's manager). No email is sent: reminders and digests are queued
in the outbox, where a running worker picks them up.

Idempotent: teams that already keep a policy are left alone; notifications are
unique, so queuing again records nothing twice."""

from dataclasses import dataclass
from datetime import date, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone

from cadence import availability, engine, invitations
from cadence.closures import closure_clear
from cadence.escalations import miss_runs
from cadence.health import week_of
from cadence.models import (
    CadencePlan,
    CadencePolicy,
    Closure,
    EndReason,
    Occurrence,
    PolicyAssignment,
    PolicyItem,
    Recurrence,
    Weekday,
)
from cadence.services import plan_create, plan_end, plan_update, policy_apply
from cadence.services_closures import closure_create
from cadence.services_policies import SUGGESTED_ITEMS, policy_save
from coaching.models import (
    RUNNING_ROLES,
    CoachingSession,
    SessionChange,
    SessionKind,
    SessionParticipant,
    SessionStatus,
)
from coaching.services import session_reschedule
from devdata.demo.people import ADMIN, HEAD, TEAMS, demo_email, demo_people
from notifications.models import Notification, NotificationKind, NotificationStatus, TeamChannel
from people.models import Team, User

POLICY = "Sales team standard"
POLICY_DESCRIPTION = (
    "What every sales team runs: a weekly 30-minute 1:1 per rep, a weekly team call "
    "review, a monthly role-play on the focus area, and a monthly manager review."
)
ITEMS = [dict(kind=kind, **rule) for kind, rule in SUGGESTED_ITEMS.items()]
# A second policy, written by the programme admin and kept by no team yet: what a new
# team keeps in its first quarter.
RAMP_UP = "New team ramp-up"
RAMP_UP_DESCRIPTION = (
    "For a team in its first quarter: longer 1:1s and a role-play every other week while "
    "the habits form. Move the team to the standard once its install plan is done."
)
RAMP_UP_ITEMS = {
    "one_on_one": SUGGESTED_ITEMS["one_on_one"] | {"duration_minutes": 45},
    "team_call_review": SUGGESTED_ITEMS["team_call_review"],
    "role_play": dict(
        recurrence=Recurrence.WEEKLY,
        weekday=Weekday.WEDNESDAY,
        interval_weeks=2,
        local_time=time(14, 0),
        duration_minutes=60,
    ),
}
CHANNEL_TEAM = "Enterprise East"
# Nothing listens there: the channel is switched off after its failure, for the admin to see.
CHANNEL_URL = "http://127.0.0.1:9/hook"
CHANNEL_ERROR = "URLError: <urlopen error [Errno 111] Connection refused>"
MISSED_WEEKS = 4
WINTER_BREAK = "Winter break"
# The slipping team's lead ends its monthly role-play when the quarter's forecast comes
# round (the 1:1s it already cancels for forecast calls): Team cadence shows it missing.
FORECAST_PUSH_TEAM = "Mid-Market Central"
FORECAST_PUSH_NOTE = "Forecast push: no time for role-plays until the quarter closes."


@dataclass
class CadenceSeedResult:
    created: bool
    live_plans: int
    planned_ahead: int
    notifications: int

    def lines(self) -> list[str]:
        return [
            f"  cadence: “{POLICY}” on {len(TEAMS)} teams, {self.live_plans} live plans, "
            f"{self.planned_ahead} sessions planned ahead, {self.notifications} notifications; "
            f"“{RAMP_UP}” written for new teams",
            *(
                f"  closed: {c.name}, {c.first_day:%-d %b} – {c.last_day:%-d %b %Y}, "
                "nothing planned"
                for c in Closure.objects.filter(last_day__gte=timezone.localdate())
            ),
        ]


def _demo_people() -> dict[str, User]:
    keys = {demo_email(spec.key): spec.key for spec in demo_people()}
    return {keys[u.email]: u for u in User.objects.filter(email__in=keys)}


def _policy() -> CadencePolicy:
    policy, created = CadencePolicy.objects.get_or_create(
        name=POLICY, defaults={"description": POLICY_DESCRIPTION}
    )
    if created:
        PolicyItem.objects.bulk_create(PolicyItem(policy=policy, **item) for item in ITEMS)
    return policy


def _history(plan: CadencePlan):
    """The history's sessions of the plan's kind between its people (or for its team)."""
    sessions = CoachingSession.objects.filter(kind=plan.kind, occurrence__isnull=True)
    if plan.team_id:
        sessions = sessions.filter(team_id=plan.team_id)
    else:
        for person_id in (plan.coach_id, plan.coachee_id):
            sessions = sessions.filter(
                pk__in=SessionParticipant.objects.filter(person_id=person_id).values("session")
            )
    return sessions


def _adopt_history(plan: CadencePlan) -> None:
    """The plan has kept this rhythm since the history began: its sessions become the
    plan's occurrences (each at its original slot), so runs of misses and escalations
    count back through them as they would have."""
    sessions = list(_history(plan).order_by("original_start"))
    if not sessions:
        return
    Occurrence.objects.bulk_create(
        [Occurrence(plan=plan, slot_start=s.original_start, session=s) for s in sessions],
        ignore_conflicts=True,
    )
    first = sessions[0].original_start.astimezone(ZoneInfo(plan.time_zone)).date()
    CadencePlan.objects.filter(pk=plan.pk).update(starts_on=first)


def _monthly_like(day: date) -> dict:
    """A monthly rule that falls on `day`: its weekday's n-th, or last, of the month."""
    nth = (day.day - 1) // 7 + 1
    if nth > 4:
        return {"recurrence": Recurrence.MONTHLY_LAST}
    return {"recurrence": Recurrence.MONTHLY_NTH, "week_of_month": nth}


def _continue_history(plan: CadencePlan, *, today: date) -> None:
    """Continue the plan where the coaching history leaves off, the day after its last
    session, at the time and on the day history shows (a monthly plan on the same
    weekday of the month: Daniel's reviews stay on Mondays); the history's sessions
    become its past occurrences."""
    last = _history(plan).order_by("-original_start").first()
    starts_on = today + timedelta(days=1)
    if last is not None:
        local = last.original_start.astimezone(ZoneInfo(plan.time_zone))
        starts_on = max(starts_on, local.date() + timedelta(days=1))
        changes = {"local_time": local.time().replace(second=0, microsecond=0)}
        changes["weekday"] = local.weekday()
        if plan.recurrence != Recurrence.WEEKLY:
            changes |= _monthly_like(local.date())
        changes = {k: v for k, v in changes.items() if getattr(plan, k) != v}
        if changes:
            plan_update(plan=plan, actor=plan.coach, **changes)
    CadencePlan.objects.filter(pk=plan.pk).update(starts_on=starts_on)
    _adopt_history(plan)


def _head_one_on_ones(people: dict[str, User], *, today: date) -> bool:
    """Daniel's weekly 1:1 with each of his managers: no team policy makes those (a
    policy plans a lead's monthly manager review), so he planned them himself, as on
    "My cadence", continuing the coaching history's Tuesdays. True if any was made."""
    head, made = people[HEAD.key], False
    for n, spec in enumerate(TEAMS.values()):
        manager = people[spec.key]
        if (
            CadencePlan.objects.live()
            .filter(kind=SessionKind.ONE_ON_ONE, coach=head, coachee=manager)
            .exists()
        ):
            continue
        plan = plan_create(
            kind=SessionKind.ONE_ON_ONE,
            coach=head,
            coachee=manager,
            weekday=Weekday.TUESDAY,
            local_time=time(10 + n // 2, 30 * (n % 2)),  # one after another, never at once
            actor=head,
            generate=False,
        )
        _continue_history(plan, today=today)
        made = True
    return made


def _missed_notifications(people: list[User], *, now) -> None:
    """What the sweep would have recorded for the misses of the last four weeks —
    already delivered, the older ones read."""
    runners = SessionParticipant.objects.filter(
        person__in=people,
        role__in=RUNNING_ROLES,
        session__status=SessionStatus.MISSED,
        session__missed_at__gte=now - timedelta(weeks=MISSED_WEEKS),
    ).select_related("session")
    Notification.objects.bulk_create(
        [
            Notification(
                kind=NotificationKind.MISSED,
                session=p.session,
                recipient_id=p.person_id,
                status=NotificationStatus.SENT,
                attempts=1,
                created_at=p.session.missed_at,
                next_attempt_at=p.session.missed_at,
                sent_at=p.session.missed_at,
                read_at=(
                    p.session.missed_at + timedelta(hours=20)
                    if p.session.missed_at < now - timedelta(days=7)
                    else None
                ),
            )
            for p in runners
        ],
        ignore_conflicts=True,
    )


def _escalations(people: list[User], *, now) -> None:
    """What the sweep would have recorded as each miss of the last four weeks made a run
    of `CADENCE_ESCALATE_AFTER` or more — Sam Carter's three Tuesdays reach Daniel, his
    coach's manager: one escalation per triggering miss, delivered, the latest unread.
    The coaching demo writes its misses directly (no sweep runs over them), so without
    this no run of misses ever reached anyone."""
    recent = list(
        Occurrence.objects.filter(
            plan__coach__in=people,
            plan__coach__reports_to__isnull=False,
            session__status=SessionStatus.MISSED,
            session__missed_at__gte=now - timedelta(weeks=MISSED_WEEKS),
        ).select_related("session", "plan__coach")
    )
    runs = miss_runs([o.session_id for o in recent])
    escalated = [o for o in recent if runs.get(o.session_id, 0) >= settings.CADENCE_ESCALATE_AFTER]
    latest = {}
    for o in sorted(escalated, key=lambda o: o.slot_start):
        latest[o.plan_id] = o.session_id
    Notification.objects.bulk_create(
        [
            Notification(
                kind=NotificationKind.ESCALATION,
                session_id=o.session_id,
                plan_id=o.plan_id,
                recipient_id=o.plan.coach.reports_to_id,
                status=NotificationStatus.SENT,
                attempts=1,
                created_at=o.session.missed_at,
                next_attempt_at=o.session.missed_at,
                sent_at=o.session.missed_at,
                read_at=(
                    None
                    if latest[o.plan_id] == o.session_id
                    else o.session.missed_at + timedelta(hours=20)
                ),
            )
            for o in escalated
        ],
        ignore_conflicts=True,
    )


def cadence_summary(people: dict[str, User] | None = None) -> CadenceSeedResult:
    people = people or _demo_people()
    pks = [u.pk for u in people.values()]
    now = timezone.now()
    return CadenceSeedResult(
        created=False,
        live_plans=CadencePlan.objects.live().filter(coach__in=pks).count(),
        planned_ahead=CoachingSession.objects.filter(
            occurrence__plan__coach__in=pks,
            status=SessionStatus.SCHEDULED,
            scheduled_start__gte=now,
        ).count(),
        notifications=Notification.objects.filter(
            Q(recipient__in=pks) | Q(team__name__in=TEAMS)
        ).count(),
    )


def queue_notifications() -> None:
    """Queue what beat would by now: reminders for the sessions of the next day,
    this week's digests (idempotent). `seed_demo` calls it again once everything is
    planned — the peer pairs' sessions come after the cadence — so a second run
    finds nothing newly due."""
    engine.reminders_queue()
    invitations.invitations_queue()
    engine.digests_queue()


def _history_change_notifications() -> None:
    """The coaching history's moves and cancellations told the others as the services
    made them, and were then backdated (`devdata.demo.coaching`): sent and read when they
    happened. (A move made now, like `_a_moved_one_on_one`'s, is told now.)"""
    when = Subquery(SessionChange.objects.filter(pk=OuterRef("session_change_id")).values("at"))
    Notification.objects.filter(
        session_change__at__lt=F("created_at") - timedelta(minutes=1),
        status=NotificationStatus.PENDING,
    ).update(created_at=when, sent_at=when, read_at=when, status=NotificationStatus.SENT)


def _a_moved_one_on_one(people: dict[str, User]) -> None:
    """Sofia moves Aisha's next 1:1 an hour later (or the first free half hour after),
    so Aisha has a "Session moved" notification to read (and an email with its calendar
    update on its way), and the session page shows who moved it from when to when.
    Once: not if it moved already."""
    sofia, aisha = people.get(TEAMS["Enterprise East"].key), people.get("aisha.bello")
    if sofia is None or aisha is None:
        return
    upcoming = (
        CoachingSession.objects.filter(
            kind=SessionKind.ONE_ON_ONE,
            status=SessionStatus.SCHEDULED,
            scheduled_start__gt=timezone.now() + timedelta(hours=3),
            participants__person=aisha,
        )
        .filter(participants__person=sofia)
        .order_by("scheduled_start")
    )
    session = upcoming.first()
    if session is None or upcoming.filter(sequence__gt=0).exists():
        return
    # An hour later — or, if either of them has another session then, the first half
    # hour after it when both are free (a move onto a clash is refused).
    length = timedelta(minutes=session.duration_minutes)
    start = session.scheduled_start + timedelta(hours=1)
    for _ in range(16):
        if not availability.why_not_move(
            session=session, start=start, end=start + length, actor=sofia
        ):
            break
        start += timedelta(minutes=30)
    session_reschedule(session=session, actor=sofia, start=start)


def _winter_break(admin: User, today: date) -> None:
    """The programme closes from 24 December to 1 January — the next break that has not
    begun (a demo seeded during one has a quarter of history straight through it, so
    it closes next year's) — closed by the programme admin through the service, and
    cleared here rather than by a worker, so the demo is whole when seeding ends: the
    sessions planned on those days go. (The queued message then finds nothing to do.)"""
    year = today.year if today < date(today.year, 12, 24) else today.year + 1
    first, last = date(year, 12, 24), date(year + 1, 1, 1)
    if not Closure.objects.filter(first_day__lte=last, last_day__gte=first).exists():
        closure = closure_create(actor=admin, name=WINTER_BREAK, first_day=first, last_day=last)
        closure_clear(closure.pk)
        _after_the_break(closure)


def _after_the_break(closure: Closure) -> None:
    """What closing left on the closed days — sessions someone already prepared, such as
    the next manager review with an item on its agenda (seeded in December) — its coach
    moves to the same weekday after the break (closing leaves such sessions to their
    people), in place of the session the plan has there: the preparation carries over."""
    near = CoachingSession.objects.filter(
        status=SessionStatus.SCHEDULED,
        occurrence__isnull=False,
        scheduled_start__gte=engine.utc_midnight(closure.first_day - timedelta(days=1)),
        scheduled_start__lt=engine.utc_midnight(closure.last_day + timedelta(days=2)),
    ).select_related("occurrence__plan__coach")
    for session in near:
        plan = session.occurrence.plan
        start = session.scheduled_start.astimezone(ZoneInfo(plan.time_zone))
        if not closure.holds(start.date()):
            continue
        while closure.holds(start.date()):
            start += timedelta(weeks=1)  # wall-clock: the same local time
        CoachingSession.objects.filter(
            occurrence__plan=plan, status=SessionStatus.SCHEDULED, scheduled_start=start
        ).exclude(pk=session.pk).delete()
        if availability.why_not_move(
            session=session,
            start=start,
            end=start + timedelta(minutes=session.duration_minutes),
            actor=plan.coach,
        ):  # someone in it is busy then: the first time that week everyone is free
            free = availability.free_slots(
                people=[p.person for p in session.participants.all()],
                duration=timedelta(minutes=session.duration_minutes),
                since=start,
                until=week_of(start)[1],
                excluding=session.pk,
            )
            if not free:
                continue  # left for its people to move or cancel
            start = free[0].start
        session_reschedule(session=session, actor=plan.coach, start=start)


def seed_cadence(people: dict[str, User] | None = None) -> CadenceSeedResult:
    """Apply the demo policy to the demo teams that keep none yet, plan their sessions,
    and queue a few notifications. Returns counts either way."""
    people = people or _demo_people()
    admin = people[ADMIN.key]
    today = timezone.localdate()
    created = False
    with transaction.atomic():
        policy = _policy()
        if not CadencePolicy.objects.filter(name=RAMP_UP).exists():
            policy_save(
                actor=admin, name=RAMP_UP, description=RAMP_UP_DESCRIPTION, items=RAMP_UP_ITEMS
            )
        teams = Team.objects.filter(name__in=TEAMS).select_related("lead").order_by("name")
        for team in teams:
            if PolicyAssignment.objects.filter(team=team, ended_at__isnull=True).exists():
                continue
            assignment = policy_apply(policy=policy, team=team, actor=admin)
            for plan in assignment.plans.live().order_by("pk"):
                _continue_history(plan, today=today)
            created = True
        created |= _head_one_on_ones(people, today=today)
        channel_team = next((t for t in teams if t.name == CHANNEL_TEAM), None)
        if channel_team is not None:
            failed_at = timezone.now() - timedelta(days=2)
            TeamChannel.objects.get_or_create(
                team=channel_team,
                defaults={
                    "webhook_url": CHANNEL_URL,
                    "is_active": False,
                    "last_failure_at": failed_at,
                    "last_error": CHANNEL_ERROR,
                },
            )
            # The digest that failed there, on Email delivery to be sent again.
            Notification.objects.get_or_create(
                kind=NotificationKind.TEAM_DIGEST,
                team=channel_team,
                period=engine.iso_week(failed_at),
                defaults={
                    "status": NotificationStatus.FAILED,
                    "attempts": 6,
                    "last_error": CHANNEL_ERROR,
                    "created_at": failed_at - timedelta(hours=6),
                    "next_attempt_at": failed_at,
                },
            )
        _missed_notifications(list(people.values()), now=timezone.now())
        _history_change_notifications()
        _escalations(list(people.values()), now=timezone.now())
    engine.occurrences_generate()
    _winter_break(admin, today)
    _a_moved_one_on_one(people)
    queue_notifications()
    result = cadence_summary(people)
    result.created = created
    return result


def seed_forecast_push(people: dict[str, User] | None = None) -> str:
    """Marcus ends Mid-Market Central's monthly role-play plan for the forecast push,
    as on "My cadence" (reason "Other", in his words), through the service: ended by
    him and audited as his, its sessions ahead gone, the role-plays held kept. The team
    still keeps the policy, so Programme → Team cadence says "1 plan missing: the
    team's role-play" and offers "Make the missing plans", and the plan shows who ended
    it and why. Dated as it happens, not backdated: the plan was made moments before
    with the policy (`seed_cadence`), and cannot have ended before it was made.
    Once only: a team whose role-play plan was ever ended — made again since, or
    not — is left as it is. Returns the line to print."""
    people = people or _demo_people()
    lead = people[TEAMS[FORECAST_PUSH_TEAM].key]
    plans = CadencePlan.objects.filter(
        kind=SessionKind.ROLE_PLAY, team__name=FORECAST_PUSH_TEAM, coach=lead
    )
    if plans.filter(ended_at__isnull=False).exists():
        return f"{FORECAST_PUSH_TEAM}'s role-play plan already ended — left as it is."
    plan = plans.live().first()
    if plan is None:
        return f"{FORECAST_PUSH_TEAM} has no role-play plan to end."
    plan_end(plan=plan, actor=lead, reason=EndReason.OTHER, note=FORECAST_PUSH_NOTE)
    return (
        f"  {lead.display_name} ended {FORECAST_PUSH_TEAM}'s monthly role-play plan for the "
        "forecast push: Team cadence shows it missing."
    )
