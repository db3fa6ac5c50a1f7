"""A coach's usefulness summary: shown only over at least five ratings from at least
three people in the window — below that it carries counts and nothing else. Averages
and distributions as worked out by hand; comments only when asked for and shown,
alphabetical, without names or dates."""

from datetime import timedelta

import pytest
from django.utils import timezone

from coaching.ratings import (
    RATING_MIN_RATERS,
    RATING_MIN_RATINGS,
    RatingSummary,
    rating_summaries,
)
from tests.support.coaching_ratings import held, rate, team_of
from tests.support.factories import UserFactory


def window(days=30):
    now = timezone.now()
    return {"since": now - timedelta(days=days), "until": now}


def ratings_from(coach, scores_by_rater, comments=None):
    """`scores_by_rater`: one list of scores per report; each score on its own held 1:1,
    a day apart."""
    comments = list(comments or [])
    reports = team_of(coach, len(scores_by_rater))
    day = 1
    for report, scores in zip(reports, scores_by_rater, strict=True):
        for score in scores:
            session = held(coach, report, ago=timedelta(days=day))
            rate(session, report, score, comments.pop(0) if comments else "")
            day += 1
    return reports


def summary_of(coach, **kwargs) -> RatingSummary:
    return rating_summaries(coaches=[coach], **window(), **kwargs)[coach.pk]


@pytest.mark.django_db
def test_the_thresholds_are_five_ratings_from_three_people():
    assert (RATING_MIN_RATINGS, RATING_MIN_RATERS) == (5, 3)


@pytest.mark.django_db
def test_four_ratings_from_four_people_are_too_few_to_show(org):
    ratings_from(org.manager, [[5], [4], [4], [3]], comments=["a", "b", "c", "d"])
    summary = summary_of(org.manager, with_comments=True)
    assert not summary.shown
    assert (summary.ratings, summary.raters) == (4, 4)
    assert summary.average is None and summary.distribution == {} and summary.comments == []
    assert summary.too_few_label == "too few ratings to show"


@pytest.mark.django_db
def test_five_ratings_from_two_people_are_still_too_few(org):
    ratings_from(org.manager, [[5, 5, 4], [2, 1]], comments=["a", "b", "c", "d", "e"])
    summary = summary_of(org.manager, with_comments=True)
    assert not summary.shown
    assert (summary.ratings, summary.raters) == (5, 2)
    assert summary.average is None and summary.distribution == {} and summary.comments == []


@pytest.mark.django_db
def test_five_ratings_from_three_people_are_shown_with_average_and_distribution(org):
    ratings_from(org.manager, [[5, 4], [4, 2], [3]])
    summary = summary_of(org.manager)
    assert summary.shown
    assert (summary.ratings, summary.raters) == (5, 3)
    assert summary.average == pytest.approx((5 + 4 + 4 + 2 + 3) / 5)  # 3.6
    assert summary.distribution == {1: 0, 2: 1, 3: 1, 4: 2, 5: 1}
    assert summary.comments == []  # not asked for


@pytest.mark.django_db
def test_comments_come_only_when_asked_for_and_in_alphabetical_order(org):
    # Written newest first would be "Zero", "apple", ... : the order must not say so.
    ratings_from(
        org.manager,
        [[5, 4], [4, 2], [3, 3]],
        comments=["Zero agenda, all listening", "apple", "", "Better than last week", "banana"],
    )
    summary = summary_of(org.manager, with_comments=True)
    assert summary.shown and summary.ratings == 6
    assert summary.comments == [
        "apple",
        "banana",
        "Better than last week",
        "Zero agenda, all listening",
    ]
    assert summary_of(org.manager).comments == []


@pytest.mark.django_db
def test_changing_a_rating_counts_once(org):
    reports = ratings_from(org.manager, [[5], [4], [4], [3]])
    session = held(org.manager, reports[0], ago=timedelta(days=10))
    rate(session, reports[0], 1)
    rate(session, reports[0], 2)
    summary = summary_of(org.manager)
    assert (summary.ratings, summary.raters) == (5, 4)
    assert summary.average == pytest.approx(18 / 5)
    assert summary.distribution[1] == 0 and summary.distribution[2] == 1


@pytest.mark.django_db
def test_the_window_is_on_when_the_session_was_planned_to_start(org):
    ratings_from(org.manager, [[5, 4], [4, 2], [3]])  # started 1..5 days ago
    now = timezone.now()
    last_three_days = rating_summaries(
        coaches=[org.manager], since=now - timedelta(days=3, hours=1), until=now
    )[org.manager.pk]
    assert last_three_days.ratings == 3 and not last_three_days.shown
    before = rating_summaries(
        coaches=[org.manager], since=now - timedelta(days=60), until=now - timedelta(days=10)
    )[org.manager.pk]
    assert before.ratings == 0


@pytest.mark.django_db
def test_every_coach_asked_for_is_in_the_answer_by_user_or_id(org):
    ratings_from(org.manager, [[5, 4], [4, 2], [3]])
    nobody = UserFactory()
    found = rating_summaries(coaches=[org.manager, nobody.pk, org.head], **window())
    assert set(found) == {org.manager.pk, nobody.pk, org.head.pk}
    assert found[nobody.pk] == RatingSummary(0, 0, None, {}, [])
    assert not found[org.head.pk].shown
    assert found[org.manager.pk].shown
    assert rating_summaries(coaches=[], **window()) == {}


@pytest.mark.django_db
def test_each_coach_is_summarised_on_their_own_sessions(org):
    ratings_from(org.manager, [[5, 5], [5, 5], [5]], comments=["Mia's"] * 5)
    ratings_from(org.other_manager, [[1, 2], [2], [1, 2]], comments=["Omar's"] * 5)
    found = rating_summaries(
        coaches=[org.manager, org.other_manager], **window(), with_comments=True
    )
    assert found[org.manager.pk].average == 5
    assert found[org.other_manager.pk].average == pytest.approx(8 / 5)
    assert set(found[org.manager.pk].comments) == {"Mia's"}
    assert set(found[org.other_manager.pk].comments) == {"Omar's"}


@pytest.mark.django_db
def test_a_manager_review_counts_for_the_manager_of_managers_who_ran_it(org):
    managers = [org.manager, org.other_manager, UserFactory(manager=org.head)]
    UserFactory(manager=managers[2])  # a manager has someone to coach
    for n, manager in enumerate(managers):
        for week in (1, 2):
            session = held(
                org.head, manager, ago=timedelta(days=4 * week + n), kind="manager_review"
            )
            rate(session, manager, 4 if week == 1 else 5)
    summary = summary_of(org.head)
    assert (summary.ratings, summary.raters, summary.average) == (6, 3, 4.5)
