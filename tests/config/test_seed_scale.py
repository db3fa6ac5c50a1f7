"""`seed_scale` on a small organisation (200 people): the shape the benchmarks rely on,
rows that keep every invariant the app relies on, the same rows for the same seed and
day, and a refusal to touch a database that already has people.

Transactional: on PostgreSQL the rows are loaded (COPY) on a connection of their own,
which a test's surrounding transaction would not see."""

import hashlib
from collections import Counter, defaultdict
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.db.models import Count, Exists, F, OuterRef, Q

from cadence import engine
from cadence.models import CadencePlan, CalendarFeed, Closure, Occurrence, Rollout
from coaching.models import (
    CoachingSession,
    Commitment,
    CommitmentStatus,
    Diagnosis,
    FocusArea,
    Goal,
    NotesRevision,
    ParticipantRole,
    SessionKind,
    SessionParticipant,
    SessionRating,
    SessionStatus,
    SharedNotes,
    UsefulnessRelease,
)
from devdata.demo.people import DEMO_PASSWORD
from devdata.scale import org
from devdata.scale.notifications import RUNS_IT
from feedback.models import Direction, Feedback, FeedbackRequest, RequestedResponder, Stream
from learning.models import Experiment, Learning, PlaybookModule
from notifications.delivery import quiet_until
from notifications.models import (
    Notification,
    NotificationPreference,
    NotificationStatus,
    TeamChannel,
)
from notifications.retention import forget_old_notifications
from peers.models import Habit, HabitCheckIn, PairMember, PairNote, PeerPair, PeerRequest
from people.models import ReportingLine, ReportingVersion, Team, TeamMembership, User
from people.roles import GROUP_FOR_ROLE, Role
from scorecards.models import CriterionVersion, RoundContext, Score, Scorecard

TODAY = date(2026, 3, 4)  # a Wednesday: weeks are counted from the Monday before
NOW = datetime.combine(TODAY, time.min, tzinfo=UTC)

pytestmark = pytest.mark.django_db(transaction=True)


def seed(**options):
    call_command("seed_scale", people=200, today=TODAY, stdout=_Quiet(), **options)


class _Quiet:
    def __init__(self):
        self.lines = []

    def write(self, text):
        self.lines.append(text)

    def flush(self):
        pass


def test_it_builds_an_organisation_with_two_years_of_coaching_history():
    out = _Quiet()
    version = ReportingVersion.objects.values_list("value", flat=True).first()
    call_command("seed_scale", people=200, today=TODAY, stdout=out)
    printed = "".join(out.lines)
    # People written by COPY, maybe without triggers: what is kept of the reporting
    # lines (people.below) must not outlive the seed.
    assert ReportingVersion.objects.values_list("value", flat=True).first() != version

    _hierarchy_of_five_levels()
    _teams_led_by_managers_with_their_reports()
    _plans_and_occurrences_agree()
    _sessions_in_every_state_within_the_constraints()
    _peer_pairs_in_every_state_with_their_plans()
    _notes_and_commitments()
    _feedback_both_streams_every_direction()
    _scorecards_on_the_templates_criteria()
    _the_outbox_of_the_year_retention_keeps()
    _the_learning_loop_and_what_surrounds_it()
    _the_engine_carries_on_without_doubling(out)

    assert "Sign in as" in printed and DEMO_PASSWORD in printed
    lead_email = next(line for line in out.lines if "manager (team lead)" in line).split()[-1]
    assert User.objects.get(email=lead_email).check_password(DEMO_PASSWORD)


