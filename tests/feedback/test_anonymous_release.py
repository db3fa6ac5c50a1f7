"""Anonymous answers are released once, all together: when the request is over — it
closed at the end of its due date in the last zone on Earth, or nobody asked is
still waiting — with at least the threshold of answers. A closed anonymous request
takes no more answers, so none ever appears on its own (issue 56: a late answer
that trickled in after the first batch named whoever the requester knew was late)."""

from datetime import date, timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError

from feedback.models import Feedback, RequestedResponder, Stream
from feedback.selectors import evaluative_reviews, feedback_inbox, my_feedback
from feedback.services import (
    feedback_request_answer,
    feedback_request_create,
    feedback_request_decline,
)
from people.roles import Role
from tests.support.factories import UserFactory

ASKED_ON = "2026-12-07 09:00 +00:00"
DUE = date(2026, 12, 11)
# The end of 11 Dec in UTC−12: the request closes for everyone at once.
JUST_BEFORE_CLOSE = "2026-12-12 11:59 +00:00"
CLOSED = "2026-12-12 12:00 +00:00"


def _four_asked(org, stream=Stream.EVALUATIVE):
    r3 = UserFactory(display_name="Rami Three", manager=org.manager)
    r4 = UserFactory(display_name="Rosa Four", manager=org.manager)
    request = feedback_request_create(
        requester=org.manager,
        responders=[org.rep, org.peer, r3, r4],
        due_on=DUE,
        stream=stream,
        anonymous=True,
    )
    return request, [org.rep, org.peer, r3, r4]


def _answer(request, people, words="Shorter 1:1s"):
    for person in people:
        feedback_request_answer(request=request, responder=person, observation=words)


def _seen_by_everyone(org, request) -> dict[str, int]:
    """How many answers to `request` the requester, their manager and HR read."""
    answers = Feedback.objects.filter(request=request).values("pk")
    return {
        "requester": my_feedback(user=org.manager, stream=request.stream)
        .filter(pk__in=answers)
        .count(),
        "manager": evaluative_reviews(user=org.head, roles=[Role.MANAGER])
        .filter(pk__in=answers)
        .count(),
        "hr": evaluative_reviews(user=org.hr, roles=[Role.HR]).filter(pk__in=answers).count(),
    }


def _nobody_sees(seen):
    return seen == {"requester": 0, "manager": 0, "hr": 0}


@pytest.mark.django_db
def test_the_third_answer_releases_nothing_while_someone_asked_may_still_answer(org):
    with time_machine.travel(ASKED_ON, tick=False) as clock:
        request, asked = _four_asked(org)
        _answer(request, asked[:3])
        assert _nobody_sees(_seen_by_everyone(org, request))
        clock.move_to(JUST_BEFORE_CLOSE)  # still its due date in the last zone on Earth
        assert _nobody_sees(_seen_by_everyone(org, request))
        clock.move_to(CLOSED)
        assert _seen_by_everyone(org, request) == {"requester": 3, "manager": 3, "hr": 3}
        # Their authors read their own all along.
        assert Feedback.objects.filter(request=request, author=asked[0]).count() == 1


@pytest.mark.django_db
def test_a_closed_anonymous_request_takes_no_more_answers_and_leaves_the_inbox(org):
    with time_machine.travel(ASKED_ON, tick=False) as clock:
        request, asked = _four_asked(org)
        _answer(request, asked[:3])
        late = asked[3]
        assert [row.request_id for row in feedback_inbox(user=late)] == [request.pk]
        clock.move_to(JUST_BEFORE_CLOSE)
        assert [row.request_id for row in feedback_inbox(user=late)] == [request.pk]
        clock.move_to(CLOSED)
        assert list(feedback_inbox(user=late)) == []
        with pytest.raises(ValidationError, match="closed on 11 Dec 2026") as refused:
            feedback_request_answer(request=request, responder=late, observation="Too late")
        assert "would appear on their own" in str(refused.value)
        assert Feedback.objects.filter(request=request).count() == 3
        assert RequestedResponder.objects.get(request=request, responder=late).status == "waiting"
        assert _seen_by_everyone(org, request)["requester"] == 3


@pytest.mark.django_db
def test_an_answer_on_the_last_day_joins_the_batch(org):
    with time_machine.travel(ASKED_ON, tick=False) as clock:
        request, asked = _four_asked(org)
        _answer(request, asked[:3])
        clock.move_to(JUST_BEFORE_CLOSE)
        _answer(request, asked[3:])  # the last one asked: the request is over
        assert _seen_by_everyone(org, request) == {"requester": 4, "manager": 4, "hr": 4}


@pytest.mark.django_db
def test_everyone_having_replied_releases_before_the_due_date(org):
    with time_machine.travel(ASKED_ON, tick=False):
        request, asked = _four_asked(org)
        _answer(request, asked[:3])
        assert _nobody_sees(_seen_by_everyone(org, request))
        feedback_request_decline(request=request, responder=asked[3])
        assert _seen_by_everyone(org, request) == {"requester": 3, "manager": 3, "hr": 3}


@pytest.mark.django_db
def test_too_few_answers_stay_held_back_after_the_close(org):
    with time_machine.travel(ASKED_ON, tick=False) as clock:
        request, asked = _four_asked(org)
        _answer(request, asked[:2])
        clock.move_to(CLOSED)
        assert _nobody_sees(_seen_by_everyone(org, request))


@pytest.mark.django_db
def test_every_answer_carries_the_day_the_request_was_asked_not_the_day_it_came(org):
    with time_machine.travel(ASKED_ON, tick=False) as clock:
        request, asked = _four_asked(org)
        for person in asked:
            _answer(request, [person])
            clock.shift(timedelta(days=1, hours=3))
    days = set(Feedback.objects.filter(request=request).values_list("created_at", flat=True))
    answered = set(
        RequestedResponder.objects.filter(request=request).values_list("answered_at", flat=True)
    )
    assert len(days) == 1 and days == answered
    assert days.pop().isoformat() == "2026-12-07T00:00:00+00:00"


@pytest.mark.django_db
def test_the_page_and_the_api_say_a_closed_request_takes_no_answer(client, org):
    with time_machine.travel(ASKED_ON, tick=False) as clock:
        request, asked = _four_asked(org, stream=Stream.DEVELOPMENTAL)
        _answer(request, asked[:3])
        late = asked[3]
        client.force_login(late)
        page = client.get(f"/feedback/requests/{request.pk}/").content.decode()
        assert "together with the others once the request closes at the end of 11 Dec 2026" in page
        assert "Answers are not taken after it closes." in page
        clock.move_to(CLOSED)
        page = client.get(f"/feedback/requests/{request.pk}/").content.decode()
        assert "This request closed on 11 Dec 2026" in page and "Send answer" not in page
        refused = client.post(f"/feedback/requests/{request.pk}/answer/", {"observation": "Late"})
        assert refused.status_code == 400
        assert "This request closed on 11 Dec 2026" in refused.content.decode()
        api = client.post(
            f"/api/v1/feedback-requests/{request.pk}/answer/",
            {"observation": "Late"},
            content_type="application/json",
        )
        assert api.status_code == 400 and "This request closed on" in api.content.decode()
        assert Feedback.objects.filter(request=request).count() == 3
