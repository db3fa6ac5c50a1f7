"""The demo's cadence: the policy on the three teams, plans that adopt the coaching
history as their past and carry on where it leaves off (nothing doubled), Sam Carter's
run of misses, Marcus ending his team's role-play plan for the forecast push (which
Team cadence shows missing, and makes again), a switched-off team channel with its
failure, a few notifications — and running it again changes nothing."""

import io
from collections import defaultdict
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.db.models import F
from django.utils import timezone

from cadence.health import consecutive_misses, coverage_by_coach
from cadence.models import (
    CadencePlan,
    CadencePolicy,
    Closure,
    EndReason,
    Occurrence,
    PolicyAssignment,
)
from coaching.models import CoachingSession, ParticipantRole, SessionKind, SessionStatus
from devdata.demo.cadence import (
    FORECAST_PUSH_NOTE,
    FORECAST_PUSH_TEAM,
    POLICY,
    RAMP_UP,
    WINTER_BREAK,
    seed_cadence,
)
from notifications.models import Notification, NotificationKind, NotificationStatus, TeamChannel
from people.models import AuditEvent, Team, User


def _person(key):
    return User.objects.get(email=f"{key}@example.com")


def _row(page: str, team: str) -> str:
    """A team's row on Team cadence."""
    start = page.index(f'<th scope="row">{team}')
    return page[start : page.index("</tr>", start)]


def _counts():
    return {
        model.__name__: model.objects.count()
        for model in (
            CadencePolicy,
            PolicyAssignment,
            CadencePlan,
            Occurrence,
            CoachingSession,
            Notification,
            TeamChannel,
        )
    }