def _hierarchy_of_five_levels():
    assert User.objects.count() == 200
    managers = dict(User.objects.filter(is_active=True).values_list("pk", "reports_to_id"))
    heads = [pk for pk, boss in managers.items() if boss is None]
    assert len(heads) == 1, "every active person but the head has a manager"

    def depth(pk):
        steps = 0
        while managers[pk] is not None:
            pk, steps = managers[pk], steps + 1
        return steps

    assert max(depth(pk) for pk in managers) == 5  # head → VP → director → senior → manager → rep
    # The open reporting line mirrors reports_to; leavers have neither.
    open_lines = dict(
        ReportingLine.objects.filter(ended_at__isnull=True).values_list("report_id", "manager_id")
    )
    assert open_lines == {pk: boss for pk, boss in managers.items() if boss is not None}
    left = User.objects.filter(is_active=False)
    assert left.exists() and not left.filter(reports_to__isnull=False).exists()
    assert ReportingLine.objects.filter(ended_at__isnull=False).count() >= left.count()
    # HR and programme admins are in their groups; admins may use the admin site.
    hr = User.objects.filter(groups__name=GROUP_FOR_ROLE[Role.HR])
    admins = User.objects.filter(groups__name=GROUP_FOR_ROLE[Role.PROGRAMME_ADMIN])
    assert hr.exists() and admins.exists() and all(a.is_staff for a in admins)
    zones = set(User.objects.values_list("time_zone", flat=True))
    assert len(zones) >= 8 and {"Asia/Kolkata", "Australia/Sydney"} & zones


def _teams_led_by_managers_with_their_reports():
    teams = Team.objects.select_related("lead")
    assert teams.count() >= 15
    for team in teams:
        members = set(
            TeamMembership.objects.current().filter(team=team).values_list("person_id", flat=True)
        )
        reports = set(
            User.objects.filter(reports_to=team.lead, is_active=True).values_list("pk", flat=True)
        )
        assert members == reports, team.name
        assert 5 <= len(members) <= 14, team.name
    # Memberships and lines close together when someone moves or leaves.
    assert TeamMembership.objects.filter(left_at__isnull=False).exists()
    assert Rollout.objects.count() == teams.count()


def _plans_and_occurrences_agree():
    # One live plan per pair and kind.
    doubled = (
        CadencePlan.objects.live()
        .filter(coachee__isnull=False)
        .values("kind", "coach", "coachee")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
    )
    assert not doubled.exists()
    live_one_on_ones = set(
        CadencePlan.objects.live()
        .filter(kind=SessionKind.ONE_ON_ONE)
        .values_list("coach_id", "coachee_id")
    )
    active_pairs = set(
        User.objects.filter(is_active=True, reports_to__isnull=False).values_list(
            "reports_to_id", "pk"
        )
    )
    assert live_one_on_ones == active_pairs
    assert set(CadencePlan.objects.values_list("kind", flat=True)) >= {
        SessionKind.ONE_ON_ONE,
        SessionKind.TEAM_CALL_REVIEW,
        SessionKind.MANAGER_REVIEW,
        SessionKind.ROLE_PLAY,
    }
    assert not CadencePlan.objects.filter(ended_at__isnull=False, end_reason="").exists()
    # Every session has its occurrence; the occurrence's session is between the plan's
    # coach and coachee, of the plan's kind, at the slot.
    assert Occurrence.objects.count() == CoachingSession.objects.count()
    people = defaultdict(dict)
    for session_id, person_id, role in SessionParticipant.objects.values_list(
        "session_id", "person_id", "role"
    ):
        people[session_id].setdefault(role, []).append(person_id)
    for (
        plan_kind,
        coach,
        coachee,
        slot,
        session_id,
        kind,
        original,
    ) in Occurrence.objects.values_list(
        "plan__kind",
        "plan__coach_id",
        "plan__coachee_id",
        "slot_start",
        "session_id",
        "session__kind",
        "session__original_start",
    ):
        assert kind == plan_kind and slot == original
        if kind == SessionKind.PEER:
            assert set(people[session_id]) == {ParticipantRole.PEER}
            assert {coach, coachee} <= set(people[session_id][ParticipantRole.PEER])
        elif coachee is not None:
            assert people[session_id] == {
                ParticipantRole.COACH: [coach],
                ParticipantRole.COACHEE: [coachee],
            }
        elif kind == SessionKind.TEAM_CALL_REVIEW:
            assert people[session_id][ParticipantRole.MANAGER] == [coach]
            assert len(people[session_id][ParticipantRole.HOST]) == 1
        else:
            assert people[session_id][ParticipantRole.COACH] == [coach]


