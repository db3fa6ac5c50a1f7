"""Who may rate a session, and when: only the coachee of a held 1:1 or manager review,
for 14 days after it was held; they may change their rating meanwhile (the same row).
Everyone else is refused with a clear message, and a refusal saves nothing."""

from datetime import timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.utils import timezone

from coaching.models import SessionRating
from coaching.ratings import RATING_DAYS
from coaching.services import (
    peer_session_create,
    role_play_create,
    session_cancel,
    session_mark_held,
    session_rating_delete,
)
from core.errors import Forbidden
from tests.support.coaching_ratings import held, rate
from tests.support.factories import FocusAreaFactory, one_on_one


def refused(call) -> str:
    with pytest.raises((ValidationError, Forbidden)) as refusal:
        call()
    return " ".join(refusal.value.messages)


@pytest.mark.django_db
def test_the_coachee_rates_a_held_one_on_one(org):
    session = held(org.manager, org.rep)
    rating = rate(session, org.rep, 4, "  Good questions about the Acme call.  ")
    assert (rating.score, rating.comment) == (4, "Good questions about the Acme call.")
    assert rating.coach_id == org.manager.pk
    assert rating.session_start == session.scheduled_start


@pytest.mark.django_db
def test_the_manager_being_reviewed_rates_a_held_manager_review(org):
    session = held(org.head, org.manager, kind="manager_review")
    rating = rate(session, org.manager, 5)
    assert rating.coach_id == org.head.pk and rating.comment == ""


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "head", "peer", "hr", "admin"])
def test_nobody_but_the_coachee_may_rate_and_nothing_is_saved(org, who):
    session = held(org.manager, org.rep)
    message = refused(lambda: rate(session, getattr(org, who), 5, "Great"))
    assert message == "Only the person coached in this session can rate it."
    assert not SessionRating.objects.exists()


@pytest.mark.django_db
def test_a_session_not_held_cannot_be_rated_scheduled_missed_or_cancelled(org):
    scheduled = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(hours=2))
    assert "once it has been held" in refused(lambda: rate(scheduled, org.rep, 4))
    cancelled = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=2))
    session_cancel(session=cancelled, actor=org.manager, reason="travel")
    cancelled.refresh_from_db()
    assert "once it has been held" in refused(lambda: rate(cancelled, org.rep, 4))
    assert not SessionRating.objects.exists()


@pytest.mark.django_db
def test_kinds_without_a_coachee_are_not_rated(org):
    focus = FocusAreaFactory()
    start = timezone.now() - timedelta(hours=3)
    role_play = role_play_create(
        coach=org.manager, participants=[org.rep], focus_area=focus, start=start, scenario="Go"
    )
    peer = peer_session_create(actor=org.rep, peer=org.peer, start=start)
    session_mark_held(session=role_play, actor=org.manager)
    session_mark_held(session=peer, actor=org.rep)
    for session in (role_play, peer):
        session.refresh_from_db()
        assert refused(lambda s=session: rate(s, org.rep, 4)) == (
            "Only 1:1s and manager reviews are rated."
        )
    assert not SessionRating.objects.exists()


@pytest.mark.django_db
def test_it_is_open_for_fourteen_days_after_the_session_was_held(org):
    session = held(org.manager, org.rep, ago=timedelta(hours=1))
    closes = session.held_at + timedelta(days=RATING_DAYS)
    with time_machine.travel(closes - timedelta(seconds=1), tick=False):
        rate(session, org.rep, 3)
    with time_machine.travel(closes + timedelta(seconds=1), tick=False):
        message = refused(lambda: rate(session, org.rep, 5, "Changed my mind"))
        assert message == (
            "Ratings are open for 14 days after a session; "
            "this one can no longer be rated or changed."
        )
        assert "no longer" in refused(lambda: session_rating_delete(session=session, rater=org.rep))
    rating = SessionRating.objects.get()
    assert (rating.score, rating.comment) == (3, "")


@pytest.mark.django_db
def test_a_session_held_fifteen_days_ago_was_never_rated_and_cannot_be(org):
    session = held(org.manager, org.rep, ago=timedelta(days=15))
    assert "no longer" in refused(lambda: rate(session, org.rep, 4))
    assert not SessionRating.objects.exists()


@pytest.mark.django_db
def test_the_window_follows_when_it_was_held_not_when_it_was_planned(org):
    """A missed 1:1 logged held later opens for rating from then."""
    start = timezone.now() - timedelta(days=20)
    session = one_on_one(org.manager, org.rep, start=start)
    session_mark_held(session=session, actor=org.manager)  # held_at: now
    session.refresh_from_db()
    assert rate(session, org.rep, 4).score == 4


@pytest.mark.django_db
def test_rating_again_within_the_window_changes_the_same_row(org):
    session = held(org.manager, org.rep)
    first = rate(session, org.rep, 2, "Felt rushed")
    with time_machine.travel(timezone.now() + timedelta(days=3), tick=False):
        second = rate(session, org.rep, 4, "")
    assert second.pk == first.pk
    assert SessionRating.objects.count() == 1
    second.refresh_from_db()
    assert (second.score, second.comment) == (4, "")
    assert second.created_at == first.created_at < second.updated_at


@pytest.mark.django_db
@pytest.mark.parametrize("score", [0, 6, -1, "4", 4.0, None, True])
def test_a_score_outside_one_to_five_is_refused_and_nothing_changes(org, score):
    session = held(org.manager, org.rep)
    rate(session, org.rep, 3, "Kept")
    with pytest.raises(ValidationError) as refusal:
        rate(session, org.rep, score, "Overwritten")
    assert refusal.value.message_dict == {
        "score": ["Rate it from 1 (not useful) to 5 (very useful)."]
    }
    rating = SessionRating.objects.get()
    assert (rating.score, rating.comment) == (3, "Kept")


@pytest.mark.django_db
def test_a_comment_over_a_thousand_characters_is_refused(org):
    session = held(org.manager, org.rep)
    with pytest.raises(ValidationError) as refusal:
        rate(session, org.rep, 4, "x" * 1001)
    assert refusal.value.message_dict == {"comment": ["Keep the comment under 1,000 characters."]}
    assert not SessionRating.objects.exists()
    assert len(rate(session, org.rep, 4, "x" * 1000).comment) == 1000


@pytest.mark.django_db
def test_the_coachee_may_take_their_rating_back_while_it_is_open(org):
    session = held(org.manager, org.rep)
    rate(session, org.rep, 1)
    session_rating_delete(session=session, rater=org.rep)
    assert not SessionRating.objects.exists()
    assert "not rated" in refused(lambda: session_rating_delete(session=session, rater=org.rep))
    assert "Only the person coached" in refused(
        lambda: session_rating_delete(session=session, rater=org.manager)
    )


@pytest.mark.django_db
def test_the_database_refuses_a_score_outside_one_to_five(org):
    from django.db import IntegrityError, transaction

    session = held(org.manager, org.rep)
    rating = rate(session, org.rep, 4)
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionRating.objects.filter(pk=rating.pk).update(score=6)
    with pytest.raises(IntegrityError), transaction.atomic():
        SessionRating.objects.create(
            session=session,
            rater=org.manager,
            coach=org.manager,
            session_start=session.scheduled_start,
            score=3,
        )