class TestDemoCadence:
    @pytest.mark.django_db
    def test_a_second_policy_written_by_the_admin_waits_for_a_new_team(self):
        ramp_up = CadencePolicy.objects.get(name=RAMP_UP)
        assert sorted(ramp_up.items.values_list("kind", "duration_minutes")) == [
            ("one_on_one", 45),
            ("role_play", 60),
            ("team_call_review", 45),
        ]
        assert not ramp_up.assignments.exists()
        created = AuditEvent.objects.get(verb="policy.created", target_id=str(ramp_up.pk))
        assert created.actor.email == "ada.okafor@example.com"

    @pytest.mark.django_db
    def test_the_policy_runs_on_the_three_teams_with_live_plans(self):
        policy = CadencePolicy.objects.get(name=POLICY)
        assert policy.items.count() == 4
        live = PolicyAssignment.objects.filter(policy=policy, ended_at__isnull=True)
        assert sorted(live.values_list("team__name", flat=True)) == [
            "EMEA Growth",
            "Enterprise East",
            "Mid-Market Central",
        ]
        plans = CadencePlan.objects.live()
        # The 24 reps' 1:1s with their leads, and Daniel's with his three managers.
        assert plans.filter(kind=SessionKind.ONE_ON_ONE).count() == 24 + 3
        for kind in (SessionKind.TEAM_CALL_REVIEW, SessionKind.MANAGER_REVIEW):
            assert plans.filter(kind=kind).count() == 3, kind
        # Marcus ended Mid-Market Central's for the forecast push (below).
        assert sorted(
            plans.filter(kind=SessionKind.ROLE_PLAY).values_list("team__name", flat=True)
        ) == ["EMEA Growth", "Enterprise East"]
        # They have kept this rhythm since the history began: its sessions are their
        # past occurrences, and nothing was generated in the past.
        policy_plans = plans.filter(pair__isnull=True)
        assert not policy_plans.filter(starts_on__gt=timezone.localdate()).exists()
        past = Occurrence.objects.filter(plan__in=policy_plans, slot_start__lt=timezone.now())
        assert past.count() > 24 * 12
        assert not past.filter(session__created_at__gte=F("plan__created_at")).exists()

    @pytest.mark.django_db
    def test_daniel_keeps_a_weekly_1_1_with_each_of_his_managers(self, client):
        """No policy plans a lead's weekly 1:1 with their own manager, so Daniel planned
        his himself: Tuesdays, as his history shows, and every manager is covered."""
        daniel = _person("daniel.mensah")
        plans = CadencePlan.objects.live().filter(kind=SessionKind.ONE_ON_ONE, coach=daniel)
        assert sorted(plans.values_list("coachee__email", flat=True)) == [
            f"{key}@example.com" for key in ("lena.fischer", "marcus.chen", "sofia.alvarez")
        ]
        for plan in plans:
            assert plan.assignment_id is None and plan.weekday == 1, plan
            held = plan.occurrences.filter(session__status=SessionStatus.HELD)
            assert held.count() >= 10
            # Coached on their own goal as a manager, their team's numbers as Reality.
            notes = held.latest("slot_start").session.notes
            assert notes.goal and notes.will and "my team held" in notes.reality, plan
        assert coverage_by_coach([daniel], until=timezone.now()) == {daniel.pk: (3, 3)}
        client.force_login(daniel)
        page = client.get("/team/").content.decode()
        assert "Everyone reporting to you had a 1:1 in the last 14 days." in page

    @pytest.mark.django_db
    def test_sam_carters_1_1_has_been_missed_three_weeks_running(self):
        sam = CadencePlan.objects.live().get(
            kind=SessionKind.ONE_ON_ONE, coachee=_person("sam.carter")
        )
        runs = consecutive_misses(CadencePlan.objects.live().filter(pair__isnull=True))
        assert runs[sam.pk] == 3
        assert {pk for pk, run in runs.items() if run >= 2} == {sam.pk}

    @pytest.mark.django_db
    def test_sams_run_of_misses_reaches_daniel_as_an_escalation(self, client):
        """Marcus's manager hears of it, as the sweep would have told him: the line names
        Sam, Marcus and the run, and leads to Sam's history; the digest lists it too."""
        sam, marcus, daniel = (_person(k) for k in ("sam.carter", "marcus.chen", "daniel.mensah"))
        escalations = Notification.objects.filter(kind=NotificationKind.ESCALATION)
        assert set(escalations.values_list("recipient", flat=True)) == {daniel.pk}
        assert set(escalations.values_list("plan__coachee", flat=True)) == {sam.pk}
        assert escalations.filter(read_at__isnull=True).count() == 1
        client.force_login(daniel)
        page = client.get("/me/notifications/").content.decode()
        said = "Sam Carter&#x27;s 1:1s with Marcus Chen missed 3 times in a row"
        assert f'<a href="/people/{sam.pk}/#h-heading">Sessions keep being missed: {said}' in page
        digest = Notification.objects.get(kind=NotificationKind.DIGEST, recipient=daniel)
        assert f'href="/me/digests/{digest.period}/"' in page
        digest_page = client.get(f"/me/digests/{digest.period}/").content.decode()
        assert said in digest_page
        assert f"kind=manager_review&amp;with={marcus.pk}" in digest_page

    @pytest.mark.django_db
    def test_marcus_ended_his_teams_role_play_plan_for_the_forecast_push(self):
        """As on "My cadence", through the service: ended by him, "Other" in his own
        words, audited as his; the sessions it had ahead gone, the role-plays held kept,
        and the team still keeps the policy (only the plan ended)."""
        marcus, central = _person("marcus.chen"), Team.objects.get(name=FORECAST_PUSH_TEAM)
        plan = CadencePlan.objects.get(kind=SessionKind.ROLE_PLAY, team=central)
        assert not plan.is_live and plan.coach == marcus and plan.ended_by == marcus
        assert (plan.end_reason, plan.end_note) == (EndReason.OTHER, FORECAST_PUSH_NOTE)
        assert plan.ended_at >= plan.created_at  # made with the policy, ended after
        assert plan.assignment.team == central and plan.assignment.ended_at is None
        held = plan.occurrences.filter(session__status=SessionStatus.HELD)
        assert held.count() == 2  # the history's two role-plays stay
        assert not plan.occurrences.filter(session__status=SessionStatus.SCHEDULED).exists()
        ended = AuditEvent.objects.get(verb="plan.ended", target_id=str(plan.pk))
        assert (ended.actor, ended.data) == (marcus, {"reason": "other"})
        assert abs(ended.at - plan.ended_at) < timedelta(seconds=1)
        # The only policy plan a person ended in the demo (the others followed a change).
        ended_by_hand = CadencePlan.objects.filter(assignment__isnull=False, ended_by__isnull=False)
        assert list(ended_by_hand) == [plan]

    @pytest.mark.django_db
    def test_team_cadence_shows_the_admin_the_missing_role_play_and_makes_it(
        self, client, django_capture_on_commit_callbacks
    ):
        """Ada, the programme admin, sees on Team cadence that Mid-Market Central lacks
        the role-play its policy makes, and only that team; "Make the missing plans"
        applies the kept policy again, which makes the role-play plan (nothing else,
        the same assignment) and the note goes. Rolled back after the test."""
        ada, central = _person("ada.okafor"), Team.objects.get(name=FORECAST_PUSH_TEAM)
        policy = CadencePolicy.objects.get(name=POLICY)
        client.force_login(ada)
        page = client.get("/programme/cadence/").content.decode()
        row = _row(page, FORECAST_PUSH_TEAM)
        assert "1 plan missing: the team&#x27;s role-play" in row
        assert f'<input type="hidden" name="policy" value="{policy.pk}">' in row
        assert (
            f'aria-label="Make the missing plans for {FORECAST_PUSH_TEAM}">'
            "Make the missing plans…</button>"
        ) in row
        for other in ("Enterprise East", "EMEA Growth"):
            assert "missing" not in _row(page, other), other

        kept = set(CadencePlan.objects.live().values_list("pk", flat=True))
        assignment = PolicyAssignment.objects.get(team=central, ended_at__isnull=True)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                f"/programme/cadence/teams/{central.pk}/apply/", {"policy": policy.pk}
            )
        assert response.status_code == 302
        made = CadencePlan.objects.live().exclude(pk__in=kept)
        (plan,) = made
        assert (plan.kind, plan.team, plan.coach) == (
            SessionKind.ROLE_PLAY,
            central,
            _person("marcus.chen"),
        )
        assert plan.assignment == assignment  # the policy kept, not applied anew
        assert plan.generated_until is not None  # its sessions planned once committed
        assert AuditEvent.objects.filter(
            verb="plan.created", actor=ada, target_id=str(plan.pk)
        ).exists()
        after = client.get(response["Location"]).content.decode()
        said = f"{FORECAST_PUSH_TEAM} keeps “{POLICY}”: 1 missing plan made; 11 plans live."
        assert said in after
        assert "missing" not in _row(after, FORECAST_PUSH_TEAM)
        assert "Make the missing plans…</button>" not in after

    @pytest.mark.django_db
    def test_every_live_weekly_plan_has_sessions_ahead(self):
        now = timezone.now()
        # Every week: three within the horizon. Peer pairs meet every two or three
        # weeks (tests/devdata/test_peers_demo.py checks theirs).
        for plan in CadencePlan.objects.live().filter(recurrence="weekly", interval_weeks=1):
            ahead = Occurrence.objects.filter(plan=plan, session__scheduled_start__gt=now)
            assert ahead.count() >= 3, plan

    @pytest.mark.django_db
    def test_nothing_is_doubled_and_each_rep_keeps_the_rhythm_history_shows(self):
        starts = defaultdict(list)
        for person_id, start in CoachingSession.objects.filter(
            kind=SessionKind.ONE_ON_ONE,
            status=SessionStatus.SCHEDULED,
            participants__role=ParticipantRole.COACHEE,
        ).values_list("participants__person", "scheduled_start"):
            # (When it is, not its slot: one prepared for the winter break is moved to
            # the plan's first slot after it.)
            starts[person_id].append(start)
        assert len(starts) == 24 + 3  # the reps, and Daniel's managers
        margin = timedelta(days=1)  # UTC's day against the plans' zones
        closed = [(c.first_day - margin, c.last_day + margin) for c in Closure.objects.all()]
        for person_id, moments in starts.items():
            moments.sort()
            assert len(moments) >= 4, person_id
            # One a week, to the minute: the history's next 1:1, then the plan's —
            # but for the weeks the winter break closes.
            for a, b in zip(moments, moments[1:], strict=False):
                weeks = round((b - a) / timedelta(weeks=1))
                skipped = [(a + timedelta(weeks=k)).date() for k in range(1, weeks)]
                assert all(any(f <= d <= t for f, t in closed) for d in skipped), person_id
                assert abs(b - a - timedelta(weeks=1 + len(skipped))) <= timedelta(hours=1)
        reviews = CoachingSession.objects.filter(
            kind=SessionKind.TEAM_CALL_REVIEW, status=SessionStatus.SCHEDULED
        )
        for team_id in reviews.values_list("team", flat=True).distinct():
            days = sorted(reviews.filter(team_id=team_id).values_list("original_start", flat=True))
            assert all(b - a >= timedelta(days=6) for a, b in zip(days, days[1:], strict=False))

    @pytest.mark.django_db
    def test_monthly_sessions_ahead_keep_the_weekday_history_shows_once_a_month(self):
        """Daniel's reviews were Mondays; a plan on the policy's last Friday added a
        second December date (Christmas Day) after the seeded Monday one."""
        ahead = CoachingSession.objects.filter(
            kind__in=[SessionKind.ROLE_PLAY, SessionKind.MANAGER_REVIEW],
            status=SessionStatus.SCHEDULED,
        )
        by_pair = defaultdict(list)
        for session in ahead.prefetch_related("participants"):
            people = frozenset(p.person_id for p in session.participants.all())
            by_pair[session.kind, session.team_id, people].append(session.scheduled_start)
        # Three reviews, and two teams' role-plays: Marcus ended his team's.
        assert len(by_pair) == 5
        central = Team.objects.get(name=FORECAST_PUSH_TEAM)
        assert not ahead.filter(kind=SessionKind.ROLE_PLAY, team=central).exists()
        for (kind, _team, _people), starts in by_pair.items():
            starts.sort()
            assert {start.weekday() for start in starts} == {
                0 if kind == SessionKind.MANAGER_REVIEW else 2
            }, (kind, starts)
            gaps = [b - a for a, b in zip(starts, starts[1:], strict=False)]
            assert all(gap >= timedelta(weeks=4) for gap in gaps), starts

    @pytest.mark.django_db
    def test_the_programme_closes_for_the_winter_break_with_nothing_planned_in_it(self):
        closure = Closure.objects.get()
        assert (closure.name, closure.first_day.month, closure.first_day.day) == (
            WINTER_BREAK, 12, 24,
        )  # fmt: skip
        assert closure.days == 9 and closure.created_by.email == "ada.okafor@example.com"
        planned = CoachingSession.objects.filter(occurrence__isnull=False)
        for session in planned.select_related("occurrence__plan"):
            day = session.scheduled_start.astimezone(ZoneInfo(session.occurrence.plan.time_zone))
            assert not closure.holds(day.date()), session
        assert AuditEvent.objects.filter(verb="closure.created", target_id=str(closure.pk)).exists()

    @pytest.mark.django_db
    def test_the_admin_sees_a_switched_off_channel_and_its_failure(self):
        channel = TeamChannel.objects.get(team__name="Enterprise East")
        assert not channel.is_active
        assert channel.webhook_url.startswith("http://127.0.0.1")
        assert channel.last_failure_at is not None and channel.last_error

    @pytest.mark.django_db
    def test_people_have_notifications_and_no_email_was_sent(self):
        assert mail.outbox == []
        for manager in ("daniel.mensah", "sofia.alvarez", "marcus.chen", "lena.fischer"):
            mine = Notification.objects.visible_to(_person(manager))
            assert mine.filter(kind=NotificationKind.DIGEST).count() == 1, manager
        # Marcus's slipping team: the misses the sweep would have told him about.
        assert (
            Notification.objects.visible_to(_person("marcus.chen"))
            .filter(kind=NotificationKind.MISSED)
            .exists()
        )

    @pytest.mark.django_db
    def test_running_it_again_changes_nothing(self, demo):
        before = _counts()
        with time_machine.travel(demo.at, tick=False):  # later, reminders fall due
            result = seed_cadence()
            assert not result.created
            assert _counts() == before
            call_command("seed_demo", stdout=io.StringIO())
        assert _counts() == before

    @pytest.mark.django_db
    def test_a_demo_manager_sees_their_plans_on_my_cadence(self, client):
        client.force_login(_person("sofia.alvarez"))
        response = client.get("/cadence/")
        assert response.status_code == 200
        assert b"Aisha Bello" in response.content
        assert response.content.count(b'class="panel" id="plan-') == 10  # 8 reps, review, play


