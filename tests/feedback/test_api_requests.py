"""Feedback requests through the API: asking, the inbox, answering and declining, and
anonymous upward requests whose answers stay hidden — and authorless — until enough
of them arrived."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from feedback.models import Feedback, FeedbackRequest, RequestedResponder, Stream
from feedback.services import feedback_request_answer, feedback_request_create
from tests.support.factories import UserFactory


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return signed_in


def in_days(days):
    return timezone.localdate() + timedelta(days=days)


def ask(requester, responders, **extra):
    return feedback_request_create(
        requester=requester, responders=responders, due_on=in_days(7), **extra
    )


def ids(response):
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["results"]]


def refs(response):
    assert response.status_code == 200, response.content
    return [row["ref"] for row in response.json()["results"]]


def person(user):
    return {"id": user.pk, "display_name": user.display_name}


# --- Asking --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_rep_asks_two_people_and_sees_each_ones_status(api, org):
    response = api(org.rep).post(
        "/api/v1/feedback-requests/",
        {
            "responders": [org.peer.pk, org.manager.pk],
            "due_on": in_days(7).isoformat(),
            "topic": "Discovery calls",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["requester"] == person(org.rep)
    assert body["question"] == "What's one thing I could do differently to be more effective?"
    assert (body["stream"], body["anonymous"], body["topic"]) == (
        "developmental",
        False,
        "Discovery calls",
    )
    assert [(r["person"], r["status"]) for r in body["responders"]] == [
        (person(org.peer), "waiting"),
        (person(org.manager), "waiting"),
    ]
    assert body["counts"] == {
        "asked": 2,
        "answered": 0,
        "declined": 0,
        "waiting": 2,
        "answered_band": None,
    }
    assert (body["answers"], body["answers_shown"]) == ([], True)


BAD_REQUESTS = {
    "to oneself": (
        lambda org: {"responders": [org.rep.pk]},
        {"responders": ["Ask someone other than yourself."]},
    ),
    "duplicate responders": (
        lambda org: {"responders": [org.peer.pk, org.peer.pk]},
        {"responders": ["Each person can be asked once."]},
    ),
    "nobody": (lambda org: {"responders": []}, {"responders": ["Ask at least one person."]}),
    "unknown responder": (
        lambda org: {"responders": [org.peer.pk, 987_654]},
        {"responders": ["No active person with id 987654."]},
    ),
    "past due date": (
        lambda org: {"due_on": in_days(-1).isoformat()},
        {"due_on": ["The due date is in the past."]},
    ),
    "far due date": (
        lambda org: {"due_on": in_days(200).isoformat()},
        {"due_on": ["Pick a due date within six months."]},
    ),
    "no due date": (lambda org: {"due_on": None}, {"due_on": ["This field may not be null."]}),
    "unknown stream": (
        lambda org: {"stream": "both"},
        {"stream": ['"both" is not a valid choice.']},
    ),
    "long question": (
        lambda org: {"question": "x" * 501},
        {"question": ["Ensure this field has no more than 500 characters."]},
    ),
    # Beyond any id a column holds: unknown, not a database error (found by fuzzing).
    "an id no database holds": (
        lambda org: {"responders": [2**70]},
        {"responders": [f"No active person with id {2**70}."]},
    ),
    "someone else as requester": (
        lambda org: {"requester": org.manager.pk},
        {"requester": ["Unknown field."]},
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", BAD_REQUESTS)
def test_bad_requests_are_refused_and_nothing_is_saved(api, org, case):
    change, expected = BAD_REQUESTS[case]
    body = {"responders": [org.peer.pk], "due_on": in_days(7).isoformat()} | change(org)
    response = api(org.rep).post("/api/v1/feedback-requests/", body, format="json")
    assert response.status_code == 400
    assert response.json() == expected
    assert not FeedbackRequest.objects.exists()
    assert not RequestedResponder.objects.exists()


@pytest.mark.django_db
def test_a_deactivated_responder_cannot_be_asked(api, org):
    gone = UserFactory(is_active=False)
    response = api(org.rep).post(
        "/api/v1/feedback-requests/",
        {"responders": [org.peer.pk, gone.pk], "due_on": in_days(7).isoformat()},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {"responders": [f"No active person with id {gone.pk}."]}
    assert not FeedbackRequest.objects.exists()


# --- Who sees a request --------------------------------------------------------------


@pytest.mark.django_db
def test_someone_asked_sees_the_request_and_only_their_own_place_in_it(api, org):
    request = ask(org.rep, [org.peer, org.manager])
    body = api(org.peer).get(f"/api/v1/feedback-requests/{request.pk}/").json()
    assert [(r["person"], r["status"]) for r in body["responders"]] == [
        (person(org.peer), "waiting")
    ]
    assert (body["counts"], body["answers"]) == (None, None)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["head", "hr", "admin", "other_rep", "other_manager"])
def test_everyone_else_gets_404_and_an_empty_list(api, org, who):
    request = ask(org.rep, [org.peer, org.manager])
    client = api(getattr(org, who))
    assert ids(client.get("/api/v1/feedback-requests/")) == []
    assert client.get(f"/api/v1/feedback-requests/{request.pk}/").status_code == 404
    response = client.post(
        f"/api/v1/feedback-requests/{request.pk}/answer/", {"observation": "x"}, format="json"
    )
    assert response.status_code == 404
    assert client.post(f"/api/v1/feedback-requests/{request.pk}/decline/").status_code == 404


@pytest.mark.django_db
def test_anonymous_callers_get_401(api, org):
    request = ask(org.rep, [org.peer])
    client = api()
    assert client.get("/api/v1/feedback-requests/").status_code == 401
    assert client.get(f"/api/v1/feedback-requests/{request.pk}/").status_code == 401
    assert client.get("/api/v1/feedback-inbox/").status_code == 401
    assert client.post(f"/api/v1/feedback-requests/{request.pk}/decline/").status_code == 401


# --- Inbox, answering, declining -----------------------------------------------------


@pytest.mark.django_db
def test_the_inbox_lists_what_waits_on_me_soonest_due_first(api, org):
    later = ask(org.rep, [org.peer], topic="Demos")
    sooner = feedback_request_create(
        requester=org.manager, responders=[org.peer], due_on=in_days(2)
    )
    ask(org.rep, [org.manager])  # someone else's inbox
    body = api(org.peer).get("/api/v1/feedback-inbox/").json()
    assert [row["request"]["id"] for row in body["results"]] == [sooner.pk, later.pk]
    assert body["results"][1]["request"]["requester"] == person(org.rep)
    assert body["results"][1]["request"]["topic"] == "Demos"
    assert {row["status"] for row in body["results"]} == {"waiting"}
    assert api(org.rep).get("/api/v1/feedback-inbox/").json()["count"] == 0


@pytest.mark.django_db
def test_answering_gives_feedback_in_the_requests_stream_and_leaves_the_inbox(api, org):
    request = ask(org.rep, [org.peer, org.manager], stream=Stream.EVALUATIVE)
    client = api(org.peer)
    response = client.post(
        f"/api/v1/feedback-requests/{request.pk}/answer/",
        {"observation": "You always talk too fast", "suggestion": "Count to three"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["stream"] == "evaluative" and body["request"] == request.pk
    assert body["author"] == person(org.peer)
    assert [h["phrase"] for h in body["literacy_hints"]] == ["you always"]
    assert client.get("/api/v1/feedback-inbox/").json()["count"] == 0

    mine = api(org.rep).get(f"/api/v1/feedback-requests/{request.pk}/").json()
    assert [(r["person"]["id"], r["status"]) for r in mine["responders"]] == [
        (org.peer.pk, "answered"),
        (org.manager.pk, "waiting"),
    ]
    assert [a["observation"] for a in mine["answers"]] == ["You always talk too fast"]
    assert mine["answers"][0]["author"] == person(org.peer)  # not anonymous


@pytest.mark.django_db
def test_declining_is_recorded_and_answering_twice_is_refused(api, org):
    request = ask(org.rep, [org.peer, org.manager])
    url = f"/api/v1/feedback-requests/{request.pk}"
    response = api(org.manager).post(f"{url}/decline/")
    assert response.status_code == 200
    assert [r["status"] for r in response.json()["responders"]] == ["declined"]
    response = api(org.manager).post(f"{url}/answer/", {"observation": "Late"}, format="json")
    assert response.status_code == 400
    assert response.json() == ["You have already declined this."]
    api(org.peer).post(f"{url}/answer/", {"observation": "Good pace"}, format="json")
    response = api(org.peer).post(f"{url}/answer/", {"observation": "Again"}, format="json")
    assert response.status_code == 400
    assert response.json() == ["You have already answered this."]
    assert Feedback.objects.count() == 1


@pytest.mark.django_db
def test_the_requester_cannot_answer_or_decline_their_own_request(api, org):
    request = ask(org.rep, [org.peer])
    client = api(org.rep)
    response = client.post(
        f"/api/v1/feedback-requests/{request.pk}/answer/", {"observation": "Me"}, format="json"
    )
    assert response.status_code == 403
    assert response.json() == {"detail": "You were not asked for this feedback."}
    assert client.post(f"/api/v1/feedback-requests/{request.pk}/decline/").status_code == 403
    assert not Feedback.objects.exists()


@pytest.mark.django_db
def test_an_empty_answer_or_a_decline_with_a_body_is_refused(api, org):
    request = ask(org.rep, [org.peer])
    client = api(org.peer)
    response = client.post(
        f"/api/v1/feedback-requests/{request.pk}/answer/", {"observation": " "}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"observation": ["Say what happened: what you saw or heard."]}
    response = client.post(
        f"/api/v1/feedback-requests/{request.pk}/decline/", {"reason": "busy"}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"reason": ["Unknown field."]}
    assert RequestedResponder.objects.get().status == "waiting"
    assert not Feedback.objects.exists()


# --- Anonymity -----------------------------------------------------------------------


@pytest.fixture
def reports(org):
    """The manager's three direct reports."""
    return [org.rep, org.peer, UserFactory(display_name="Tara Third", manager=org.manager)]