def _peer_pairs_in_every_state_with_their_plans():
    pairs = PeerPair.objects.all()
    statuses = Counter(pair.status for pair in pairs)
    assert statuses["active"] >= 3 and statuses["ended"] >= 3, statuses
    # Nobody is in two live pairs; a started pair's members all accepted before it started.
    live = PairMember.objects.filter(pair__ended_at__isnull=True, left_at__isnull=True)
    assert not live.values("person").annotate(n=Count("pk")).filter(n__gt=1).exists()
    started = PairMember.objects.filter(pair__started_at__isnull=False)
    assert not started.filter(
        Q(accepted_at__isnull=True) | Q(accepted_at__gt=F("pair__started_at"))
    ).exists()
    # A started pair has had one plan, live while the pair is, ended with it; a pair
    # that never started has none.
    for pair in pairs.prefetch_related("plans"):
        plans = list(pair.plans.all())
        assert len(plans) == (1 if pair.started_at else 0), pair.pk
        for plan in plans:
            assert plan.kind == SessionKind.PEER
            assert (plan.ended_at is None) == (pair.ended_at is None)
            assert plan.end_reason == ("pair_ended" if pair.ended_at else "")
    held = CoachingSession.objects.filter(kind=SessionKind.PEER, status=SessionStatus.HELD)
    assert held.exists() and not held.filter(held_at__gt=NOW).exists()
    _what_a_pair_keeps_between_sessions()


def _what_a_pair_keeps_between_sessions():
    """Habits of the pair's members from when it started, at most two kept at once;
    check-ins by a partner at a held session of the pair, of a habit kept then; notes
    by a member while the pair ran."""
    members = set(PairMember.objects.values_list("pair_id", "person_id"))
    pairs = {p.pk: p for p in PeerPair.objects.all()}
    habits = {h.pk: h for h in Habit.objects.all()}
    assert habits and any(h.retired_at for h in habits.values())
    for habit in habits.values():
        pair = pairs[habit.pair_id]
        assert (habit.pair_id, habit.owner_id) in members
        assert pair.started_at <= habit.created_at <= NOW
        assert habit.retired_at is None or habit.created_at < habit.retired_at <= NOW
        kept_then = [
            h
            for h in habits.values()
            if (h.pair_id, h.owner_id) == (habit.pair_id, habit.owner_id)
            and h.created_at <= habit.created_at
            and (h.retired_at is None or h.retired_at > habit.created_at)
        ]
        assert len(kept_then) <= 2, habit.pk

    check_ins = HabitCheckIn.objects.select_related("session")
    assert check_ins.exists() and check_ins.exclude(note="").exists()
    assert set(check_ins.values_list("outcome", flat=True)) == {"kept", "partly", "not_yet"}
    in_session = set(SessionParticipant.objects.values_list("session_id", "person_id"))
    plan_of_pair = dict(CadencePlan.objects.filter(pair__isnull=False).values_list("pk", "pair"))
    pair_of_session = {
        session: plan_of_pair[plan]
        for session, plan in Occurrence.objects.filter(plan__in=plan_of_pair).values_list(
            "session_id", "plan_id"
        )
    }
    for check_in in check_ins:
        habit, session = habits[check_in.habit_id], check_in.session
        assert check_in.checked_by_id != habit.owner_id
        assert (habit.pair_id, check_in.checked_by_id) in members
        assert session.status == SessionStatus.HELD and pair_of_session[session.pk] == habit.pair_id
        assert (session.pk, check_in.checked_by_id) in in_session
        assert habit.created_at < session.scheduled_start
        assert check_in.created_at <= min(pairs[habit.pair_id].ended_at or NOW, NOW)
        assert habit.retired_at is None or habit.retired_at > check_in.created_at
        assert abs(check_in.checked_on - session.scheduled_start.date()) <= timedelta(days=1)

    notes = PairNote.objects.all()
    assert notes.exists()
    for note in notes:
        pair = pairs[note.pair_id]
        assert (note.pair_id, note.author_id) in members
        assert pair.started_at < note.created_at <= min(pair.ended_at or NOW, NOW)