class TestMovedOneOnOne:
    @pytest.mark.django_db
    def test_aisha_reads_that_sofia_moved_her_next_1_1_and_its_page_says_so(self, client):
        aisha = _person("aisha.bello")
        [row] = Notification.objects.visible_to(aisha).filter(
            kind=NotificationKind.SESSION_MOVED, read_at__isnull=True
        )
        change = row.session_change
        assert change.actor == _person("sofia.alvarez")
        # An hour later, or the first half hour after when both are free.
        assert timedelta(hours=1) <= change.to_start - change.from_start <= timedelta(hours=9)
        client.force_login(aisha)
        page = client.get("/me/notifications/").content.decode()
        assert "Session moved by Sofia Alvarez: 1:1, " in page
        session_page = client.get(f"/sessions/{row.session_id}/").content.decode()
        assert "Moves and cancellations" in session_page
        assert "Moved</strong> by Sofia Alvarez" in session_page

    @pytest.mark.django_db
    def test_the_historys_moves_and_cancellations_say_when_they_happened(self, demo):
        from coaching.models import SessionChange

        past = SessionChange.objects.filter(at__lt=demo.at).select_related("session")
        assert past.filter(kind="moved").exists() and past.filter(kind="cancelled").exists()
        for change in past:
            assert change.to_start == change.session.scheduled_start, change
            if change.kind == "moved":
                assert change.from_start == change.session.original_start, change
        # Told when they happened: sent and read, none waiting in the outbox.
        told = Notification.objects.filter(session_change__in=past)
        assert told.exists()
        assert not told.exclude(status=NotificationStatus.SENT).exists()
        assert not told.filter(read_at__isnull=True).exists()
