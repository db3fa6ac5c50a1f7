"""The install plan: a team's 30/60/90-day checklist for putting the programme in
place (about 90 days to install the cadence; recordings and the scorecard in the
first weeks), counted from the rollout's start.

Most items tick themselves from the data — the moment the first team call review is
logged held, "first team call review held" is done, and it is undone again if the
data stops saying so (a plan ended, a pair ended). What the data cannot tell
(recordings turned on, the scorecard agreed in a team session) the lead ticks.

`progress_for` evaluates any number of rollouts set-based: a fixed number of queries
whether it is one team or every team in the organisation."""

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo

from django.db.models import Count, F, Max, Min, OuterRef, Q, Subquery
from django.utils import timezone

from coaching.models import (
    CoachingSession,
    FocusArea,
    ParticipantRole,
    SessionKind,
    SessionParticipant,
    SessionStatus,
)
from core.queries import one_of
from core.slots import kept_per_slot
from learning.models import PlaybookModule
from people.models import TeamMembership
from scorecards.models import RoundContext, Scorecard

from .models import CadencePlan, Rollout, RolloutTick


@dataclass(frozen=True)
class Item:
    key: str
    title: str
    help: str
    day: int  # due this many days after the start
    manual: bool = False


ITEMS = (
    Item(
        "cadence_live",
        "Cadence live",
        "Everyone on the team (but the lead) has a 1:1 plan running.",
        30,
    ),
    Item(
        "focus_area",
        "A focus area with scorecard criteria",
        "A current focus area — for the whole organisation or for this team — with the "
        "scorecard criteria that measure it: the one behaviour that matters most now.",
        30,
    ),
    Item(
        "recordings_on",
        "Recordings turned on",
        "Calls are recorded, so 1:1s and reviews start from real evidence. The lead ticks "
        "it when they are.",
        30,
        manual=True,
    ),
    Item(
        "scorecard_agreed",
        "Scorecard agreed in a team session",
        "The team went through the scorecard together and agreed what a 3 looks like. "
        "The lead ticks it when it has.",
        30,
        manual=True,
    ),
    Item(
        "playbook_picked",
        "A playbook picked",
        "The team uses at least one playbook module: the core one, a department add-on.",
        30,
    ),
    Item(
        "first_call_review",
        "First team call review held",
        "One call dissected against the scorecard, peers first and the lead last.",
        30,
    ),
    Item(
        "first_role_play",
        "First role-play held",
        "A skill-themed role-play for the team, logged held.",
        60,
    ),
    Item(
        "first_calibration",
        "First calibration",
        "The lead scored a call alongside other managers in a calibration, since closed.",
        60,
    ),
    Item(
        "first_manager_review",
        "The lead's first manager review held",
        "The lead's own manager coached them on their coaching.",
        60,
    ),
    Item(
        "peer_pairs",
        "Peer pairs formed",
        "Someone on the team is in a peer pair that has started.",
        90,
    ),
)
BY_KEY = {item.key: item for item in ITEMS}
MANUAL = tuple(item.key for item in ITEMS if item.manual)
DAYS = (30, 60, 90)


@dataclass
class ItemStatus:
    item: Item
    due_on: date
    done: bool
    done_on: date | None
    overdue: bool


@dataclass
class Progress:
    rollout: Rollout
    today: date
    items: list[ItemStatus] = field(default_factory=list)

    @property
    def done_count(self) -> int:
        return sum(1 for s in self.items if s.done)

    @property
    def total(self) -> int:
        return len(self.items)

    @property
    def overdue_count(self) -> int:
        return sum(1 for s in self.items if s.overdue)

    @property
    def finished(self) -> bool:
        return self.done_count == self.total

    @property
    def day(self) -> int:
        """Days since the start (day 0 is the start; negative before it)."""
        return (self.today - self.rollout.starts_on).days

    @property
    def starts_in(self) -> int:
        """Days until the start (0 once started)."""
        return max(0, -self.day)

    @property
    def next_item(self) -> ItemStatus | None:
        """The first item not done yet, soonest due first."""
        return next((s for s in self.items if not s.done), None)

    @property
    def by_day(self) -> list[tuple[int, date, list[ItemStatus]]]:
        """(day, due on, the items due then) for days 30, 60 and 90."""
        start = self.rollout.starts_on
        return [
            (day, start + timedelta(days=day), [s for s in self.items if s.item.day == day])
            for day in DAYS
        ]


