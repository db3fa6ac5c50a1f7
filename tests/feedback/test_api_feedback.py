"""Giving feedback through the API, the stream fixed for good, the recipient's
acknowledgement and sharing, filters, and lists whose query count does not grow."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from feedback.models import Feedback, FeedbackShare, Stream
from feedback.services import feedback_give
from tests.support.factories import UserFactory


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return signed_in


def give(org, **extra):
    return feedback_give(
        author=extra.pop("author", org.peer),
        recipient=extra.pop("recipient", org.rep),
        stream=extra.pop("stream", Stream.DEVELOPMENTAL),
        observation=extra.pop("observation", "You let the customer finish before answering"),
        **extra,
    )


def body_for(recipient, **extra):
    return {
        "recipient": recipient.pk,
        "stream": "developmental",
        "observation": "You spoke for 40 of the 45 minutes",
        "impact": "The customer asked no questions",
        "suggestion": "Pause after the price",
        **extra,
    }


def ids(response):
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["results"]]


# --- Giving --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_peer_gives_developmental_feedback(api, org):
    response = api(org.peer).post("/api/v1/feedback/", body_for(org.rep), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    item = Feedback.objects.get()
    assert body["id"] == item.pk
    assert (item.author, item.recipient, item.stream, item.direction) == (
        org.peer,
        org.rep,
        "developmental",
        "peer",
    )
    assert body["author"] == {"id": org.peer.pk, "display_name": "Pavel Peer"}
    assert body["observation"] == "You spoke for 40 of the 45 minutes"
    assert body["literacy_hints"] == []
    assert (body["reflection"], body["themes"], body["shared_with"]) == (None, None, None)


@pytest.mark.django_db
def test_interpretive_language_gets_hints_but_is_saved_as_written(api, org):
    observation = "You seem disengaged and you always check your phone"
    response = api(org.manager).post(
        "/api/v1/feedback/", body_for(org.rep, observation=observation), format="json"
    )
    assert response.status_code == 201
    hints = response.json()["literacy_hints"]
    assert {h["phrase"] for h in hints} == {"you seem", "disengaged", "you always"}
    assert all(h["hint"] for h in hints)
    assert Feedback.objects.get().observation == observation


@pytest.mark.django_db
def test_the_direction_follows_the_reporting_line(api, org):
    api(org.manager).post("/api/v1/feedback/", body_for(org.rep), format="json")
    api(org.rep).post("/api/v1/feedback/", body_for(org.head, stream="evaluative"), format="json")
    assert list(Feedback.objects.order_by("pk").values_list("direction", "stream")) == [
        ("downward", "developmental"),
        ("upward", "evaluative"),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"observation": ""}, {"observation": ["Say what happened: what you saw or heard."]}),
        ({"observation": "   "}, {"observation": ["Say what happened: what you saw or heard."]}),
        ({"recipient": 987_654}, {"recipient": ["No active person with id 987654."]}),
        (
            {"recipient": "rita"},
            {"recipient": ["Give a person's id (a number), not str."]},
        ),
        ({"stream": "both"}, {"stream": ['"both" is not a valid choice.']}),
        ({"anonymous": True}, {"anonymous": ["Unknown field."]}),
        ({"direction": "upward"}, {"direction": ["Unknown field."]}),
        (
            {"impact": "x" * 5001},
            {"impact": ["Ensure this field has no more than 5000 characters."]},
        ),
    ],
)
def test_bad_feedback_is_refused_and_nothing_is_saved(api, org, change, expected):
    response = api(org.peer).post("/api/v1/feedback/", body_for(org.rep) | change, format="json")
    assert response.status_code == 400
    assert response.json() == expected
    assert not Feedback.objects.exists()


@pytest.mark.django_db
def test_missing_fields_are_refused(api, org):
    response = api(org.peer).post("/api/v1/feedback/", {}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"recipient", "stream", "observation"}
    assert not Feedback.objects.exists()


@pytest.mark.django_db
def test_a_deactivated_person_cannot_be_given_feedback(api, org):
    gone = UserFactory(is_active=False)
    response = api(org.peer).post("/api/v1/feedback/", body_for(gone), format="json")
    assert response.status_code == 400
    assert response.json() == {"recipient": [f"No active person with id {gone.pk}."]}
    assert not Feedback.objects.exists()


# --- The stream never changes --------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "peer"])
@pytest.mark.parametrize("method", ["patch", "put"])
def test_changing_the_stream_is_refused_and_the_row_is_unchanged(api, org, who, method):
    item = give(org)
    before = Feedback.objects.filter(pk=item.pk).values().get()
    response = getattr(api(getattr(org, who)), method)(
        f"/api/v1/feedback/{item.pk}/", {"stream": "evaluative"}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"stream": ["The stream cannot be changed."]}
    assert Feedback.objects.filter(pk=item.pk).values().get() == before


@pytest.mark.django_db
def test_acknowledging_cannot_change_the_stream_either(api, org):
    item = give(org)
    response = api(org.rep).post(
        f"/api/v1/feedback/{item.pk}/acknowledge/", {"stream": "evaluative"}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"stream": ["The stream cannot be changed."]}
    item.refresh_from_db()
    assert (item.stream, item.acknowledged_at) == ("developmental", None)


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["patch", "put", "delete"])
def test_feedback_is_never_edited_or_deleted_directly(api, org, method):
    item = give(org)
    response = getattr(api(org.rep), method)(
        f"/api/v1/feedback/{item.pk}/", {"observation": "Nicer words"}, format="json"
    )
    assert response.status_code == 405
    assert Feedback.objects.filter(
        pk=item.pk, observation="You let the customer finish before answering"
    ).exists()


@pytest.mark.django_db
def test_editing_feedback_one_cannot_see_is_a_404_not_a_hint(api, org):
    item = give(org)
    response = api(org.hr).patch(
        f"/api/v1/feedback/{item.pk}/", {"stream": "evaluative"}, format="json"
    )
    assert response.status_code == 404
    assert Feedback.objects.get(pk=item.pk).stream == "developmental"


# --- Acknowledging -------------------------------------------------------------------


@pytest.mark.django_db
def test_the_recipient_acknowledges_with_a_private_reflection_and_themes(api, org):
    item = give(org)
    response = api(org.rep).post(
        f"/api/v1/feedback/{item.pk}/acknowledge/",
        {"reflection": "I rush when nervous", "themes": ["listening", " pace ", "listening"]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["acknowledged_at"] is not None
    assert body["reflection"] == "I rush when nervous"
    assert body["themes"] == ["listening", "pace"]
    author_view = api(org.peer).get(f"/api/v1/feedback/{item.pk}/").json()
    assert author_view["acknowledged_at"] == body["acknowledged_at"]
    assert (author_view["reflection"], author_view["themes"]) == (None, None)


@pytest.mark.django_db
def test_acknowledging_again_keeps_the_themes_unless_sent(api, org):
    item = give(org)
    client = api(org.rep)
    url = f"/api/v1/feedback/{item.pk}/acknowledge/"
    client.post(url, {"themes": ["listening"]}, format="json")
    body = client.post(url, {"reflection": "Still true"}, format="json").json()
    assert (body["themes"], body["reflection"]) == (["listening"], "Still true")
    assert client.post(url, {"themes": []}, format="json").json()["themes"] == []


@pytest.mark.django_db
def test_only_the_recipient_acknowledges(api, org):
    item = give(org, stream=Stream.EVALUATIVE)
    url = f"/api/v1/feedback/{item.pk}/acknowledge/"
    response = api(org.peer).post(url, {}, format="json")  # the author
    assert response.status_code == 403
    assert response.json() == {"detail": "Only the person who received it can acknowledge it."}
    assert api(org.manager).post(url, {}, format="json").status_code == 403  # the chain
    assert api(org.other_rep).post(url, {}, format="json").status_code == 404
    assert Feedback.objects.get(pk=item.pk).acknowledged_at is None


@pytest.mark.django_db
def test_an_unknown_field_on_acknowledge_is_a_400(api, org):
    item = give(org)
    response = api(org.rep).post(
        f"/api/v1/feedback/{item.pk}/acknowledge/", {"reflextion": "typo"}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"reflextion": ["Unknown field."]}
    assert Feedback.objects.get(pk=item.pk).acknowledged_at is None


# --- Sharing -------------------------------------------------------------------------


@pytest.mark.django_db
def test_sharing_shows_one_item_to_the_named_person_until_revoked(api, org):
    item = give(org, observation="SHAREDMARKER you paused well")
    other = give(org, observation="NOTSHARED you asked good questions")
    rep, manager = api(org.rep), api(org.manager)

    response = rep.post(
        f"/api/v1/feedback/{item.pk}/share/", {"person": org.manager.pk}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["shared_with"] == [{"id": org.manager.pk, "display_name": "Mia Manager"}]
    assert ids(manager.get("/api/v1/feedback/")) == [item.pk]
    body = manager.get(f"/api/v1/feedback/{item.pk}/").json()
    assert "SHAREDMARKER" in body["observation"]
    assert body["shared_with"] is None  # whom else it is shared with is the rep's business
    assert manager.get(f"/api/v1/feedback/{other.pk}/").status_code == 404
    # Shared with the manager is not shared with the manager's manager.
    assert api(org.head).get(f"/api/v1/feedback/{item.pk}/").status_code == 404

    response = rep.post(
        f"/api/v1/feedback/{item.pk}/unshare/", {"person": org.manager.pk}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["shared_with"] == []
    assert ids(manager.get("/api/v1/feedback/")) == []
    assert manager.get(f"/api/v1/feedback/{item.pk}/").status_code == 404
    assert "SHAREDMARKER" not in manager.get("/api/v1/feedback/").content.decode()


@pytest.mark.django_db
def test_sharing_twice_keeps_one_share(api, org):
    item = give(org)
    for _ in range(2):
        api(org.rep).post(
            f"/api/v1/feedback/{item.pk}/share/", {"person": org.manager.pk}, format="json"
        )
    assert FeedbackShare.objects.filter(feedback=item, revoked_at__isnull=True).count() == 1


@pytest.mark.django_db
def test_only_the_recipient_shares(api, org):
    item = give(org)
    response = api(org.peer).post(
        f"/api/v1/feedback/{item.pk}/share/", {"person": org.manager.pk}, format="json"
    )
    assert response.status_code == 403
    assert response.json() == {"detail": "Only the person who received it can share it."}
    response = api(org.peer).post(
        f"/api/v1/feedback/{item.pk}/unshare/", {"person": org.manager.pk}, format="json"
    )
    assert response.status_code == 403
    assert not FeedbackShare.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("stream", "person", "expected"),
    [
        ("evaluative", "manager", ["Evaluative feedback is not shared this way."]),
        ("developmental", "peer", {"person": ["Pick someone else to share it with."]}),
        ("developmental", 987_654, {"person": ["No active person with id 987654."]}),
    ],
)
def test_sharing_that_makes_no_sense_is_refused(api, org, stream, person, expected):
    item = give(org, stream=stream)
    person_id = person if isinstance(person, int) else getattr(org, person).pk
    response = api(org.rep).post(
        f"/api/v1/feedback/{item.pk}/share/", {"person": person_id}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == expected
    assert not FeedbackShare.objects.exists()


# --- Listing -------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_lists_newest_first_and_filters_by_stream_and_side(api, org):
    received_dev = give(org)
    received_eval = give(org, stream=Stream.EVALUATIVE, author=org.manager)
    given_dev = give(org, author=org.rep, recipient=org.peer)
    client = api(org.rep)
    assert ids(client.get("/api/v1/feedback/")) == [given_dev.pk, received_eval.pk, received_dev.pk]
    assert ids(client.get("/api/v1/feedback/?stream=evaluative")) == [received_eval.pk]
    assert ids(client.get("/api/v1/feedback/?received=1")) == [received_eval.pk, received_dev.pk]
    assert ids(client.get("/api/v1/feedback/?given=true")) == [given_dev.pk]
    assert ids(client.get("/api/v1/feedback/?received=1&stream=developmental")) == [received_dev.pk]
    assert ids(client.get("/api/v1/feedback/?received=0")) == ids(client.get("/api/v1/feedback/"))


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["stream=both", "received=perhaps", "given=2"])
def test_malformed_filters_are_a_400(api, org, query):
    response = api(org.rep).get(f"/api/v1/feedback/?{query}")
    assert response.status_code == 400
    assert query.split("=")[0] in response.json()


@pytest.mark.django_db
def test_the_list_is_paginated(api, org):
    give(org)
    body = api(org.rep).get("/api/v1/feedback/").json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 1


def build(org, how_many):
    """Items of both streams, some acknowledged with themes, some shared."""
    from feedback.services import feedback_acknowledge, feedback_share

    for n in range(how_many):
        item = give(
            org,
            author=org.peer if n % 2 else org.manager,
            stream=Stream.EVALUATIVE if n % 3 == 0 else Stream.DEVELOPMENTAL,
        )
        if item.stream == Stream.DEVELOPMENTAL:
            feedback_acknowledge(feedback=item, actor=org.rep, themes=[f"theme {n % 4}"])
            feedback_share(feedback=item, actor=org.rep, person=org.other_manager)


@pytest.mark.django_db
@pytest.mark.parametrize("how_many", [3, 30])
def test_the_recipients_list_takes_the_same_number_of_queries_for_3_or_30(api, org, how_many):
    build(org, how_many)
    client = api(org.rep)
    client.get("/api/v1/feedback/")  # warm up: content types, first-use caches
    # 1 session row, 2 user, 3 roles, 4 count, 5 the page's ids, 6 their feedback
    # with author and recipient, 7 themes (prefetch), 8 live shares with their people
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/feedback/")
    assert response.json()["count"] == how_many
    assert len(queries) == 8, [q["sql"] for q in queries]


@pytest.mark.django_db
@pytest.mark.parametrize("how_many", [3, 30])
def test_hrs_audited_list_takes_the_same_number_of_queries_for_3_or_30(api, org, how_many):
    for _ in range(how_many):
        give(org, stream=Stream.EVALUATIVE)
    client = api(org.hr)
    client.get("/api/v1/feedback/")
    # 1 session row, 2 user, 3 roles, 4 count, 5 the page's ids, 6 feedback, 7 themes,
    # 8 shares, 9 the audit events of the page, in one INSERT
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/feedback/")
    assert response.json()["count"] == how_many
    assert len(queries) == 9, [q["sql"] for q in queries]
