from collections import Counter
from datetime import timedelta
from itertools import pairwise
from statistics import mean
from zoneinfo import ZoneInfo

import pytest
from django.db.models import Exists, F, Max, Min, OuterRef, Q
from django.utils import timezone

from coaching.models import (
    AgendaItem,
    CancelReason,
    CoachingSession,
    Commitment,
    CommitmentStatus,
    FocusArea,
    Goal,
    NotesRevision,
    ParticipantRole,
    PrivateNote,
    SessionKind,
    SessionParticipant,
    SessionStatus,
    SharedNotes,
)
from coaching.selectors import coaching_quality
from dashboards.org_feedback import organisation_feedback
from dashboards.org_skills import organisation_skills
from devdata.demo.people import NEW_STARTERS
from feedback.models import Feedback, FeedbackRequest, RequestedResponder
from notifications.models import Notification, NotificationKind, NotificationStatus
from people.models import ImportStatus, PeopleImport, ReportingLine, Team, TeamMembership, User
from people.roles import Role
from people.selectors import roles_of
from scorecards.agreement import criterion_agreement
from scorecards.models import (
    RaterRole,
    RecordedCall,
    RoundContext,
    RoundRater,
    Score,
    Scorecard,
    ScoringRound,
)
from scorecards.selectors import waiting_on


def coaching_history():
    """The coaching demo's own sessions. The cadence demo's plans adopt them as past
    occurrences and continue them: what the engine made came after the plan existed."""
    return CoachingSession.objects.exclude(
        occurrence__isnull=False, created_at__gte=F("occurrence__plan__created_at")
    )


def _new_starters():
    return User.objects.filter(display_name__in=[name for name, *_ in NEW_STARTERS])


@pytest.mark.django_db
def test_it_builds_the_demo_organisation_and_prints_every_login(demo):
    assert User.objects.count() == 30 + len(NEW_STARTERS)
    assert Team.objects.count() == 3
    for person in User.objects.exclude(pk__in=_new_starters()):  # who never signed in: no login
        assert person.email in demo.output
        assert person.check_password("tandem-demo-2026")
    time_zones = set(User.objects.values_list("time_zone", flat=True))
    assert any(tz.startswith("America/") for tz in time_zones)
    assert any(tz.startswith("Europe/") for tz in time_zones)


@pytest.mark.django_db
def test_the_organisation_was_there_before_its_coaching_history():
    """People, their reporting lines and their teams date from before the oldest thing
    the history holds (a session, a focus area), not from the day it was seeded."""
    oldest = min(
        CoachingSession.objects.aggregate(first=Min("scheduled_start"))["first"],
        FocusArea.objects.aggregate(first=Min("created_at"))["first"],
    )
    assert User.objects.filter(date_joined__gte=oldest).exclude(pk__in=_new_starters()).count() == 0
    assert ReportingLine.objects.filter(started_at__gte=oldest).count() == 0
    assert Team.objects.filter(created_at__gte=oldest).count() == 0
    assert TeamMembership.objects.filter(joined_at__gte=oldest).count() == 0
    assert ReportingLine.objects.count() == User.objects.exclude(reports_to=None).count()


@pytest.mark.django_db
def test_every_role_is_represented():
    by_email = {u.email: u for u in User.objects.all()}
    assert Role.MANAGER_OF_MANAGERS in roles_of(by_email["daniel.mensah@example.com"])
    assert Role.MANAGER in roles_of(by_email["sofia.alvarez@example.com"])
    assert Role.HR in roles_of(by_email["helen.park@example.com"])
    assert Role.PROGRAMME_ADMIN in roles_of(by_email["ada.okafor@example.com"])
    assert roles_of(by_email["aisha.bello@example.com"]) == {Role.REP}


@pytest.mark.django_db
def test_running_it_again_changes_nothing(demo):
    def counts():
        return (
            User.objects.count(),
            ReportingLine.objects.count(),
            Team.objects.count(),
            TeamMembership.objects.count(),
        )

    before = counts()
    demo.again()
    assert counts() == before


# --- Coaching history ------------------------------------------------------------------