def _role_plays_practise_the_area_the_engine_picks(role_plays):
    """The latest started focus area that applies to the team on the day, in the
    plan's time zone (`cadence.engine`'s rule); some teams have one of their own."""
    areas = list(FocusArea.objects.prefetch_related("teams").order_by("-starts_on", "pk"))
    own = [a for a in areas if a.teams.exists()]
    assert own and all(a.ends_on is None and a.starts_on <= NOW.date() for a in own)
    practised_own = 0
    for session in role_plays.select_related("occurrence__plan"):
        day = session.original_start.astimezone(ZoneInfo(session.occurrence.plan.time_zone)).date()
        expected = next(
            area
            for area in areas
            if area.starts_on <= day
            and (area.ends_on is None or day <= area.ends_on)
            and (not area.teams.all() or session.team_id in {t.pk for t in area.teams.all()})
        )
        assert session.focus_area_id == expected.pk, session.pk
        practised_own += bool(expected.teams.all())
    assert practised_own, "a team's own area was practised"


def _sessions_in_every_state_within_the_constraints():
    sessions = CoachingSession.objects.all()
    assert set(sessions.values_list("status", flat=True)) == set(SessionStatus.values)
    assert not sessions.filter(scheduled_end__lt=F("scheduled_start")).exists()
    for start, end, minutes in sessions.values_list(
        "scheduled_start", "scheduled_end", "duration_minutes"
    )[:2000]:
        assert end - start == timedelta(minutes=minutes)
    held = sessions.filter(status=SessionStatus.HELD)
    assert not held.filter(held_at__isnull=True).exists()
    assert not held.filter(held_at__gt=NOW).exists()
    assert held.filter(~Q(scheduled_start=F("original_start"))).exists(), "some were moved"
    assert held.filter(missed_at__isnull=False).exists(), "some logged after the sweep"
    assert not sessions.exclude(status=SessionStatus.HELD).filter(held_at__isnull=False).exists()
    cancelled = sessions.filter(status=SessionStatus.CANCELLED)
    assert not cancelled.filter(Q(cancel_reason="") | Q(cancelled_at__isnull=True)).exists()
    assert not cancelled.filter(cancelled_at__gt=NOW).exists()
    assert len(set(cancelled.values_list("cancel_reason", flat=True))) >= 5
    missed = sessions.filter(status=SessionStatus.MISSED)
    assert not missed.filter(missed_at__isnull=True).exists()
    assert not missed.filter(missed_at__gt=NOW).exists()
    ahead = sessions.filter(status=SessionStatus.SCHEDULED, scheduled_start__gte=NOW)
    assert ahead.count() > 1000, "the weeks ahead are planned"
    assert not sessions.filter(scheduled_start__gte=NOW + timedelta(weeks=7)).exists()
    assert sessions.filter(status=SessionStatus.SCHEDULED, scheduled_start__lt=NOW).exists()
    # Held but empty exactly as coaching.services.is_held_but_empty decides it: nothing
    # written and nothing committed, or the last session's notes copied.
    written = (
        ~Q(notes__reality="") | ~Q(notes__options="") | ~Q(notes__will="") | ~Q(notes__notes="")
    )
    committed = Exists(Commitment.objects.filter(created_in=OuterRef("pk")))
    assert not held.filter(held_but_empty=False).exclude(written | Q(committed)).exists()
    assert not held.filter(held_but_empty=True).filter(committed).exists()
    assert held.filter(held_but_empty=True).filter(written).exists(), "some notes were copied"
    assert SharedNotes.objects.count() == sessions.count()
    # One revision per save.
    assert not SharedNotes.objects.annotate(n=Count("revisions")).exclude(version=F("n")).exists()
    assert NotesRevision.objects.exists()
    role_plays = sessions.filter(kind=SessionKind.ROLE_PLAY)
    assert role_plays.exists() and not role_plays.filter(focus_area__isnull=True).exists()
    _role_plays_practise_the_area_the_engine_picks(role_plays)
    assert not sessions.filter(kind=SessionKind.TEAM_CALL_REVIEW, team__isnull=True).exists()


def _notes_and_commitments():
    commitments = Commitment.objects.all()
    statuses = Counter(commitments.values_list("status", flat=True))
    assert statuses[CommitmentStatus.DONE] > statuses[CommitmentStatus.OPEN] > 0
    assert statuses[CommitmentStatus.DROPPED] > 0
    assert commitments.filter(status=CommitmentStatus.OPEN, due_on__lt=TODAY).exists()
    assert (
        not commitments.exclude(status=CommitmentStatus.OPEN)
        .filter(closed_at__isnull=True)
        .exists()
    )
    # Closed in a session its owner took part in, after it was made.
    for owner, closed_in, made, closed in commitments.filter(closed_in__isnull=False).values_list(
        "owner_id", "closed_in_id", "created_at", "closed_at"
    )[:500]:
        assert SessionParticipant.objects.filter(session_id=closed_in, person_id=owner).exists()
        assert closed >= made
    assert Goal.objects.filter(status="active").exists()
    assert SessionRating.objects.exists()
    assert not SessionRating.objects.filter(rater=F("coach")).exists()
    # Usefulness counted where beat's hourly run would have left it today.
    assert UsefulnessRelease.objects.exists()