@pytest.mark.django_db
def test_an_anonymous_request_below_the_threshold_is_refused(api, org, reports):
    for responders in ([org.rep, org.peer], [*reports, org.head]):
        response = api(org.manager).post(
            "/api/v1/feedback-requests/",
            {
                "responders": [r.pk for r in responders],
                "due_on": in_days(7).isoformat(),
                "anonymous": True,
            },
            format="json",
        )
        assert response.status_code == 400
        assert "at least 3 of your direct reports" in response.json()["anonymous"][0]
    assert not FeedbackRequest.objects.exists()


def all_responses_to(client, request):
    return {
        path: client.get(path)
        for path in (
            "/api/v1/feedback/",
            "/api/v1/feedback/?received=1",
            f"/api/v1/feedback/?stream={request.stream}",
            "/api/v1/feedback-requests/",
            f"/api/v1/feedback-requests/{request.pk}/",
        )
    }


@pytest.mark.django_db
@pytest.mark.parametrize("stream", ["developmental", "evaluative"])
def test_anonymous_answers_stay_hidden_until_three_and_never_name_their_author(
    api, org, reports, stream
):
    response = api(org.manager).post(
        "/api/v1/feedback-requests/",
        {
            "responders": [r.pk for r in reports],
            "due_on": in_days(7).isoformat(),
            "anonymous": True,
            "stream": stream,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    request = FeedbackRequest.objects.get()
    manager, head = api(org.manager), api(org.head)

    answers = []
    for n, responder in enumerate(reports[:2]):
        response = api(responder).post(
            f"/api/v1/feedback-requests/{request.pk}/answer/",
            {"observation": f"ANSWER{n} ask more questions"},
            format="json",
        )
        assert response.status_code == 201
        assert response.json()["anonymous"] is True
        assert response.json()["author"] == person(responder)  # the author knows
        assert response.json()["id"] is None  # no number from the shared sequence
        answers.append(response.json()["ref"])

    # Two answers: nothing of them reaches the requester, nor the requester's manager.
    for client in (manager, head):
        for path, response in all_responses_to(client, request).items():
            assert "ANSWER" not in response.content.decode(), path
        for answer in answers:
            assert client.get(f"/api/v1/feedback/{answer}/").status_code == 404
    body = manager.get(f"/api/v1/feedback-requests/{request.pk}/").json()
    assert (body["answers"], body["answers_shown"]) == ([], False)
    # Who answered is not shown either, nor how many: only that it is not enough yet.
    assert body["counts"] == {
        "asked": 3,
        "answered": None,
        "declined": None,
        "waiting": None,
        "answered_band": "fewer than 3",
    }
    assert {(r["status"], r["answered_at"]) for r in body["responders"]} == {(None, None)}
    # The author still sees their own answer.
    assert api(reports[0]).get(f"/api/v1/feedback/{answers[0]}/").status_code == 200

    api(reports[2]).post(
        f"/api/v1/feedback-requests/{request.pk}/answer/",
        {"observation": "ANSWER2 go last in reviews"},
        format="json",
    )

    # Three answers: shown, and no response to the requester names an author.
    body = manager.get(f"/api/v1/feedback-requests/{request.pk}/").json()
    assert body["answers_shown"] is True
    assert sorted(a["observation"][:7] for a in body["answers"]) == [
        "ANSWER0",
        "ANSWER1",
        "ANSWER2",
    ]
    assert {r["status"] for r in body["responders"]} == {None}
    for path, response in all_responses_to(manager, request).items():
        assert response.status_code == 200, path
        for row in found_feedback(response.json()):
            assert row["author"] is None, path
    received = refs(manager.get("/api/v1/feedback/?received=1"))
    assert len(received) == 3
    for answer in received:
        assert manager.get(f"/api/v1/feedback/{answer}/").json()["author"] is None
    if stream == "evaluative":  # the chain reads them too, without authors
        assert all(head.get(f"/api/v1/feedback/{a}/").json()["author"] is None for a in received)


def found_feedback(body):
    """Every feedback item in a response body, wherever it sits."""
    if isinstance(body, dict):
        if "observation" in body:
            yield body
        for value in body.values():
            yield from found_feedback(value)
    elif isinstance(body, list):
        for value in body:
            yield from found_feedback(value)


@pytest.mark.django_db
def test_a_responder_to_an_anonymous_request_sees_only_their_own_status(api, org, reports):
    request = ask(org.manager, reports, anonymous=True)
    feedback_request_answer(request=request, responder=reports[1], observation="Shorter 1:1s")
    body = api(reports[0]).get(f"/api/v1/feedback-requests/{request.pk}/").json()
    assert [(r["person"]["id"], r["status"]) for r in body["responders"]] == [
        (reports[0].pk, "waiting")
    ]
    assert body["counts"] is None and body["answers"] is None


# --- Query counts --------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("how_many", [3, 30])
def test_the_request_list_takes_the_same_number_of_queries_for_3_or_30(api, org, how_many):
    for n in range(how_many):
        responders = [org.peer, org.manager] if n % 2 else [org.head]
        ask(org.rep, responders)
    client = api(org.rep)
    client.get("/api/v1/feedback-requests/")
    # 1 session row, 2 user, 3 count, 4 requests with their requester,
    # 5 responders with their people (prefetch)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/feedback-requests/")
    assert response.json()["count"] == how_many
    assert len(queries) == 5, [q["sql"] for q in queries]


@pytest.mark.django_db
@pytest.mark.parametrize("how_many", [3, 30])
def test_the_inbox_takes_the_same_number_of_queries_for_3_or_30(api, org, how_many):
    for n in range(how_many):
        ask(org.rep if n % 2 else org.manager, [org.peer])
    client = api(org.peer)
    client.get("/api/v1/feedback-inbox/")
    # 1 session row, 2 user, 3 count, 4 waiting rows with request and requester
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/feedback-inbox/")
    assert response.json()["count"] == how_many
    assert len(queries) == 4, [q["sql"] for q in queries]


@pytest.mark.django_db
def test_the_rule_gathers_exactly_the_requests_each_person_made_or_was_asked(org):
    """FeedbackRequest.visible_to gathers ids from two indexes (made, asked); for
    everyone it equals the rule read request by request."""
    people = [org.head, org.manager, org.other_manager, org.rep, org.peer, org.other_rep]
    for n, requester in enumerate(people):
        asked = [p for p in people if p != requester][n % 3 : n % 3 + 2]
        ask(requester, asked)
    requests = FeedbackRequest.objects.prefetch_related("responders")
    sizes = set()
    for person in [*people, org.hr, org.admin]:
        expected = {
            r.pk
            for r in requests
            if r.requester_id == person.pk
            or any(x.responder_id == person.pk for x in r.responders.all())
        }
        found = set(FeedbackRequest.objects.visible_to(person).values_list("pk", flat=True))
        assert found == expected, person
        sizes.add(len(found))
    assert len(sizes) > 2  # the world tells people apart
