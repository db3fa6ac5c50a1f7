"""The demo's session usefulness (`devdata.demo.ratings`) on a fully seeded
organisation: ratings only where the rules allow them, given a little after each
session; Sofia's team rate high, Lena's dipped in weeks 5–8 and recovered, Marcus's
are too few to show (two people only), Daniel's reviews are rated by his three
managers; aisha.bello still has a session to rate — and running `seed_demo` again
adds nothing."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from coaching.models import (
    ParticipantRole,
    SessionKind,
    SessionRating,
    SessionStatus,
    UsefulnessRelease,
)
from coaching.ratings import (
    RATED_KINDS,
    RATING_DAYS,
    counted_until,
    rating_summaries,
    sessions_to_rate,
)
from people.models import User


def _person(key):
    return User.objects.get(email=f"{key}@example.com")


def _summary(key, *, weeks_from=13, weeks_to=0, **kwargs):
    coach, now = _person(key), timezone.now()
    return rating_summaries(
        coaches=[coach],
        since=now - timedelta(weeks=weeks_from),
        until=now - timedelta(weeks=weeks_to),
        **kwargs,
    )[coach.pk]


class TestDemoRatings:
    @pytest.mark.django_db
    def test_every_rating_is_by_the_coachee_of_a_held_session_given_while_open(self):
        ratings = SessionRating.objects.select_related("session").prefetch_related(
            "session__participants"
        )
        assert ratings.count() > 100
        now = timezone.now()
        for rating in ratings:
            session = rating.session
            roles = {p.person_id: p.role for p in session.participants.all()}
            assert session.kind in RATED_KINDS and session.status == SessionStatus.HELD
            assert roles[rating.rater_id] == ParticipantRole.COACHEE
            assert roles[rating.coach_id] == ParticipantRole.COACH
            assert rating.session_start == session.scheduled_start
            assert session.held_at < rating.created_at <= now
            assert rating.created_at < session.held_at + timedelta(days=RATING_DAYS)
            assert rating.closes_at == session.held_at + timedelta(days=RATING_DAYS)
            assert rating.updated_at == rating.created_at
            assert 1 <= rating.score <= 5
        assert ratings.exclude(comment="").count() >= 10
        assert not ratings.filter(session__held_at__gt=now).exists()

    @pytest.mark.django_db
    def test_sofias_team_find_their_one_on_ones_useful(self):
        summary = _summary("sofia.alvarez", with_comments=True)
        assert summary.shown and summary.raters == 8
        assert summary.average >= 4.0
        assert summary.distribution[1] == 0
        assert summary.comments == sorted(summary.comments, key=lambda c: (c.casefold(), c))
        assert len(summary.comments) >= 5

    @pytest.mark.django_db
    def test_lenas_team_rated_weeks_five_to_eight_lower_and_better_since(self):
        rough = _summary("lena.fischer", weeks_from=9, weeks_to=5)
        since = _summary("lena.fischer", weeks_from=4, weeks_to=0)
        before = _summary("lena.fischer", weeks_from=13, weeks_to=9)
        assert rough.shown and since.shown and before.shown
        assert rough.average < 3.3 < since.average
        assert rough.average < before.average

    @pytest.mark.django_db
    def test_marcuss_ratings_come_from_two_people_only_so_nothing_shows(self):
        for weeks in (4, 8, 13, 26):
            summary = _summary("marcus.chen", weeks_from=weeks, with_comments=True)
            assert not summary.shown
            assert summary.average is None and summary.comments == []
        summary = _summary("marcus.chen")
        assert (summary.ratings, summary.raters) == (5, 2)

    @pytest.mark.django_db
    def test_daniels_reviews_are_rated_by_his_three_managers(self):
        summary = _summary("daniel.mensah", with_comments=True)
        # Each of the three reviews by each manager, and some of his weekly 1:1s.
        assert summary.shown and summary.ratings > 9 and summary.raters == 3
        assert summary.comments
        reviews = SessionRating.objects.filter(
            coach=_person("daniel.mensah"), session__kind=SessionKind.MANAGER_REVIEW
        )
        assert reviews.count() == 9
        raters = set(
            SessionRating.objects.filter(coach=_person("daniel.mensah")).values_list(
                "rater__email", flat=True
            )
        )
        assert raters == {
            "sofia.alvarez@example.com",
            "marcus.chen@example.com",
            "lena.fischer@example.com",
        }

    @pytest.mark.django_db
    def test_aisha_still_has_her_latest_one_on_one_to_rate(self, client):
        aisha = _person("aisha.bello")
        waiting = sessions_to_rate(person=aisha)
        assert waiting and waiting[0].coach_name == "Sofia Alvarez"
        client.force_login(aisha)
        page = client.get(f"/sessions/{waiting[0].pk}/").content.decode()
        assert "<legend>Was this session useful?</legend>" in page

    @pytest.mark.django_db
    def test_the_counts_stand_where_beat_would_have_left_them(self, client):
        """Sofia's, Lena's and Daniel's usefulness counts have moved on to a Monday no
        later than today's (a month back at most); Marcus's two raters never start
        one. Sofia's page shows her average; Marcus's says nothing is counted yet."""
        monday = counted_until()
        counts = dict(UsefulnessRelease.objects.values_list("coach__email", "counted_until"))
        assert set(counts) == {
            f"{key}@example.com" for key in ("sofia.alvarez", "lena.fischer", "daniel.mensah")
        }
        # Sofia's team rate weekly; Daniel's managers once a month each.
        assert monday - timedelta(weeks=1) <= counts["sofia.alvarez@example.com"] <= monday
        assert all(monday - timedelta(weeks=5) <= c <= monday for c in counts.values())
        client.force_login(_person("sofia.alvarez"))
        assert "ratings by 8 people" in client.get("/team/").content.decode()
        client.force_login(_person("marcus.chen"))
        assert "Nothing counted yet" in client.get("/team/").content.decode()

    @pytest.mark.django_db
    def test_it_prints_each_coachs_summary(self, demo):
        assert "Session usefulness:" in demo.output
        assert (
            "Marcus Chen: 5 ratings by 2 people in 13 weeks; the dashboard: nothing counted yet"
        ) in demo.output
        assert re.search(
            r"Sofia Alvarez: \d+ ratings by 8 people in 13 weeks; the dashboard, to Monday "
            r"\d+ \w{3}: \d+ by 8, average 4\.\d",
            demo.output,
        )

    @pytest.mark.django_db
    def test_running_it_again_adds_no_ratings(self, demo):
        before = list(SessionRating.objects.order_by("pk").values_list("pk", "score", "comment"))
        assert "Session ratings already present" in demo.again()
        assert list(SessionRating.objects.order_by("pk").values_list("pk", "score", "comment")) == (
            before
        )