COACHING_ROWS = (
    CoachingSession,
    SessionParticipant,
    SharedNotes,
    NotesRevision,
    PrivateNote,
    AgendaItem,
    Commitment,
    FocusArea,
    RecordedCall,
)


def _person(key):
    return User.objects.get(email=f"{key}@example.com")


def _adherence(key, *, days_ago_from, days_ago_to):
    now = timezone.now()
    quality = coaching_quality(
        coach=_person(key),
        since=now - timedelta(days=days_ago_from),
        until=now - timedelta(days=days_ago_to),
    )
    return quality.adherence


@pytest.mark.django_db
def test_running_it_again_adds_no_coaching_history(demo):
    counts = {model.__name__: model.objects.count() for model in COACHING_ROWS}
    assert counts["CoachingSession"] > 300
    second = demo.again()
    assert counts == {model.__name__: model.objects.count() for model in COACHING_ROWS}
    assert "Coaching history written" in demo.output
    assert "Coaching history already present" in second
    assert "sessions: " in second


class TestCoachingHistory:
    @pytest.mark.django_db
    def test_there_are_sessions_of_every_kind_and_every_status(self):
        pairs = set(CoachingSession.objects.values_list("kind", "status").distinct())
        assert {kind for kind, _ in pairs} == set(SessionKind.values)
        assert {status for _, status in pairs} == set(SessionStatus.values)
        for kind in SessionKind.values:
            assert (kind, SessionStatus.HELD) in pairs, kind
        reasons = set(CoachingSession.objects.values_list("cancel_reason", flat=True))
        assert CancelReason.FORECAST_CALL in reasons
        assert CoachingSession.objects.filter(held_but_empty=True).exists()
        assert CoachingSession.objects.exclude(original_start=F("scheduled_start")).exists()

    @pytest.mark.django_db
    def test_every_rep_has_one_goal_they_work_on_and_some_they_closed(self):
        reps = User.objects.filter(reports_to__reports_to__isnull=False, direct_reports=None)
        active = Counter(
            Goal.objects.active().filter(owner__in=reps).values_list("owner", flat=True)
        )
        assert set(active) == set(reps.values_list("pk", flat=True))
        assert set(active.values()) == {1}
        statuses = set(Goal.objects.values_list("status", flat=True))
        assert statuses == {"active", "achieved", "dropped"}
        assert Goal.objects.active().filter(focus_area__isnull=False).exists()
        assert not Goal.objects.exclude(status="active").filter(closed_at__isnull=True).exists()
        assert not Goal.objects.filter(created_at__gt=timezone.now()).exists()
        # feedback received is linked to goals, and a request asks about one
        assert Feedback.objects.filter(goal__isnull=False).exists()
        assert FeedbackRequest.objects.filter(goal__isnull=False).exists()

    @pytest.mark.django_db
    def test_the_history_is_twelve_weeks_long_and_only_the_future_is_scheduled(self):
        now = timezone.now()
        sessions = CoachingSession.objects.all()
        oldest = sessions.order_by("scheduled_start").first().scheduled_start
        assert now - timedelta(weeks=13) < oldest < now - timedelta(weeks=11)
        assert not sessions.filter(
            status=SessionStatus.SCHEDULED, scheduled_start__lt=now - timedelta(hours=1)
        ).exists()
        assert (
            not sessions.exclude(status=SessionStatus.SCHEDULED)
            .filter(scheduled_start__gt=now)
            .exists()
        )
        assert not sessions.filter(held_at__lt=F("scheduled_start")).exists()
        assert not sessions.filter(cancelled_at__gt=F("scheduled_start")).exists()
        missed = sessions.filter(status=SessionStatus.MISSED)
        assert missed.exists() and not missed.filter(missed_at__isnull=True).exists()
        for model, stamp in [
            (CoachingSession, "created_at"),
            (Commitment, "created_at"),
            (Commitment, "closed_at"),
            (SharedNotes, "updated_at"),
            (NotesRevision, "saved_at"),
            (PrivateNote, "updated_at"),
            (AgendaItem, "created_at"),
        ]:
            assert not model.objects.filter(**{f"{stamp}__gt": now}).exists(), (model, stamp)

    @pytest.mark.django_db
    def test_one_on_ones_are_weekly_at_working_hours_in_the_managers_time_zone(self):
        rep = _person("jonas.weber")
        history = coaching_history()
        ones = history.filter(kind=SessionKind.ONE_ON_ONE, participants__person=rep).order_by(
            "original_start"
        )
        assert ones.count() == 13  # twelve weeks of history and next week's
        assert ones.last().status == SessionStatus.SCHEDULED
        berlin = ZoneInfo("Europe/Berlin")
        for session in ones:
            local = session.original_start.astimezone(berlin)
            assert local.weekday() < 5 and 8 <= local.hour < 18, local
        for manager in ("sofia.alvarez", "marcus.chen", "lena.fischer"):
            # Each of their eight reps has a 1:1 ahead (history's next one, or — when it
            # fell in the winter break and nobody had touched it — the plan's after it).
            coached = SessionParticipant.objects.filter(
                person=_person(manager), role=ParticipantRole.COACH
            ).values("session")
            reps_ahead = SessionParticipant.objects.filter(
                role=ParticipantRole.COACHEE,
                session__in=coached,
                session__kind=SessionKind.ONE_ON_ONE,
                session__status=SessionStatus.SCHEDULED,
            )
            assert reps_ahead.values("person").distinct().count() == 8
        prepared = SharedNotes.objects.filter(
            session__status=SessionStatus.SCHEDULED,
            session__kind=SessionKind.ONE_ON_ONE,
            coachee_prepared_at__isnull=False,
        )
        assert prepared.exclude(reality="").count() >= 10
        assert AgendaItem.objects.filter(session__status=SessionStatus.SCHEDULED).exists()
        # The call a prepared Reality names is recorded, so "Since the last 1:1" lists it.
        for notes in prepared.exclude(reality="").select_related("session"):
            call = RecordedCall.objects.get(url=notes.reality_evidence_url)
            assert call.person == notes.session.coachee
            assert call.title.split(" — ")[1] in notes.reality
            assert call.call_date < notes.session.scheduled_start.date()

    @pytest.mark.django_db
    def test_beside_aisha_s_next_1_1_sofia_reads_her_will_the_call_and_what_she_shared(self):
        from coaching import since_last

        aisha, sofia = _person("aisha.bello"), _person("sofia.alvarez")
        upcoming = (
            CoachingSession.objects.filter(
                kind=SessionKind.ONE_ON_ONE,
                status=SessionStatus.SCHEDULED,
                participants__person=aisha,
                # The history's next one may be under way (seeded in its first 45 minutes).
                scheduled_start__gt=timezone.now() - timedelta(minutes=45),
            )
            .with_people()
            .order_by("scheduled_start")
            .first()
        )
        found = since_last.for_session(session=upcoming, viewer=sofia)
        assert found.previous is not None and found.will
        assert found.feedback == 1  # Diego's, which Aisha shared with Sofia
        assert upcoming.notes.reality_evidence_url in {call.url for call in found.calls}

    @pytest.mark.django_db
    def test_commitments_are_in_every_state_and_some_are_overdue(self):
        statuses = set(Commitment.objects.values_list("status", flat=True))
        assert statuses == set(CommitmentStatus.values)
        today = timezone.localdate()
        assert Commitment.objects.open().filter(due_on__lt=today).exists()
        assert Commitment.objects.open().filter(due_on__gte=today).exists()
        assert not Commitment.objects.filter(
            status=CommitmentStatus.DROPPED, drop_reason=""
        ).exists()
        assert (
            not Commitment.objects.exclude(status=CommitmentStatus.OPEN)
            .filter(closed_at__isnull=True)
            .exists()
        )
        assert not Commitment.objects.filter(evidence="").exists()
        for commitment in Commitment.objects.select_related("created_in"):
            assert commitment.due_on > commitment.created_in.scheduled_start.date()

    @pytest.mark.django_db
    def test_nobody_carries_the_same_commitment_open_twice(self):
        open_texts = Counter(Commitment.objects.open().values_list("owner_id", "text"))
        assert open_texts and max(open_texts.values()) == 1, open_texts.most_common(3)

    @pytest.mark.django_db
    def test_marcus_is_slipping_sofia_is_healthy_and_lena_is_recovering(self):
        sofia = _adherence("sofia.alvarez", days_ago_from=28, days_ago_to=0)
        marcus = _adherence("marcus.chen", days_ago_from=28, days_ago_to=0)
        assert marcus < sofia
        assert sofia >= 0.9 and marcus <= 0.6
        forecast = CoachingSession.objects.filter(
            cancel_reason=CancelReason.FORECAST_CALL,
            scheduled_start__gte=timezone.now() - timedelta(days=28),
            participants__person=_person("marcus.chen"),
        )
        assert forecast.count() >= 8
        lena_rough = _adherence("lena.fischer", days_ago_from=56, days_ago_to=28)
        lena_now = _adherence("lena.fischer", days_ago_from=28, days_ago_to=0)
        assert lena_rough < 0.7 < lena_now

    @pytest.mark.django_db
    def test_private_notes_are_written_by_a_coach_of_the_session(self):
        notes = PrivateNote.objects.all()
        assert notes.count() >= 10
        coach = SessionParticipant.objects.filter(
            session=OuterRef("session"), person=OuterRef("author"), role=ParticipantRole.COACH
        )
        assert not notes.exclude(Exists(coach)).exists()
        assert not notes.filter(text="").exists()

    @pytest.mark.django_db
    def test_most_held_one_on_ones_have_their_grow_notes_written(self):
        held = SharedNotes.objects.filter(
            session__kind=SessionKind.ONE_ON_ONE, session__status=SessionStatus.HELD
        )
        written = held.exclude(goal="").exclude(reality="").exclude(options="").exclude(will="")
        assert written.count() >= 0.9 * held.count()
        assert held.values("goal").distinct().count() >= 12
        assert held.values("reality").distinct().count() >= 0.9 * held.count()
        # Goals carry from week to week and change once or twice a quarter.
        goals = list(
            held.filter(session__participants__person=_person("aisha.bello"))
            .order_by("session__scheduled_start")
            .values_list("goal", flat=True)
        )
        changes = sum(1 for a, b in pairwise(goals) if a != b)
        assert 1 <= changes <= 2
        for kind in (
            SessionKind.TEAM_CALL_REVIEW,
            SessionKind.ROLE_PLAY,
            SessionKind.MANAGER_REVIEW,
        ):
            others = SharedNotes.objects.filter(
                session__kind=kind, session__status=SessionStatus.HELD
            )
            assert others.exists() and not others.filter(notes="").exists(), kind

    @pytest.mark.django_db
    def test_team_call_reviews_present_a_recorded_call_and_role_plays_practise_a_focus_area(self):
        history = coaching_history()
        reviews = history.filter(kind=SessionKind.TEAM_CALL_REVIEW)
        for review in reviews.select_related("presented_call"):
            call = review.presented_call
            assert call.url.startswith("https://calls.example.com/")
            assert " — " in call.title and call.timestamps
            assert review.participants.filter(role=ParticipantRole.HOST).count() == 1
        plays = history.filter(kind=SessionKind.ROLE_PLAY)
        assert plays.count() == 6
        assert not plays.filter(Q(scenario="") | Q(drills="")).exists()
        active = FocusArea.objects.active_on(timezone.localdate())
        assert set(active.values_list("name", flat=True)) == {
            "Discovery: ask before you pitch",
            "Multi-threading: reach the economic buyer",
        }
        assert FocusArea.objects.filter(
            name="Objection handling", ends_on__lt=timezone.localdate()
        ).exists()
        assert list(
            FocusArea.objects.get(name__startswith="Multi-threading").teams.values_list(
                "name", flat=True
            )
        ) == ["EMEA Growth"]
        reviews_by_daniel = CoachingSession.objects.filter(
            kind=SessionKind.MANAGER_REVIEW,
            status=SessionStatus.HELD,
            created_by=_person("daniel.mensah"),
        )
        assert reviews_by_daniel.count() == 9