def _feedback_both_streams_every_direction():
    pairs = set(Feedback.objects.values_list("stream", "direction"))
    for direction in (Direction.DOWNWARD, Direction.UPWARD, Direction.PEER):
        assert (Stream.DEVELOPMENTAL, direction) in pairs
    assert (Stream.EVALUATIVE, Direction.DOWNWARD) in pairs
    counts = Counter(Feedback.objects.values_list("stream", flat=True))
    assert counts[Stream.DEVELOPMENTAL] > 5 * counts[Stream.EVALUATIVE] > 0
    assert Feedback.objects.filter(anonymous=True).exists()
    assert not Feedback.objects.filter(anonymous=True).exclude(direction=Direction.UPWARD).exists()
    assert Feedback.objects.filter(request__isnull=False).exists()
    assert FeedbackRequest.objects.filter(responders__status="waiting").exists()
    acknowledged = Feedback.objects.filter(acknowledged_at__isnull=False)
    assert acknowledged.filter(themes__isnull=False).exists()
    assert not acknowledged.filter(acknowledged_at__lt=F("created_at")).exists()
    # Downward means the author was above the recipient when writing (here: now, for
    # people who never moved).
    stayed = User.objects.annotate(lines=Count("reporting_history")).filter(lines=1, is_active=True)
    boss = dict(User.objects.values_list("pk", "reports_to_id"))
    for author, recipient in Feedback.objects.filter(
        direction=Direction.DOWNWARD, recipient__in=stayed, author__in=stayed
    ).values_list("author_id", "recipient_id"):
        chain, pk = set(), recipient
        while pk is not None:
            pk = boss[pk]
            chain.add(pk)
        assert author in chain


def _scorecards_on_the_templates_criteria():
    cards = Scorecard.objects.filter(submitted_at__isnull=False)
    assert cards.count() > 500
    assert set(cards.values_list("context", flat=True)) >= {
        RoundContext.COACH,
        RoundContext.SELF,
        RoundContext.PEER,
    }
    assert not Score.objects.exclude(criterion__version=F("scorecard__version")).exists()
    assert not Scorecard.objects.exclude(version=F("round__version")).exists()
    assert not Scorecard.objects.exclude(subject=F("round__work__person")).exists()
    criteria = dict(
        CriterionVersion.objects.values("version")
        .annotate(n=Count("pk"))
        .values_list("version", "n")
    )
    for version, scored in cards.annotate(n=Count("scores")).values_list("version", "n")[:1000]:
        assert scored == criteria[version]
    assert not Score.objects.filter(rating__gt=F("criterion__scale_max")).exists()
    current = FocusArea.objects.active_on(TODAY)
    assert current.exists() and all(area.criteria.exists() for area in current)


def _as_each_person_asked(outbox):
    """Emailed, unless the recipient turned that kind off (in the app only) or it came
    in their quiet hours (sent when those ended, or still waiting for them)."""
    statuses = set(outbox.values_list("status", flat=True))
    assert {NotificationStatus.SENT, NotificationStatus.SKIPPED} <= statuses
    assert statuses <= {
        NotificationStatus.SENT,
        NotificationStatus.SKIPPED,
        NotificationStatus.PENDING,
    }
    preferences = {p.person_id: p for p in NotificationPreference.objects.all()}
    assert preferences and any(p.quiet_from for p in preferences.values())
    zones = dict(User.objects.values_list("pk", "time_zone"))
    rows = outbox.filter(recipient__in=preferences).values_list(
        "recipient_id", "kind", "status", "sent_at", "next_attempt_at"
    )
    for person, kind, status, sent_at, waits in rows:
        preference = preferences[person]
        if not preference.wants_email(kind):
            assert status == NotificationStatus.SKIPPED, (person, kind)
        elif status == NotificationStatus.PENDING:
            assert sent_at is None and waits > NOW and quiet_until(preference, zones[person], NOW)
        else:
            assert status == NotificationStatus.SENT, (person, kind)
            assert quiet_until(preference, zones[person], sent_at) is None, (person, sent_at)
    assert (
        not outbox.exclude(recipient__in=preferences)
        .exclude(status=NotificationStatus.SENT)
        .exists()
    ), "the defaults email everything"


