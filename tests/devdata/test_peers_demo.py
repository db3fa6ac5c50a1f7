"""The demo's peer coaching and learning loop (`devdata.demo.peers`, and the pairs'
plans and install plans of `devdata.demo.rollout`) on a fully seeded organisation:
the history's peer pairs as pairs with their notes, habits and check-ins, a trio, an
invitation waiting for a rep, a pair someone left and one that ended; live pair
plans that carry on after the pairs' own bookings; experiments in every state; a
library of a dozen learnings and more; diagnoses; playbook picks; install plans at
different stages — and running `seed_demo` again adds nothing."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Count
from django.utils import timezone
from django.utils.html import escape

from cadence.models import CadencePlan, Closure, EndReason, Occurrence, Rollout, RolloutTick
from cadence.rollout import MANUAL, progress_for
from coaching.models import CoachingSession, Diagnosis, GapType, SessionKind, SessionStatus
from devdata.demo.coaching import PEER_PAIRS
from devdata.demo.people import TEAMS
from learning.models import (
    Audience,
    Experiment,
    ExperimentStatus,
    Learning,
    LearningKind,
    LearningTag,
    PlaybookModule,
)
from learning.selectors import LibraryFilters, library
from notifications.models import Notification, NotificationKind, NotificationStatus
from peers.models import (
    CheckInOutcome,
    Habit,
    HabitCheckIn,
    PairMember,
    PairNote,
    PeerPair,
    PeerRequest,
)
from peers.selectors import member_state, my_pairs
from people.models import Team, User

MANAGERS = {"sofia.alvarez", "marcus.chen", "lena.fischer", "daniel.mensah"}


def _person(key):
    return User.objects.get(email=f"{key}@example.com")


def _break_within(*, weeks: int) -> bool:
    today = timezone.localdate()
    return Closure.objects.filter(
        last_day__gte=today, first_day__lte=today + timedelta(weeks=weeks)
    ).exists()


def _members(pair):
    return {m.person_id for m in pair.members.filter(left_at__isnull=True)}


def _pair_of(*keys):
    ids = {_person(k).pk for k in keys}
    found = [p for p in PeerPair.objects.all() if {m.person_id for m in p.members.all()} == ids]
    assert len(found) == 1, keys
    return found[0]


def _counts():
    return {
        model.__name__: model.objects.count()
        for model in (
            PeerPair,
            PairMember,
            PairNote,
            Habit,
            HabitCheckIn,
            Experiment,
            Learning,
            LearningTag,
            Diagnosis,
            Rollout,
            RolloutTick,
            CadencePlan,
            Occurrence,
            CoachingSession,
            Notification,
        )
    }


class TestDemoPeers:
    @pytest.mark.django_db
    def test_the_historys_peer_pairs_are_pairs_formed_by_their_lead_weeks_ago(self):
        now = timezone.now()
        daniel = _person("daniel.mensah")
        for a_key, b_key, *_ in PEER_PAIRS:
            pair = _pair_of(a_key, b_key)
            assert pair.status == "active", pair
            a, b = _person(a_key), _person(b_key)
            leads = {
                t.lead_id for t in Team.objects.filter(memberships__person__in=[a, b]).distinct()
            }
            # The lead of both, or (two teams) the head of sales above both leads.
            assert pair.created_by_id == (leads.pop() if len(leads) == 1 else daniel.pk)
            assert pair.rationale in ("complementary", "similar") and pair.rationale_note
            assert pair.started_at < now - timedelta(weeks=2)
            for member in pair.members.all():
                assert pair.created_at <= member.accepted_at <= pair.started_at
        # Where the demo has the scores, the rationale quotes them.
        assert PeerPair.objects.filter(rationale_note__contains="scores on").exists()

    @pytest.mark.django_db
    def test_a_trio_an_invitation_a_rep_sees_a_pair_someone_left_and_one_that_ended(self, client):
        pairs = list(PeerPair.objects.prefetch_related("members"))
        trios = [p for p in pairs if p.status == "active" and len(_members(p)) == 3]
        assert len(trios) == 1
        forming = [p for p in pairs if p.status == "forming"]
        assert len(forming) == 1
        states = [bool(m.accepted_at) for m in forming[0].members.all()]
        assert sorted(states) == [False, True]
        aisha = _person("aisha.bello")
        assert [p.pk for p in my_pairs(user=aisha).waiting] == [forming[0].pk]
        # Every member was invited when their pair was formed; Aisha has yet to answer.
        invitations = Notification.objects.filter(kind=NotificationKind.PAIR_INVITED)
        assert invitations.count() == PairMember.objects.count()
        assert not invitations.exclude(status=NotificationStatus.SENT).exists()
        for invitation in invitations.select_related("pair"):
            assert invitation.created_at == invitation.pair.created_at
        unread = invitations.filter(read_at__isnull=True)
        assert list(unread.values_list("recipient", "pair")) == [(aisha.pk, forming[0].pk)]
        # A rep on each team asked for a peer; each lead was told when they asked.
        asked = PeerRequest.objects.select_related("person__reports_to")
        assert sorted(r.person.reports_to.email for r in asked) == [
            "lena.fischer@example.com", "marcus.chen@example.com", "sofia.alvarez@example.com",
        ]  # fmt: skip
        told = Notification.objects.filter(kind=NotificationKind.PEER_ASKED)
        assert {(n.recipient_id, n.created_at) for n in told} == {
            (r.person.reports_to_id, r.created_at) for r in asked
        }
        assert not told.exclude(status=NotificationStatus.SENT).exists()

        ended = [p for p in pairs if p.status == "ended"]
        left = [p for p in ended if p.members.filter(left_at__isnull=False).exists()]
        closed = [p for p in ended if p not in left]
        assert len(left) == 1 and len(closed) == 1
        leaver = left[0].members.get(left_at__isnull=False)
        assert member_state(leaver, left[0]) == "left"
        assert leaver.left_reason
        # The reason is for the programme admin only.
        reason = escape(leaver.left_reason)
        client.force_login(_person("ada.okafor"))
        assert reason in client.get("/peers/overview/").content.decode()
        partner = left[0].members.exclude(pk=leaver.pk).get().person
        for reader in (partner, leaver.person, left[0].created_by):
            client.force_login(reader)
            page = client.get(f"/peers/{left[0].pk}/")
            assert page.status_code == 200
            assert reason not in page.content.decode()

    @pytest.mark.django_db
    def test_started_pairs_keep_notes_habits_and_check_ins_from_past_weeks(self):
        now = timezone.now()
        started = PeerPair.objects.filter(started_at__isnull=False)
        assert started.count() == 6
        outcomes = set()
        for pair in started:
            assert pair.notes.exists(), pair
            assert not pair.notes.filter(created_at__lt=pair.started_at).exists()
            for member in pair.members.all():
                habits = pair.habits.filter(owner=member.person)
                assert 1 <= habits.count() <= 3, (pair, member)
                assert habits.active().count() <= 3
            for check_in in HabitCheckIn.objects.filter(habit__pair=pair).select_related("habit"):
                assert check_in.checked_by_id != check_in.habit.owner_id
                assert check_in.created_at < now
                assert check_in.checked_on >= timezone.localdate(pair.started_at) - timedelta(1)
                outcomes.add(check_in.outcome)
        assert outcomes == set(CheckInOutcome.values)
        assert Habit.objects.filter(retired_at__isnull=False).exists()
        weeks = {c.checked_on.isocalendar()[1] for c in HabitCheckIn.objects.all()}
        assert len(weeks) >= 6

    @pytest.mark.django_db
    def test_live_pairs_meet_through_their_plan_after_their_own_bookings(self):
        now = timezone.now()
        today = timezone.localdate()
        live = PeerPair.objects.filter(started_at__isnull=False, ended_at__isnull=True)
        assert live.count() == 4
        for pair in live:
            plan = CadencePlan.objects.live().get(pair=pair)
            assert plan.kind == SessionKind.PEER and plan.starts_on > today
            assert plan.interval_weeks == pair.interval_weeks
            sessions = CoachingSession.objects.filter(occurrence__plan=plan)
            # Two ahead, or one when the winter break took the other.
            ahead = sessions.filter(scheduled_start__gt=now).count()
            assert ahead >= (1 if _break_within(weeks=6) else 2), pair
            assert not sessions.exclude(status=SessionStatus.SCHEDULED).exists()
            for session in sessions:
                people = set(session.participants.values_list("person_id", flat=True))
                assert people == _members(pair), pair
            # No clash: the plan starts after the last session they booked by hand.
            booked = CoachingSession.objects.filter(kind=SessionKind.PEER, occurrence=None)
            for person_id in _members(pair):
                booked = booked.filter(participants__person_id=person_id)
            last = booked.order_by("-scheduled_start").first()
            if last is not None:
                first = sessions.order_by("scheduled_start").first()
                assert first.scheduled_start - last.scheduled_start >= timedelta(weeks=1)
        for pair in PeerPair.objects.filter(ended_at__isnull=False):
            plan = CadencePlan.objects.get(pair=pair)
            assert plan.end_reason == EndReason.PAIR_ENDED
            assert plan.ended_at == pair.ended_at and plan.created_at == pair.started_at
            assert not Occurrence.objects.filter(
                plan=plan, session__status=SessionStatus.SCHEDULED
            ).exists()
        forming = PeerPair.objects.get(started_at__isnull=True)
        assert not CadencePlan.objects.filter(pair=forming).exists()

    @pytest.mark.django_db
    def test_experiments_are_in_every_state_linked_and_in_the_past(self):
        now = timezone.now()
        experiments = Experiment.objects.select_related("owner")
        assert set(experiments.values_list("status", flat=True)) == set(ExperimentStatus.values)
        owners = {e.owner.email.split("@")[0] for e in experiments}
        assert len(owners & MANAGERS) >= 3 and len(owners - MANAGERS) >= 8
        for link in ("pair", "session", "commitment", "focus_area"):
            assert experiments.filter(**{f"{link}__isnull": False}).exists(), link
        assert experiments.filter(hypothesis="Leading with the conclusion keeps the room").exists()
        for experiment in experiments:
            assert experiment.created_at < now
            if experiment.started_at:
                assert experiment.created_at <= experiment.started_at < now
            if experiment.finished_at:
                assert (experiment.started_at or experiment.created_at) <= experiment.finished_at
            if experiment.status == ExperimentStatus.DONE:
                assert experiment.result and experiment.learning
            if experiment.status == ExperimentStatus.PLANNED:
                assert experiment.started_at is None
        for experiment in experiments.filter(pair__isnull=False):
            assert experiment.pair.members.filter(person=experiment.owner).exists()

    @pytest.mark.django_db
    def test_the_library_holds_a_dozen_learnings_and_more_for_both_audiences(self):
        now = timezone.now()
        learnings = Learning.objects.all()
        assert learnings.count() >= 12
        audiences = dict(learnings.values_list("audience").annotate(n=Count("pk")).order_by())
        assert audiences[Audience.TEAM] >= 2
        assert audiences[Audience.ORGANISATION] > audiences[Audience.TEAM]
        assert set(learnings.values_list("kind", flat=True)) == set(LearningKind.values)
        assert learnings.values("author").distinct().count() >= 8
        tags = set(LearningTag.objects.values_list("name", flat=True))
        assert tags >= {
            "discovery",
            "objections",
            "pricing",
            "multi-threading",
            "listening",
            "retrospectives",
        }
        assert not learnings.annotate(n=Count("tags")).filter(n=0).exists()
        from_experiments = learnings.filter(experiment__isnull=False).select_related("experiment")
        assert from_experiments.count() >= 4
        for learning in from_experiments:
            assert learning.experiment.status == ExperimentStatus.DONE
            assert learning.experiment.owner_id == learning.author_id
            assert learning.published_at >= learning.experiment.finished_at
        dates = sorted(learnings.values_list("published_at", flat=True))
        assert dates[-1] < now and dates[-1] - dates[0] > timedelta(weeks=8)
        # A team's learnings stay with the team.
        team_only = learnings.filter(audience=Audience.TEAM, team__name="Enterprise East")
        assert team_only.exists()
        outsider = _person("jordan.lee")  # Mid-Market Central
        assert not Learning.objects.visible_to(outsider).filter(pk__in=team_only).exists()
        assert (
            Learning.objects.visible_to(outsider).count()
            == audiences[Audience.ORGANISATION]
            + learnings.filter(audience=Audience.TEAM, team__name="Mid-Market Central").count()
        )

    @pytest.mark.django_db
    def test_a_colleague_finds_a_learning_by_searching(self):
        word = "questions" if connection.vendor == "postgresql" else "question"
        found = library(user=_person("chloe.martin"), filters=LibraryFilters(q=word))
        assert found.filter(title__icontains="question").exists()
        assert found.filter(author=_person("aisha.bello")).exists()

    @pytest.mark.django_db
    def test_diagnoses_by_managers_of_their_reps_and_by_the_head_of_a_manager(self):
        diagnoses = Diagnosis.objects.select_related("author", "coachee")
        by_leads = [d for d in diagnoses if d.coachee.reports_to_id == d.author_id]
        assert len({d.coachee_id for d in by_leads}) >= 3
        assert len({d.gap for d in diagnoses}) >= 4
        assert GapType.NONE in {d.gap for d in diagnoses}  # one revisited: no gap now
        head = _person("daniel.mensah")
        assert diagnoses.filter(author=head, coachee__email="marcus.chen@example.com").exists()
        for diagnosis in diagnoses:
            assert diagnosis.created_at < timezone.now()
            mine = Diagnosis.objects.visible_to(diagnosis.coachee)
            assert not mine.filter(coachee=diagnosis.coachee).exists()

    @pytest.mark.django_db
    def test_each_team_uses_the_core_and_sales_playbooks(self):
        for name in TEAMS:
            team = Team.objects.get(name=name)
            departments = set(team.playbook_modules.values_list("department", flat=True))
            assert departments == {"core", "sales"}, name
        assert PlaybookModule.objects.filter(department="engineering", teams=None).exists()

    @pytest.mark.django_db
    def test_each_team_started_its_install_plan_about_ninety_days_ago(self):
        today = timezone.localdate()
        rollouts = list(Rollout.objects.select_related("team"))
        assert {r.team.name for r in rollouts} == set(TEAMS)
        for rollout in rollouts:
            assert 80 <= (today - rollout.starts_on).days <= 100
        progress = progress_for(rollouts)
        done = {r.team.name: progress[r.pk].done_count for r in rollouts}
        assert len(set(done.values())) == 3, done
        assert done["Enterprise East"] == progress[rollouts[0].pk].total
        healthy = next(r for r in rollouts if r.team.name == "Enterprise East")
        assert set(healthy.ticks.values_list("item", flat=True)) == set(MANUAL)
        for rollout in rollouts:
            peer_pairs = next(s for s in progress[rollout.pk].items if s.item.key == "peer_pairs")
            assert peer_pairs.done, rollout.team

    @pytest.mark.django_db
    def test_running_seed_demo_again_adds_nothing(self, demo):
        before = _counts()
        text = demo.again()
        assert _counts() == before
        assert "Peer pairs and the library already present" in text
        assert "Install plans already in place" in text
