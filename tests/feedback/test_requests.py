from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from feedback.models import FeedbackRequest, Stream
from feedback.selectors import my_feedback
from feedback.services import (
    feedback_request_answer,
    feedback_request_create,
    feedback_request_decline,
    literacy_hints,
)
from tests.support.factories import UserFactory


def soon():
    return timezone.localdate() + timedelta(days=7)


@pytest.mark.django_db
def test_a_request_asks_the_default_question_and_tracks_each_responder(org):
    request = feedback_request_create(
        requester=org.rep, responders=[org.peer, org.manager], due_on=soon()
    )
    assert request.question == "What's one thing I could do differently to be more effective?"
    assert request.stream == Stream.DEVELOPMENTAL
    feedback_request_answer(request=request, responder=org.peer, observation="You paused well")
    feedback_request_decline(request=request, responder=org.manager)
    assert dict(request.responders.values_list("responder__email", "status")) == {
        "peer@example.com": "answered",
        "manager@example.com": "declined",
    }
    with pytest.raises(ValidationError, match="already"):
        feedback_request_decline(request=request, responder=org.peer)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"responders": []}, "Ask at least one person"),
        ({"responders": "self"}, "other than yourself"),
        ({"responders": "twice"}, "asked once"),
        ({"due_on": "past"}, "in the past"),
        ({"stream": "both"}, "developmental or evaluative"),
    ],
)
def test_bad_requests_are_refused_and_nothing_is_saved(org, change, message):
    kwargs = {"requester": org.rep, "responders": [org.peer], "due_on": soon()}
    if change.get("responders") == "self":
        kwargs["responders"] = [org.rep]
    elif change.get("responders") == "twice":
        kwargs["responders"] = [org.peer, org.peer]
    elif "responders" in change:
        kwargs["responders"] = []
    if change.get("due_on") == "past":
        kwargs["due_on"] = timezone.localdate() - timedelta(days=3)
    if "stream" in change:
        kwargs["stream"] = change["stream"]
    with pytest.raises(ValidationError, match=message):
        feedback_request_create(**kwargs)
    assert not FeedbackRequest.objects.exists()


@pytest.mark.django_db
def test_anonymous_upward_feedback_needs_three_direct_reports_and_shows_after_three_answers(org):
    with pytest.raises(ValidationError, match="at least 3"):
        feedback_request_create(
            requester=org.manager, responders=[org.rep, org.peer], due_on=soon(), anonymous=True
        )
    third = UserFactory(manager=org.manager)
    request = feedback_request_create(
        requester=org.manager, responders=[org.rep, org.peer, third], due_on=soon(), anonymous=True
    )
    feedback_request_answer(request=request, responder=org.rep, observation="Ask more questions")
    feedback_request_answer(request=request, responder=org.peer, observation="Shorter 1:1s")
    assert list(my_feedback(user=org.manager, stream=Stream.DEVELOPMENTAL)) == []
    feedback_request_answer(request=request, responder=third, observation="Go last in reviews")
    shown = list(my_feedback(user=org.manager, stream=Stream.DEVELOPMENTAL))
    assert len(shown) == 3 and all(item.anonymous for item in shown)


@pytest.mark.django_db
def test_the_literacy_checker_flags_interpretation_but_never_blocks(org):
    hints = literacy_hints("You seem disengaged and you always check your phone")
    assert {h.phrase for h in hints} == {"you seem", "disengaged", "you always"}
    assert literacy_hints("You spoke for 40 of the 45 minutes") == []