# --- Scorecards -------------------------------------------------------------------------

SCORECARD_ROWS = (ScoringRound, RoundRater, Scorecard, Score, RecordedCall)


def _demo_reps():
    return User.objects.filter(reports_to__reports_to__isnull=False, direct_reports=None)


def _coach_mean(rep, *, since=None, until=None, role=RaterRole.COACH):
    lineages = FocusArea.objects.get(name__startswith="Discovery").criteria.all()
    scores = Score.objects.filter(
        scorecard__subject=rep,
        scorecard__context=RoundContext.COACH,
        scorecard__rater_role=role,
        scorecard__submitted_at__isnull=False,
        criterion__criterion__in=lineages,
    )
    if since:
        scores = scores.filter(scorecard__submitted_at__gte=since)
    if until:
        scores = scores.filter(scorecard__submitted_at__lt=until)
    ratings = list(scores.values_list("rating", flat=True))
    assert ratings, (rep, since, until)
    return mean(ratings)


class TestScorecards:
    @pytest.mark.django_db
    def test_focus_areas_are_measured_by_scorecard_criteria(self):
        def linked(name):
            area = FocusArea.objects.get(name__startswith=name)
            return {(c.template.name, str(c)) for c in area.criteria.select_related("template")}

        discovery = linked("Discovery")
        assert len(discovery) == 3 and {t for t, _ in discovery} == {"Discovery call"}
        assert {t for t, _ in linked("Objection handling")} == {"Objection handling"}
        assert len(linked("Objection handling")) >= 4
        assert linked("Multi-threading") == {("Discovery call", "Stakeholders and next step")}

    @pytest.mark.django_db
    def test_every_rep_is_scored_with_their_coach_over_at_least_ten_weeks(self):
        reps = list(_demo_reps().select_related("reports_to"))
        assert len(reps) == 24
        for rep in reps:
            cards = Scorecard.objects.filter(
                subject=rep, context=RoundContext.COACH, submitted_at__isnull=False
            )
            for role, rater in ((RaterRole.COACH, rep.reports_to), (RaterRole.SUBJECT, rep)):
                mine = cards.filter(rater_role=role, rater=rater)
                assert mine.count() >= 5, (rep, role)
                span = mine.aggregate(first=Min("submitted_at"), last=Max("submitted_at"))
                assert span["last"] - span["first"] >= timedelta(weeks=10), (rep, role)
        assert (
            Scorecard.objects.filter(
                context=RoundContext.SELF, rater_role=RaterRole.SUBJECT, submitted_at__isnull=False
            ).count()
            >= 10
        )
        # The evidence is written out, with the moment in the recording.
        noted = Score.objects.exclude(evidence="")
        assert noted.count() >= 300
        assert not noted.filter(evidence_at="").exists()
        assert not Scorecard.objects.filter(
            context=RoundContext.COACH, submitted_at__isnull=False, keep=""
        ).exists()

    @pytest.mark.django_db
    def test_enterprise_east_gets_better_central_stays_flat_and_self_scores_come_down(self):
        now = timezone.now()
        first_month = {"until": now - timedelta(weeks=8)}
        last_month = {"since": now - timedelta(days=28)}
        east = _demo_reps().filter(memberships__team__name="Enterprise East")
        assert east.count() == 8
        for rep in east:
            assert _coach_mean(rep, **last_month) > _coach_mean(rep, **first_month), rep
        emea = list(_demo_reps().filter(memberships__team__name="EMEA Growth"))
        better = [r for r in emea if _coach_mean(r, **last_month) > _coach_mean(r, **first_month)]
        assert len(better) >= 6
        central = list(_demo_reps().filter(memberships__team__name="Mid-Market Central"))
        change = mean(_coach_mean(r, **last_month) - _coach_mean(r, **first_month) for r in central)
        assert abs(change) < 0.4
        # Self-assessment starts above the coach's, and the gap closes.
        reps = list(_demo_reps())

        def gap(window):
            return mean(
                _coach_mean(r, role=RaterRole.SUBJECT, **window) - _coach_mean(r, **window)
                for r in reps
            )

        assert gap(first_month) >= 0.7
        assert gap(last_month) < gap(first_month) - 0.4

    @pytest.mark.django_db
    def test_the_reps_whose_1_1s_held_moved_further_on_discovery(self):
        """Skills across the organisation's "Does coaching move it?": the reps whose
        1:1s were held 4 times in 5 (Enterprise East, most of EMEA Growth) moved
        further than those whose 1:1s slipped (Mid-Market Central's forecast calls)."""
        tz = ZoneInfo("America/New_York")
        skills = organisation_skills(today=timezone.localdate(timezone=tz), tz=tz)
        lift = next(a.lift for a in skills.areas if a.area.name.startswith("Discovery"))
        assert lift.shown and lift.compared == 24, lift
        assert lift.kept.change > lift.slipped.change + 0.15, lift
        central = _demo_reps().filter(memberships__team__name="Mid-Market Central")
        assert lift.slipped.people >= central.count() - 2

    @pytest.mark.django_db
    def test_some_rounds_wait_on_the_rep_after_the_coach_scored_and_one_was_declined(self):
        aisha = _person("aisha.bello")
        waiting = waiting_on(user=aisha).filter(context=RoundContext.COACH)
        assert waiting.count() == 1
        scoring = waiting.get()
        assert Scorecard.objects.filter(
            round=scoring, rater_role=RaterRole.COACH, submitted_at__isnull=False
        ).exists()
        # The coach's scores stay hidden from her until she scores it herself.
        assert not Scorecard.objects.visible_to(aisha).filter(round=scoring).exists()
        open_rounds = ScoringRound.objects.open().filter(context=RoundContext.COACH)
        assert open_rounds.filter(raters__declined_at__isnull=False).count() == 1
        coach_only = open_rounds.filter(
            scorecards__rater_role=RaterRole.COACH, scorecards__submitted_at__isnull=False
        ).exclude(scorecards__rater_role=RaterRole.SUBJECT)
        assert coach_only.count() >= 3

    @pytest.mark.django_db
    def test_jordans_self_assessment_waits_blind_for_marcus_and_daniel(self):
        """The round waiting on Marcus: Jordan scored first, and neither Marcus (the
        coach) nor Daniel above him sees a score or a word of it before Marcus scores."""
        jordan, marcus = _person("jordan.lee"), _person("marcus.chen")
        scoring = waiting_on(user=marcus).get(context=RoundContext.COACH, work__person=jordan)
        mine = Scorecard.objects.get(round=scoring, rater=jordan, submitted_at__isnull=False)
        assert mine.keep and set(Scorecard.objects.visible_to(jordan).filter(round=scoring)) == {
            mine
        }
        for above in (marcus, _person("daniel.mensah")):
            assert not Scorecard.objects.visible_to(above).filter(round=scoring).exists()

    @pytest.mark.django_db
    def test_the_head_of_sales_ran_a_closed_calibration_with_an_outlier_and_one_is_open(self):
        daniel = _person("daniel.mensah")
        managers = {_person(k).pk for k in ("sofia.alvarez", "marcus.chen", "lena.fischer")}
        calibrations = ScoringRound.objects.filter(
            context=RoundContext.CALIBRATION, created_by=daniel
        )
        closed = calibrations.get(closed_at__isnull=False)
        assert closed.version.template.name == "Discovery call"
        assert set(closed.raters.values_list("person", flat=True)) == managers
        cards = closed.scorecards.filter(submitted_at__isnull=False)
        assert cards.count() == 3
        assert all(card.submitted_at < closed.closed_at for card in cards)
        outliers = []
        for criterion in closed.version.criteria.all():
            ratings = dict(
                Score.objects.filter(scorecard__in=cards, criterion=criterion).values_list(
                    "scorecard__rater", "rating"
                )
            )
            outliers += criterion_agreement(ratings).outliers
        assert outliers == [_person("marcus.chen").pk]
        still = calibrations.get(closed_at__isnull=True)
        assert still.scorecards.filter(submitted_at__isnull=False).count() == 2

    @pytest.mark.django_db
    def test_each_team_scored_its_latest_held_call_review_and_one_is_still_open(self):
        rounds = ScoringRound.objects.filter(context=RoundContext.TEAM_REVIEW)
        sessions = CoachingSession.objects.in_bulk(rounds.values_list("session_id", flat=True))
        teams = {}
        for scoring in rounds:
            session = sessions[scoring.session_id]
            latest = (
                CoachingSession.objects.filter(
                    team=session.team,
                    kind=SessionKind.TEAM_CALL_REVIEW,
                    status=SessionStatus.HELD,
                )
                .order_by("-scheduled_start")
                .first()
            )
            assert session == latest and scoring.work == session.presented_call
            teams[session.team.name] = scoring
        assert set(teams) == {"Enterprise East", "Mid-Market Central", "EMEA Growth"}
        open_ones = [s for s in teams.values() if not s.is_closed]
        assert len(open_ones) == 1
        scoring = open_ones[0]
        submitted = scoring.scorecards.filter(submitted_at__isnull=False)
        assert submitted.filter(rater_role=RaterRole.MANAGER).exists()
        assert scoring.raters.count() - submitted.count() == 2
        for scoring in teams.values():
            ratings = Score.objects.filter(scorecard__round=scoring).values("rating").distinct()
            assert ratings.count() >= 2  # a spread of opinions
            assert scoring.scorecards.filter(submitted_at__isnull=False).count() >= 7

    @pytest.mark.django_db
    def test_scorecard_history_lies_in_the_past_and_self_assessment_comes_first(self):
        now = timezone.now()
        assert not Scorecard.objects.filter(submitted_at__gt=now).exists()
        assert not Scorecard.objects.filter(created_at__gt=now).exists()
        assert not ScoringRound.objects.filter(
            Q(created_at__gt=now) | Q(closed_at__gt=now)
        ).exists()
        assert not RecordedCall.objects.filter(created_at__gt=now).exists()
        assert not Scorecard.objects.filter(submitted_at__lt=F("round__created_at")).exists()
        assert not Scorecard.objects.filter(round__closed_at__lt=F("submitted_at")).exists()
        oldest = ScoringRound.objects.order_by("created_at").first().created_at
        assert now - timedelta(weeks=13) < oldest < now - timedelta(weeks=11)
        own_first = Scorecard.objects.filter(
            round=OuterRef("round"),
            rater_role=RaterRole.SUBJECT,
            submitted_at__lt=OuterRef("submitted_at"),
        )
        coach_cards = Scorecard.objects.filter(
            context=RoundContext.COACH,
            rater_role=RaterRole.COACH,
            submitted_at__isnull=False,
            round__raters__role=RaterRole.SUBJECT,
            round__raters__declined_at__isnull=True,
            round__closed_at__isnull=False,
        )
        assert coach_cards.count() >= 120
        assert not coach_cards.exclude(Exists(own_first)).exists()
        calls = RecordedCall.objects.filter(rounds__isnull=False).distinct()
        assert calls.filter(url__startswith="https://calls.example.com/").count() == calls.count()
        assert not calls.filter(timestamps="").exists()
        assert not calls.exclude(title__contains=" — ").exists()
        first_calls = Q(title__startswith="Discovery — ") | Q(title__startswith="First call — ")
        assert calls.filter(first_calls).count() >= 100

    @pytest.mark.django_db
    def test_running_it_again_adds_no_scorecards(self, demo):
        counts = {model.__name__: model.objects.count() for model in SCORECARD_ROWS}
        links = FocusArea.criteria.through.objects.count()
        out = demo.again()
        assert "Scorecards already present" in out and "scoring rounds: " in out
        assert counts == {model.__name__: model.objects.count() for model in SCORECARD_ROWS}
        assert links == FocusArea.criteria.through.objects.count()


