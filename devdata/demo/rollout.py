"""The demo's install plans and its peer pairs' cadence, after `devdata.demo.peers`.

- Peer pairs: the cadence engine made each pair's plan the moment its last member
  accepted — today, as far as the wall clock knows — while the pairs started weeks ago
  and booked their sessions ad hoc until now (`devdata.demo.coaching`'s `PEER_PAIRS`). So
  that nothing is doubled, each live pair plan starts after the last session its
  members booked together, keeping their rhythm (a pair without any starts on its
  weekday after today); what the engine drafted before is discarded by its own
  `occurrences_discard_untouched` and drafted again. Plans of pairs that ended carry
  the pair's dates, and the invitations queued when each pair was formed are dated
  then too: delivered, and read by whoever has answered (aisha.bello has not). So are
  the requests for feedback `devdata.demo.feedback` made weeks ago: told then, read when
  answered (it runs first).
- Install plans: each demo team's 30/60/90-day checklist, started about 90 days ago
  by its lead through `cadence.services_rollout`. Most items tick themselves from
  the history; Sofia ticked both by-hand items for Enterprise East (recordings on in
  week one, the scorecard agreed in week three), Lena one for EMEA Growth, Marcus
  none — so the three teams stand at different places.

Idempotent: plans already carrying their pair's dates are left alone, and a team
whose rollout has started is skipped."""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from cadence import engine
from cadence.models import CadencePlan, Rollout, RolloutTick
from cadence.rollout import progress_for
from cadence.services_rollout import rollout_start, rollout_tick
from coaching.models import CoachingSession, SessionKind, SessionParticipant, SessionStatus
from devdata.demo.people import TEAMS, demo_email, demo_people
from feedback.models import RequestedResponder
from notifications.models import Notification, NotificationKind, NotificationStatus
from people.models import Team, User

# Team → (days since its rollout started, {by-hand item: days after the start it was ticked}).
ROLLOUTS = {
    "Enterprise East": (92, {"recordings_on": 6, "scorecard_agreed": 19}),
    "EMEA Growth": (90, {"recordings_on": 33}),
    "Mid-Market Central": (88, {}),
}


def _demo_people() -> dict[str, User]:
    keys = {demo_email(spec.key): spec.key for spec in demo_people()}
    return {keys[u.email]: u for u in User.objects.filter(email__in=keys)}


def _at(day: date, at: time, tz: str) -> datetime:
    return datetime.combine(day, at, tzinfo=ZoneInfo(tz))


# --- Peer pairs --------------------------------------------------------------------------


def _last_booked(pair, members: list[int]) -> CoachingSession | None:
    """The latest peer session all of the pair's members booked together by hand."""
    sessions = CoachingSession.objects.filter(kind=SessionKind.PEER, occurrence__isnull=True)
    for person_id in members:
        sessions = sessions.filter(
            pk__in=SessionParticipant.objects.filter(person_id=person_id).values("session")
        )
    return sessions.order_by("-original_start").first()


def _first_day(plan: CadencePlan, *, today: date) -> date:
    """After the pair's own bookings, in their rhythm; else its weekday after today."""
    members = list(
        plan.pair.members.filter(left_at__isnull=True).values_list("person_id", flat=True)
    )
    last = _last_booked(plan.pair, members)
    if last is None:
        day = today + timedelta(days=1)
        return day + timedelta(days=(plan.weekday - day.weekday()) % 7)
    step = timedelta(weeks=plan.interval_weeks)
    day = last.original_start.astimezone(ZoneInfo(plan.time_zone)).date() + step
    while day <= today:
        day += step
    return day


def _pair_plans(people: dict[str, User], *, today: date) -> list[int]:
    """Give the demo pairs' plans their pairs' dates; the live ones' ids."""
    plans = (
        CadencePlan.objects.filter(
            kind=SessionKind.PEER,
            pair__created_by__in=people.values(),
            pair__started_at__isnull=False,
        )
        .select_related("pair")
        .order_by("pk")
    )
    live = []
    for plan in plans:
        pair = plan.pair
        if not plan.is_live:
            if plan.created_at - pair.started_at > timedelta(days=1):
                CadencePlan.objects.filter(pk=plan.pk).update(
                    created_at=pair.started_at,
                    starts_on=timezone.localdate(pair.started_at, ZoneInfo(plan.time_zone)),
                    ended_at=pair.ended_at or plan.ended_at,
                )
            continue
        live.append(plan.pk)
        if plan.created_at - pair.started_at <= timedelta(days=1):
            continue  # already continues the pair's bookings (or the pair started today)
        engine.occurrences_discard_untouched(plan=plan)
        CadencePlan.objects.filter(pk=plan.pk).update(
            created_at=pair.started_at,
            starts_on=_first_day(plan, today=today),
            generated_until=None,
        )
    return live


