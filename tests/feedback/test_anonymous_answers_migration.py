"""Migration feedback/0005 makes the anonymous answers given before it as untraceable
as new ones: a random public id each, the day they came rather than the moment (on
the answer and on the asked person's row), and no share with anyone who was asked —
the share history that once named the author by leaving them out. Named feedback
and its shares are left as they were."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from feedback.models import Feedback, FeedbackRequest, FeedbackShare, RequestedResponder
from feedback.services import feedback_request_answer, feedback_request_create
from tests.support.factories import FeedbackFactory, UserFactory
from tests.support.migrations import migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = ("feedback", "0004_goal_and_focus_links")
AFTER = ("feedback", "0005_anonymous_answers_unlinkable")
MOMENT = datetime(2026, 11, 3, 14, 25, 31, 123456, tzinfo=UTC)


def test_answers_given_before_lose_their_moment_and_their_telling_shares(org):
    third = UserFactory(display_name="Tara Third", manager=org.manager)
    asked = [org.rep, org.peer, third]
    request = feedback_request_create(
        requester=org.manager,
        responders=asked,
        due_on=timezone.localdate() + timedelta(days=3),
        anonymous=True,
    )
    for person in asked:
        feedback_request_answer(request=request, responder=person, observation="Go slower")
    Feedback.objects.filter(request=request).update(created_at=MOMENT)
    # Asked the same day (0006 then dates every answer by the day it was asked).
    FeedbackRequest.objects.filter(pk=request.pk).update(created_at=MOMENT - timedelta(hours=3))
    RequestedResponder.objects.filter(request=request).update(answered_at=MOMENT)
    answer = Feedback.objects.get(request=request, author=org.rep)
    # What the API let the manager do before: share with every asked but the author.
    for person in (org.peer, third, org.head):
        FeedbackShare.objects.create(feedback=answer, person=person)
    named = FeedbackFactory(author=org.peer, recipient=org.manager, created_at=MOMENT)
    FeedbackShare.objects.create(feedback=named, person=org.rep)

    migrate(BEFORE)
    try:
        migrate(AFTER)
    finally:
        migrate_to_latest()

    answers = Feedback.objects.filter(request=request)
    assert len({a.public_id for a in answers}) == 3 and None not in {a.public_id for a in answers}
    day = datetime(2026, 11, 3, tzinfo=UTC)
    assert {a.created_at for a in answers} == {day}
    assert set(RequestedResponder.objects.values_list("answered_at", flat=True)) == {day}
    assert [s.person for s in FeedbackShare.objects.filter(feedback=answer)] == [org.head]
    named.refresh_from_db()
    assert (named.public_id, named.created_at) == (None, MOMENT)
    assert FeedbackShare.objects.filter(feedback=named, person=org.rep).exists()


def test_answers_given_before_0006_carry_the_day_their_request_was_asked(org):
    """0006: the day each answer came would tell the requester who answered late."""
    third = UserFactory(display_name="Tara Third", manager=org.manager)
    asked = [org.rep, org.peer, third]
    request = feedback_request_create(
        requester=org.manager,
        responders=asked,
        due_on=timezone.localdate() + timedelta(days=3),
        anonymous=True,
    )
    for person in asked:
        feedback_request_answer(request=request, responder=person, observation="Go slower")
    asked_on = datetime(2026, 11, 1, 0, 0, tzinfo=UTC)
    FeedbackRequest.objects.filter(pk=request.pk).update(created_at=asked_on + timedelta(hours=9))
    for n, person in enumerate(asked):
        came = asked_on + timedelta(days=2 + n)
        Feedback.objects.filter(request=request, author=person).update(created_at=came)
        RequestedResponder.objects.filter(request=request, responder=person).update(
            answered_at=came
        )
    named = FeedbackFactory(author=org.peer, recipient=org.manager, created_at=MOMENT)

    migrate(AFTER)
    try:
        migrate(("feedback", "0006_anonymous_answers_dated_by_their_request"))
    finally:
        migrate_to_latest()

    answers = Feedback.objects.filter(request=request)
    assert {a.created_at for a in answers} == {asked_on}
    assert set(RequestedResponder.objects.values_list("answered_at", flat=True)) == {asked_on}
    named.refresh_from_db()
    assert named.created_at == MOMENT