@pytest.mark.django_db
def test_hr_s_export_was_imported_once_and_changed_nobody(demo):
    job = PeopleImport.objects.get()
    assert job.status == ImportStatus.APPLIED
    assert job.uploaded_by.email == "ada.okafor@example.com"
    assert job.applied_counts == {"created": 0, "updated": 0, "unchanged": 30, "teams_created": 0}
    assert job.uploaded_at.astimezone(job.uploaded_by.tzinfo).weekday() == 0  # a Monday
    assert job.uploaded_at < timezone.now()
    demo.again()
    assert PeopleImport.objects.count() == 1


@pytest.mark.django_db
def test_everyone_last_signed_in_when_the_audit_log_says_so_and_the_programme_is_set_up(
    client,
):
    """The trail's last sign-in is each person's: "Never signed in" agrees with the
    audit log (only this week's new starters never did), and the programme admin meets
    a running programme, not its first steps."""
    from people.models import AuditEvent

    last = AuditEvent.objects.filter(verb="auth.signed_in", actor=OuterRef("pk"))
    assert set(User.objects.filter(last_login__isnull=True)) == set(_new_starters())
    assert not AuditEvent.objects.filter(verb="auth.signed_in", actor__in=_new_starters())
    mismatched = (
        User.objects.exclude(pk__in=_new_starters())
        .exclude(last_login__in=last.order_by("-at").values("at")[:1])
        .values_list("email", flat=True)
    )
    assert not list(mismatched)
    client.force_login(User.objects.get(email="ada.okafor@example.com"))
    assert "First steps" not in client.get("/programme/").content.decode()