def _pair_invitations(people: dict[str, User]) -> None:
    """The invitations queued when the demo pairs were formed, dated then: delivered
    a couple of minutes later, read by the members who have answered."""
    rows = Notification.objects.filter(
        kind=NotificationKind.PAIR_INVITED, pair__created_by__in=people.values()
    ).select_related("pair")
    for row in rows:
        formed = row.pair.created_at
        if row.created_at - formed <= timedelta(days=1):
            continue  # dated already (or a pair formed today)
        member = row.pair.members.filter(person_id=row.recipient_id).first()
        answered = member and (member.accepted_at or member.left_at)
        _sent(row, at=formed, read_at=answered or None)


def _sent(row: Notification, *, at, read_at=None) -> None:
    """Queued at `at` and delivered a couple of minutes later."""
    Notification.objects.filter(pk=row.pk).update(
        created_at=at,
        next_attempt_at=at,
        status=NotificationStatus.SENT,
        attempts=1,
        sent_at=at + timedelta(minutes=2),
        read_at=read_at,
    )


def _peer_asked(people: dict[str, User]) -> None:
    """The managers told when the demo reps asked for a peer, dated then and
    delivered a couple of minutes later (unread: nobody has paired them yet)."""
    rows = Notification.objects.filter(
        kind=NotificationKind.PEER_ASKED, recipient__in=people.values()
    ).select_related("peer_request")
    for row in rows:
        asked = row.peer_request.created_at
        if row.created_at - asked <= timedelta(days=1):
            continue  # dated already (or asked today)
        _sent(row, at=asked)


# --- Install plans -----------------------------------------------------------------------


def _feedback_asked(people: dict[str, User]) -> None:
    """The people asked for feedback weeks ago (`devdata.demo.feedback`'s answered requests)
    were told then: dated to the request, delivered a couple of minutes later, and
    read when they answered."""
    rows = Notification.objects.filter(
        kind=NotificationKind.FEEDBACK_ASKED, recipient__in=people.values()
    ).select_related("feedback_request")
    answered = {
        (request, responder): at
        for request, responder, at in RequestedResponder.objects.filter(
            responder__in=people.values(), answered_at__isnull=False
        ).values_list("request_id", "responder_id", "answered_at")
    }
    for row in rows:
        asked = row.feedback_request.created_at
        if row.created_at - asked <= timedelta(days=1):
            continue  # dated already (or asked today)
        _sent(row, at=asked, read_at=answered.get((row.feedback_request_id, row.recipient_id)))


def _rollouts(people: dict[str, User], *, today: date) -> bool:
    created = False
    teams = Team.objects.filter(name__in=ROLLOUTS).select_related("lead").order_by("name")
    for team in teams:
        if Rollout.objects.filter(team=team).exists() or team.lead is None:
            continue
        days, ticks = ROLLOUTS[team.name]
        lead = people.get(TEAMS[team.name].key, team.lead)
        starts_on = today - timedelta(days=days)
        rollout = rollout_start(team=team, actor=lead, starts_on=starts_on)
        Rollout.objects.filter(pk=rollout.pk).update(
            created_at=_at(starts_on, time(9, 0), lead.time_zone)
        )
        for item, after in ticks.items():
            tick = rollout_tick(rollout=rollout, actor=lead, item=item)
            RolloutTick.objects.filter(pk=tick.pk).update(
                ticked_at=_at(starts_on + timedelta(days=after), time(16, 30), lead.time_zone)
            )
        created = True
    return created


def rollout_summary(people: dict[str, User], live_pair_plans: list[int]) -> list[str]:
    now = timezone.now()
    ahead = CoachingSession.objects.filter(
        occurrence__plan__in=live_pair_plans,
        status=SessionStatus.SCHEDULED,
        scheduled_start__gte=now,
    ).count()
    rollouts = list(Rollout.objects.filter(team__name__in=ROLLOUTS).select_related("team"))
    progress = progress_for(rollouts)
    teams = ", ".join(
        f"{r.team.name} {progress[r.pk].done_count}/{progress[r.pk].total} "
        f"(day {progress[r.pk].day})"
        for r in sorted(rollouts, key=lambda r: -progress[r.pk].done_count)
    )
    return [
        f"  pair plans: {len(live_pair_plans)} live, {ahead} sessions planned ahead "
        "(after the pairs' own bookings)",
        f"  install plans: {teams or 'none'}",
    ]


def seed_rollouts(people: dict[str, User] | None = None) -> list[str]:
    """Continue the demo pairs' plans after their bookings, date the pairs', the peer
    requests' and the feedback requests' notifications, and start each demo team's
    install plan, unless done before. Returns the lines to print either way."""
    people = people or _demo_people()
    today = timezone.localdate()
    with transaction.atomic():
        live = _pair_plans(people, today=today)
        _pair_invitations(people)
        _peer_asked(people)
        _feedback_asked(people)
        created = _rollouts(people, today=today)
    engine.occurrences_generate(plan_ids=live)
    first = (
        "Install plans started for the demo teams, 30/60/90 days."
        if created
        else "Install plans already in place — left as they are."
    )
    return [first, *rollout_summary(people, live)]