def _the_outbox_of_the_year_retention_keeps():
    sent = Notification.objects.all()
    assert set(sent.values_list("kind", flat=True)) == {
        "upcoming", "missed", "digest", "escalation", "feedback_asked", "feedback_due",
        "pair_invited", "peer_asked",
    }  # fmt: skip
    _as_each_person_asked(sent)
    kept_from = NOW - timedelta(days=settings.NOTIFICATION_RETENTION_DAYS)
    assert not sent.filter(Q(created_at__lt=kept_from) | Q(created_at__gt=NOW)).exists()
    assert not sent.filter(Q(sent_at__lt=F("created_at")) | Q(read_at__lt=F("sent_at"))).exists()
    assert not sent.filter(read_at__gt=NOW).exists()
    assert 0.2 < sent.filter(read_at__isnull=False).count() / sent.count() < 0.6
    # A reminder to everyone in each session still on the day before it, then.
    ahead = timedelta(hours=settings.CADENCE_REMINDER_HOURS)
    reminders = sent.filter(kind="upcoming")
    assert not reminders.filter(created_at__lt=F("session__scheduled_start") - ahead).exists()
    assert not reminders.filter(
        session__cancelled_at__lt=F("session__scheduled_start") - ahead
    ).exists()
    held = CoachingSession.objects.filter(
        status=SessionStatus.HELD,
        scheduled_start__gte=kept_from + ahead,
        scheduled_start__lt=NOW,
    ).order_by("pk")[:50]
    for session in held:
        people = set(session.participants.values_list("person_id", flat=True))
        told = set(reminders.filter(session=session).values_list("recipient_id", flat=True))
        assert told == people, session.pk
    # "Missed" to whoever runs a missed session, when the sweep found it.
    missed = sent.filter(kind="missed")
    assert missed.exists()
    assert not missed.exclude(session__status=SessionStatus.MISSED).exists()
    assert not missed.exclude(created_at=F("session__missed_at")).exists()
    runners = SessionParticipant.objects.filter(
        session=OuterRef("session"), person=OuterRef("recipient"), role__in=RUNS_IT
    )
    assert not missed.exclude(Exists(runners)).exists()
    # A digest every Monday to every manager.
    digests = sent.filter(kind="digest")
    managers = set(User.objects.filter(direct_reports__is_active=True).values_list("pk", flat=True))
    assert set(digests.values_list("recipient_id", flat=True)) == managers
    for created_at, period in digests.values_list("created_at", "period")[:200]:
        assert created_at.weekday() == 0 and period == engine.iso_week(created_at)
    # "Sessions keep being missed" to the coach's manager, for a missed session of the
    # plan that made a run of at least CADENCE_ESCALATE_AFTER.
    escalations = sent.filter(kind="escalation")
    assert escalations.exists()
    assert not escalations.exclude(session__status=SessionStatus.MISSED).exists()
    assert not escalations.exclude(created_at=F("session__missed_at")).exists()
    assert not escalations.exclude(session__occurrence__plan=F("plan")).exists()
    n = settings.CADENCE_ESCALATE_AFTER
    # In the order of the plan's slots, as the engine counts a run (a session moved
    # earlier, then missed, still ends the run of its own slot).
    slots = escalations.values_list("pk", "plan_id", "session__occurrence__slot_start")
    for pk, plan, slot in slots[:50]:
        latest = (
            Occurrence.objects.filter(plan=plan, slot_start__lte=slot)
            .exclude(session__status=SessionStatus.SCHEDULED)
            .order_by("-slot_start")
            .values_list("session__status", flat=True)[:n]
        )
        assert list(latest) == [SessionStatus.MISSED] * n, pk
    # Feedback: each person asked, when asked; "due" only to those still waiting then.
    asked = sent.filter(kind="feedback_asked")
    assert not asked.exclude(created_at=F("feedback_request__created_at")).exists()
    due = sent.filter(kind="feedback_due")
    assert due.exists()
    answered_before = RequestedResponder.objects.filter(
        request=OuterRef("feedback_request"),
        responder=OuterRef("recipient"),
        answered_at__lte=OuterRef("created_at"),
    )
    assert not due.filter(Exists(answered_before)).exists()
    # Pair invitations to members but whoever formed the pair; peer requests to managers.
    invited = sent.filter(kind="pair_invited")
    assert invited.exists() and not invited.filter(recipient=F("pair__created_by")).exists()
    assert not invited.exclude(created_at=F("pair__created_at")).exists()
    assert sent.filter(kind="peer_asked").count() == PeerRequest.objects.count()
    # Nothing is old enough for beat's retention yet; a month on, the oldest go.
    assert forget_old_notifications(now=NOW) == 0
    assert forget_old_notifications(now=NOW + timedelta(days=30)) > 0