@pytest.mark.django_db
def test_the_never_signed_in_tab_shows_each_state_of_a_welcome(demo, client):
    """This week's three new starters: a welcome sent yesterday whose link still works,
    one sent four days ago whose link expired, one not sent — so "email them all" is
    for two. Each was added, and welcomed, by the programme admin, as the trail says."""
    from people.models import AuditEvent

    now = timezone.now()
    yara, leo, mina = (User.objects.get(display_name=name) for name, *_ in NEW_STARTERS)
    assert now - timedelta(days=2) < yara.welcome_sent_at < now - timedelta(hours=12)
    assert leo.welcome_sent_at < now - timedelta(days=3)
    assert mina.welcome_sent_at is None
    for person in (yara, leo, mina):
        assert person.is_active and not person.has_usable_password()
        added = AuditEvent.objects.get(verb="person.created", target_id=str(person.pk))
        assert added.actor.email == "ada.okafor@example.com"
        assert added.at == person.date_joined and added.at <= (person.welcome_sent_at or now)
    welcomed = AuditEvent.objects.filter(verb="person.welcomed")
    assert sorted(welcomed.values_list("target_id", "at")) == sorted(
        [(str(yara.pk), yara.welcome_sent_at), (str(leo.pk), leo.welcome_sent_at)]
    )

    client.force_login(User.objects.get(email="ada.okafor@example.com"))
    tab = client.get("/programme/people/", {"show": "new"}).content.decode()
    assert 'Never signed in <span class="count">3</span>' in tab
    rows = {name: tab[tab.index(name) :].split("</tr>")[0] for name, *_ in NEW_STARTERS}
    assert "Sent " in rows["Yara Haddad"] and "link expired" not in rows["Yara Haddad"]
    assert "Sent " in rows["Leo Brandt"] and "link expired" in rows["Leo Brandt"]
    assert "Not sent" in rows["Mina Sato"]
    assert "Email a welcome to the 2 without a working link" in tab
    assert "New starters who never signed in: 3" in demo.output
    assert "New starters already present" in demo.again()
    assert _new_starters().count() == 3