def _day(value) -> date | None:
    if value is None or (isinstance(value, date) and not isinstance(value, datetime)):
        return value
    return timezone.localdate(value)


def _earliest(*values):
    found = [v for v in values if v is not None]
    return min(found) if found else None


def _firsts(rows) -> dict[int, date]:
    """(key, moment) rows → key: the earliest day."""
    firsts: dict[int, date] = {}
    for key, moment in rows:
        day = _day(moment)
        if day is not None and (key not in firsts or day < firsts[key]):
            firsts[key] = day
    return firsts


def _evidence(rollouts: list[Rollout], today: date) -> dict[str, dict[int, date | None]]:
    """For each computed item: team id → the day it became true (None where it is
    true but the data gives no day). Teams missing from a map are not done.
    Eleven queries whatever the number of teams (see the comments)."""
    team_ids = [r.team_id for r in rollouts]
    leads = {r.team_id: r.team.lead_id for r in rollouts}
    lead_ids = [pk for pk in leads.values() if pk is not None]
    members = TeamMembership.objects.current().filter(team_id__in=team_ids, person__is_active=True)
    held = {"status": SessionStatus.HELD}

    # 1. Cadence live: every current member but the lead has a live weekly 1:1 plan;
    # done on the day the last of them got one. Counted per team in the database: an
    # organisation's 9,000 members read one by one in Python (bench/routes.py).
    live_plan = (
        CadencePlan.objects.live()
        .filter(kind=SessionKind.ONE_ON_ONE, coachee=OuterRef("person"))
        .order_by("created_at")
    )
    cadence = {
        team_id: _day(last)
        for team_id, without, last in members.exclude(person_id=F("team__lead_id"))
        .annotate(since=Subquery(live_plan.values("created_at")[:1]))
        .values("team_id")
        .annotate(without=Count("pk", filter=Q(since__isnull=True)), last=Max("since"))
        .values_list("team_id", "without", "last")
        if not without
    }

    # 2–3. A focus area with criteria, active today, for everyone or for the team.
    qualifying = FocusArea.objects.active_on(today).filter(criteria__isnull=False)
    everyone = qualifying.filter(teams__isnull=True).aggregate(first=Min("starts_on"))["first"]
    for_team = _firsts(
        FocusArea.teams.through.objects.filter(
            team_id__in=team_ids, focusarea__in=qualifying.values("pk")
        )
        .values("team_id")
        .annotate(first=Min("focusarea__starts_on"))
        .values_list("team_id", "first")
    )
    focus = {
        team_id: _earliest(everyone, for_team.get(team_id))
        for team_id in team_ids
        if everyone is not None or team_id in for_team
    }

    def first_held(kind):
        return (
            CoachingSession.objects.filter(team_id__in=team_ids, kind=kind, **held)
            .values("team_id")
            .annotate(first=Min("held_at"))
            .values_list("team_id", "first")
        )

    # 4. The team's first call review logged held.
    call_review = _firsts(first_held(SessionKind.TEAM_CALL_REVIEW))
    # 5–6. A role-play held for the team, or one a member practised in (role-plays
    # planned by hand need not name a team).
    role_play = _firsts(
        [
            *first_held(SessionKind.ROLE_PLAY),
            *members.exclude(person_id=F("team__lead_id"))
            .filter(
                person__session_roles__role=ParticipantRole.PARTICIPANT,
                person__session_roles__session__kind=SessionKind.ROLE_PLAY,
                person__session_roles__session__status=SessionStatus.HELD,
            )
            .values("team_id")
            .annotate(first=Min("person__session_roles__session__held_at"))
            .values_list("team_id", "first"),
        ]
    )

    # 7. The lead submitted a scorecard in a calibration that has closed.
    calibrated = _firsts(
        Scorecard.objects.filter(
            rater_id__in=lead_ids,
            submitted_at__isnull=False,
            round__context=RoundContext.CALIBRATION,
            round__closed_at__isnull=False,
        )
        .values("rater_id")
        .annotate(first=Min("round__closed_at"))
        .values_list("rater_id", "first")
    )
    # 8. A manager review held with the lead as the one coached.
    reviewed = _firsts(
        SessionParticipant.objects.filter(
            person_id__in=lead_ids,
            role=ParticipantRole.COACHEE,
            session__kind=SessionKind.MANAGER_REVIEW,
            session__status=SessionStatus.HELD,
        )
        .values("person_id")
        .annotate(first=Min("session__held_at"))
        .values_list("person_id", "first")
    )
    # 9. A playbook module in use (the picking itself keeps no date).
    playbook = dict.fromkeys(
        PlaybookModule.teams.through.objects.filter(
            team_id__in=team_ids, playbookmodule__is_active=True
        )
        .values_list("team_id", flat=True)
        .distinct()
    )
    # 10. A current member in a pair that has started and not ended, still in it.
    pairs = _firsts(
        members.filter(
            person__pair_memberships__left_at__isnull=True,
            person__pair_memberships__pair__started_at__isnull=False,
            person__pair_memberships__pair__ended_at__isnull=True,
        )
        .values("team_id")
        .annotate(first=Min("person__pair_memberships__pair__started_at"))
        .values_list("team_id", "first")
    )

    def by_lead(firsts):
        return {t: firsts[lead] for t, lead in leads.items() if lead in firsts}

    return {
        "cadence_live": cadence,
        "focus_area": focus,
        "playbook_picked": playbook,
        "first_call_review": call_review,
        "first_role_play": role_play,
        "first_calibration": by_lead(calibrated),
        "first_manager_review": by_lead(reviewed),
        "peer_pairs": pairs,
    }