def _the_learning_loop_and_what_surrounds_it():
    # Most teams picked the core playbook; the install plans read it.
    teams = Team.objects.count()
    assert (
        PlaybookModule.teams.through.objects.filter(playbookmodule__department="core").count()
        > teams * 0.8
    )
    # Diagnoses: by the coachee's manager at the time, landing on the first "no".
    diagnoses = list(Diagnosis.objects.select_related("coachee"))
    assert len(diagnoses) > 1000
    lines = ReportingLine.objects.values_list("report_id", "manager_id", "started_at", "ended_at")
    by_report = {}
    for report, manager, started, ended in lines:
        by_report.setdefault(report, []).append((manager, started, ended))
    for d in diagnoses[:500]:
        assert any(
            m == d.author_id and s <= d.created_at and (e is None or d.created_at < e)
            for m, s, e in by_report[d.coachee_id]
        )
        answers = [d.knows_how, d.believes, d.has_framework, d.has_system]
        if d.gap == "none":
            assert answers == [True] * 4
        else:
            first_no = answers.index(False)
            assert answers[:first_no] == [True] * first_no and set(answers[first_no + 1 :]) <= {
                None
            }
    assert {d.gap for d in diagnoses} == {"skill", "will", "knowledge", "system", "none"}
    # Experiments in every state but planned (only the last days' are), in order.
    experiments = Experiment.objects.all()
    assert {"done", "dropped", "running"} <= set(experiments.values_list("status", flat=True))
    assert not experiments.filter(status="done", result="").exists()
    assert not experiments.filter(finished_at__gte=NOW).exists()
    assert (
        not experiments.exclude(started_at__isnull=True)
        .filter(started_at__lt=F("created_at"))
        .exists()
    )
    # Learnings: for a team (with one) or everyone, tagged; some written up from experiments.
    learnings = Learning.objects.all()
    assert (
        learnings.filter(audience="team").exists()
        and learnings.filter(audience="organisation").exists()
    )
    assert not learnings.filter(audience="team", team__isnull=True).exists()
    assert learnings.filter(experiment__isnull=False).exists()
    assert Learning.tags.through.objects.count() >= learnings.count()
    # Nobody in a live pair is asking for a peer.
    live = PairMember.objects.filter(left_at__isnull=True, pair__ended_at__isnull=True)
    assert PeerRequest.objects.exists()
    assert not PeerRequest.objects.filter(person__in=live.values("person")).exists()
    assert TeamChannel.objects.exists() and CalendarFeed.objects.exists()
    # The closure is past the horizon: nothing planned falls on it.
    closure = Closure.objects.get()
    assert closure.first_day > (NOW + timedelta(weeks=6)).date()
    assert not CoachingSession.objects.filter(scheduled_start__date__gte=closure.first_day).exists()


def _the_engine_carries_on_without_doubling(out):
    # Everything up to the horizon is there: generating now makes nothing new...
    assert engine.occurrences_generate(now=NOW) == 0
    # ...and a week on, the engine adds the next slots without tripping on any.
    assert engine.occurrences_generate(now=NOW + timedelta(weeks=1)) > 0