def test_feedback_is_sought_across_the_quarter_and_its_old_asks_were_read(demo):
    """Half the reps asked a peer and their manager weeks ago and were answered: HR's
    feedback across the organisation has months to read. Those asks were announced
    then, and read when answered; only the open requests wait in an inbox."""
    now = timezone.now()
    answered = FeedbackRequest.objects.filter(created_at__lt=now - timedelta(days=14))
    assert answered.count() >= 10
    assert len({r.created_at.date().replace(day=1) for r in answered}) >= 2  # several months
    assert not RequestedResponder.objects.filter(request__in=answered, answered_at=None).exists()
    for request in answered:
        assert all(f.created_at > request.created_at for f in request.answers.all())
    told = Notification.objects.filter(
        kind=NotificationKind.FEEDBACK_ASKED, feedback_request__in=answered
    )
    assert told.count() == RequestedResponder.objects.filter(request__in=answered).count()
    assert not told.exclude(status=NotificationStatus.SENT).exists()
    assert not told.filter(read_at=None).exists()
    assert {n.created_at for n in told} <= {r.created_at for r in answered}
    found = organisation_feedback(today=now.date(), tz=ZoneInfo("UTC"), until=now)
    assert sum(not m.suppressed for m in found.months) >= 3
    assert not found.asked_recently.suppressed
    demo.again()
    assert FeedbackRequest.objects.filter(created_at__lt=now - timedelta(days=14)).count() == (
        answered.count()
    )