# What is kept per slot is named with this; change the version when `KeptEvidence` does.
KEPT_AS = "cadence:v1"


@dataclass(frozen=True)
class KeptEvidence:
    as_of: datetime  # the start of the refresh slot it is of
    evidence: dict[str, dict[int, date | None]]  # as `_evidence`, for every started team


def organisation_evidence(*, today: date) -> dict[str, dict[int, date | None]]:
    """`_evidence` for every team that started its install plan."""
    rollouts = list(Rollout.objects.select_related("team").only("team_id", "team__lead_id"))
    if not rollouts:
        return {item.key: {} for item in ITEMS if not item.manual}
    return _evidence(rollouts, today)


def kept_evidence(*, tz: tzinfo, now: datetime | None = None) -> KeptEvidence:
    """Every started team's evidence as of the refresh slot (`core.slots`), its days
    those of `tz`: for lists of many teams, where it is fifteen aggregates over the
    organisation's history (bench/routes.py at 10,000 people) — worked out once a slot and
    read back as a small dict of dates. A team's own checklist reads its own, live."""

    def work(as_of: datetime) -> KeptEvidence:
        with timezone.override(tz):
            return KeptEvidence(as_of, organisation_evidence(today=as_of.astimezone(tz).date()))

    return kept_per_slot(KEPT_AS, "rollout-evidence", tz=tz, now=now, work=work)


def progress_for(
    rollouts, *, today: date | None = None, evidence: dict | None = None
) -> dict[int, Progress]:
    """Rollout id → its checklist today. `rollouts` with their teams loaded
    (`select_related("team")`); no query at all for none. `evidence`: what
    `kept_evidence` kept (the ticks are read live all the same)."""
    rollouts = list(rollouts)
    if not rollouts:
        return {}
    today = today or timezone.localdate()
    if evidence is None:
        evidence = _evidence(rollouts, today)
    # 11. The ticks the leads made by hand.
    ticks = {
        (rollout_id, item): ticked_at
        # The ids as one array: Django spends milliseconds on 900 placeholders.
        for rollout_id, item, ticked_at in RolloutTick.objects.filter(
            one_of("rollout_id", [r.pk for r in rollouts]), item__in=MANUAL
        ).values_list("rollout_id", "item", "ticked_at")
    }
    progress = {}
    for rollout in rollouts:
        found = Progress(rollout=rollout, today=today)
        for item in ITEMS:
            if item.manual:
                done = (rollout.pk, item.key) in ticks
                done_on = _day(ticks.get((rollout.pk, item.key)))
            else:
                done = rollout.team_id in evidence[item.key]
                done_on = evidence[item.key].get(rollout.team_id)
            due_on = rollout.starts_on + timedelta(days=item.day)
            found.items.append(
                ItemStatus(
                    item=item,
                    due_on=due_on,
                    done=done,
                    done_on=done_on,
                    overdue=not done and today > due_on,
                )
            )
        progress[rollout.pk] = found
    return progress


def progress_of(rollout: Rollout, *, today: date | None = None) -> Progress:
    return progress_for([rollout], today=today)[rollout.pk]