SEEDED = [
    "cadence.Closure",
    "cadence.CalendarFeed",
    "notifications.TeamChannel",
    "peers.PeerRequest",
    "learning.Learning_tags",
    "learning.LearningTag",
    "learning.Learning",
    "learning.Experiment",
    "coaching.Diagnosis",
    "learning.PlaybookModule_teams",
    "notifications.NotificationPreference",
    "notifications.Notification",
    "scorecards.Score",
    "scorecards.Scorecard",
    "scorecards.RoundRater",
    "scorecards.ScoringRound",
    "scorecards.RecordedCall",
    "feedback.Win",
    "feedback.RequestedResponder",
    "feedback.FeedbackShare",
    "feedback.Feedback_themes",
    "feedback.Feedback",
    "feedback.FeedbackRequest",
    "peers.PairNote",
    "peers.HabitCheckIn",
    "peers.Habit",
    "coaching.UsefulnessRelease",
    "coaching.SessionRating",
    "coaching.PrivateNote",
    "coaching.AgendaItem",
    "coaching.Commitment",
    "cadence.Occurrence",
    "coaching.NotesRevision",
    "coaching.SharedNotes",
    "coaching.SessionParticipant",
    "coaching.CoachingSession",
    "cadence.CadencePlan",
    "peers.PairMember",
    "peers.PeerPair",
    "coaching.Goal",
    "coaching.FocusArea_teams",
    "coaching.FocusArea_criteria",
    "coaching.FocusArea",
    "cadence.RolloutTick",
    "cadence.Rollout",
    "cadence.PolicyAssignment",
    "people.AuditEvent",
    "people.User_groups",
    "people.TeamMembership",
    "people.Team",
    "people.ReportingLine",
    "people.User",
]


def _fingerprint() -> str:
    """A hash of canonical columns of the big tables, in id order, and every count."""
    digest = hashlib.sha256()
    for query in (
        User.objects.order_by("pk").values_list("pk", "email", "time_zone", "reports_to_id"),
        CoachingSession.objects.order_by("pk").values_list(
            "pk", "kind", "status", "scheduled_start", "original_start", "held_but_empty"
        ),
        Feedback.objects.order_by("pk").values_list(
            "pk", "stream", "direction", "author_id", "recipient_id", "created_at"
        ),
        Score.objects.order_by("pk").values_list("pk", "scorecard_id", "criterion_id", "rating"),
        Commitment.objects.order_by("pk").values_list("pk", "owner_id", "status", "due_on"),
        Notification.objects.order_by("pk").values_list(
            "pk", "kind", "recipient_id", "session_id", "period", "created_at", "read_at"
        ),
    ):
        for row in query.iterator():
            digest.update(repr(row).encode())
    from django.apps import apps

    for label in SEEDED:
        app, name = label.split(".")
        model = (
            getattr(apps.get_model(app, name.split("_")[0]), name.split("_")[1]).through
            if "_" in name
            else apps.get_model(app, name)
        )
        digest.update(f"{label}={model.objects.count()}".encode())
    return digest.hexdigest()


def _empty_what_was_seeded():
    from django.apps import apps

    q = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        for label in SEEDED:
            app, name = label.split(".")
            model = (
                getattr(apps.get_model(app, name.split("_")[0]), name.split("_")[1]).through
                if "_" in name
                else apps.get_model(app, name)
            )
            cursor.execute(f"DELETE FROM {q(model._meta.db_table)}")  # noqa: S608


def test_it_gives_the_same_rows_for_the_same_seed_and_day_and_never_seeds_over_people():
    seed(years=1)
    first = _fingerprint()

    with pytest.raises(CommandError, match="fresh database"):
        seed(years=1)

    _empty_what_was_seeded()
    seed(years=1)
    assert _fingerprint() == first

    # Another seed, another organisation.
    clock = org.Clock(today=TODAY, years=1)
    assert [p.email for p in org.build(n=200, seed=7, clock=clock).people] != list(
        User.objects.order_by("pk").values_list("email", flat=True)
    )


def test_it_refuses_a_database_with_people_in_it(django_user_model):
    django_user_model.objects.create_user(
        email="someone@example.com", password="x", display_name="S"
    )
    with pytest.raises(CommandError, match="already has 1 people"):
        seed()
    assert CoachingSession.objects.count() == 0
