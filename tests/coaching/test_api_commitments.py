"""Commitments through the API: made in a session one takes part in, seen by the
owner and their management chain, edited from a version, closed as done or dropped."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from coaching.models import Commitment
from coaching.services import commitment_create
from tests.support.factories import one_on_one

DOES_NOT_SEE = ["other_manager", "peer", "other_rep", "hr", "admin"]


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return signed_in


@pytest.fixture
def session(org):
    return one_on_one(org.manager, org.rep)


def in_days(days):
    return timezone.localdate() + timedelta(days=days)


def make(session, actor, **extra):
    return commitment_create(
        session=session,
        actor=actor,
        text=extra.pop("text", "Ask two open questions before the demo"),
        evidence=extra.pop("evidence", "Two recorded calls show it"),
        due_on=extra.pop("due_on", in_days(7)),
        **extra,
    )


def at_run(body):
    """Values given as callables are computed as the test runs, not at collection (a
    run that crosses midnight would otherwise use yesterday's date)."""
    return {key: value() if callable(value) else value for key, value in body.items()}


def body_for(session, **extra):
    return {
        "session": session.pk,
        "text": "Ask two open questions before the demo",
        "evidence": "Two recorded calls show it",
        "due_on": in_days(7).isoformat(),
        **extra,
    }


# --- Making commitments ---------------------------------------------------------------


@pytest.mark.django_db
def test_the_coach_records_a_commitment_owned_by_the_coachee(api, org, session):
    response = api(org.manager).post("/api/v1/commitments/", body_for(session), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["owner"] == {"id": org.rep.pk, "display_name": "Rita Rep"}
    assert body["created_in"] == session.pk
    assert body["created_by"] == org.manager.pk
    assert (body["status"], body["version"], body["is_overdue"]) == ("open", 0, False)


@pytest.mark.django_db
def test_the_coach_may_own_a_commitment_too(api, org, session):
    response = api(org.rep).post(
        "/api/v1/commitments/", body_for(session, owner=org.manager.pk), format="json"
    )
    assert response.status_code == 201
    assert response.json()["owner"]["id"] == org.manager.pk


@pytest.mark.django_db
def test_a_due_date_in_the_past_is_refused_and_nothing_is_saved(api, org, session):
    response = api(org.manager).post(
        "/api/v1/commitments/", body_for(session, due_on=in_days(-1).isoformat()), format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"due_on": ["The due date is in the past."]}
    assert not Commitment.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("session_id", [987_654, "other", 10**30])
def test_an_unknown_or_invisible_session_is_a_clear_400(api, org, session, session_id):
    if session_id == "other":
        session_id = one_on_one(org.other_manager, org.other_rep).pk
    response = api(org.manager).post(
        "/api/v1/commitments/", body_for(session) | {"session": session_id}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"session": ["Unknown session."]}
    assert not Commitment.objects.exists()


@pytest.mark.django_db
def test_a_manager_reading_along_cannot_make_commitments_in_the_session(api, org, session):
    response = api(org.head).post("/api/v1/commitments/", body_for(session), format="json")
    assert response.status_code == 403
    assert response.json() == {"detail": "Only people in the session make commitments in it."}
    assert not Commitment.objects.exists()


@pytest.mark.django_db
def test_the_owner_must_be_in_the_session(api, org, session):
    response = api(org.manager).post(
        "/api/v1/commitments/", body_for(session, owner=org.peer.pk), format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"owner": ["Whoever owns a commitment must be in the session."]}
    assert not Commitment.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"text": ""}, "text"),
        ({"evidence": "x" * 501}, "evidence"),
        ({"due_on": "soon"}, "due_on"),
        ({"due_on": lambda: (timezone.localdate() + timedelta(days=400)).isoformat()}, "due_on"),
        ({"owner": 987_654}, "owner"),
        ({"status": "done"}, "status"),
    ],
)
def test_malformed_commitments_are_refused(api, org, session, change, field):
    response = api(org.manager).post(
        "/api/v1/commitments/", body_for(session) | at_run(change), format="json"
    )
    assert response.status_code == 400
    assert field in response.json()
    assert not Commitment.objects.exists()


# --- Who sees them --------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "manager", "head"])
def test_the_owner_and_their_management_chain_see_a_commitment(api, org, session, who):
    commitment = make(session, org.manager)
    client = api(getattr(org, who))
    body = client.get("/api/v1/commitments/").json()
    assert [row["id"] for row in body["results"]] == [commitment.pk]
    assert client.get(f"/api/v1/commitments/{commitment.pk}/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("who", DOES_NOT_SEE)
def test_everyone_else_gets_404_and_an_empty_list(api, org, session, who):
    commitment = make(session, org.manager)
    client = api(getattr(org, who))
    assert client.get("/api/v1/commitments/").json()["results"] == []
    assert client.get(f"/api/v1/commitments/{commitment.pk}/").status_code == 404
    patch = client.patch(
        f"/api/v1/commitments/{commitment.pk}/", {"version": 0, "text": "Mine"}, format="json"
    )
    assert patch.status_code == 404
    close = client.post(
        f"/api/v1/commitments/{commitment.pk}/close/", {"status": "done"}, format="json"
    )
    assert close.status_code == 404
    commitment.refresh_from_db()
    assert (commitment.text, commitment.status) == (
        "Ask two open questions before the demo",
        "open",
    )


@pytest.mark.django_db
def test_anonymous_callers_get_401(api, session):
    assert api().get("/api/v1/commitments/").status_code == 401
    assert api().post("/api/v1/commitments/", {}, format="json").status_code == 401


@pytest.mark.django_db
def test_the_list_filters_by_owner_and_status_soonest_due_first(api, org, session):
    later = make(session, org.manager, due_on=in_days(20))
    sooner = make(session, org.manager, due_on=in_days(3))
    other_session = one_on_one(org.manager, org.peer)
    peers = make(other_session, org.manager)
    api(org.manager).post(
        f"/api/v1/commitments/{later.pk}/close/", {"status": "done"}, format="json"
    )
    client = api(org.manager)

    def listed(query=""):
        return [row["id"] for row in client.get(f"/api/v1/commitments/{query}").json()["results"]]

    assert listed() == [sooner.pk, peers.pk, later.pk]
    assert listed(f"?owner={org.rep.pk}") == [sooner.pk, later.pk]
    assert listed(f"?owner={org.rep.pk}&status=open") == [sooner.pk]
    assert listed("?status=done") == [later.pk]
    assert client.get("/api/v1/commitments/?status=finished").status_code == 400
    assert client.get("/api/v1/commitments/?owner=me").status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("how_many", [3, 30])
def test_the_list_takes_the_same_number_of_queries_for_3_or_30_commitments(
    api, org, session, how_many
):
    for n in range(how_many):
        make(session, org.manager, text=f"Commitment {n}", due_on=in_days(1 + n % 20))
    client = api(org.head)
    client.get("/api/v1/commitments/")
    # 1 session row, 2 user, 3 count, 4 the page's ids, 5 those commitments with their
    # owners joined
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/commitments/")
    assert response.json()["count"] == how_many
    assert len(queries) == 5, [q["sql"] for q in queries]


# --- Editing and closing --------------------------------------------------------------


@pytest.mark.django_db
def test_a_commitment_is_edited_from_the_version_one_read(api, org, session):
    commitment = make(session, org.manager)
    response = api(org.rep).patch(
        f"/api/v1/commitments/{commitment.pk}/",
        {"version": 0, "text": "Ask three open questions", "due_on": in_days(10).isoformat()},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["text"], body["evidence"], body["due_on"], body["version"]) == (
        "Ask three open questions",
        "Two recorded calls show it",
        in_days(10).isoformat(),
        1,
    )


@pytest.mark.django_db
def test_a_stale_edit_is_a_409_with_what_is_saved(api, org, session):
    commitment = make(session, org.manager)
    first = api(org.rep).patch(
        f"/api/v1/commitments/{commitment.pk}/", {"version": 0, "text": "Rep's"}, format="json"
    )
    second = api(org.manager).patch(
        f"/api/v1/commitments/{commitment.pk}/",
        {"version": 0, "evidence": "Manager's"},
        format="json",
    )
    assert first.status_code == 200
    assert second.status_code == 409
    assert second.json() == {
        "detail": "This commitment changed since you opened it.",
        "current": {
            "text": "Rep's",
            "evidence": "Two recorded calls show it",
            "due_on": in_days(7).isoformat(),
        },
        "version": 1,
    }
    commitment.refresh_from_db()
    assert (commitment.text, commitment.evidence) == ("Rep's", "Two recorded calls show it")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {
                "version": 0,
                "due_on": lambda: (timezone.localdate() - timedelta(days=1)).isoformat(),
            },
            "due_on",
        ),
        ({"version": 0}, "non_field_errors"),
        ({"text": "No version"}, "version"),
        ({"version": 0, "owner": 1}, "owner"),
        ({"version": 0, "text": "   "}, "text"),
    ],
)
def test_bad_edits_are_refused_and_nothing_changes(api, org, session, body, field):
    commitment = make(session, org.manager)
    response = api(org.manager).patch(
        f"/api/v1/commitments/{commitment.pk}/", at_run(body), format="json"
    )
    assert response.status_code == 400
    assert field in response.json()
    commitment.refresh_from_db()
    assert (commitment.version, commitment.due_on) == (0, in_days(7))


@pytest.mark.django_db
def test_a_commitment_is_closed_as_done_in_a_later_session(api, org, session):
    commitment = make(session, org.manager)
    later = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=8))
    response = api(org.manager).post(
        f"/api/v1/commitments/{commitment.pk}/close/",
        {"status": "done", "session": later.pk},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["status"], body["closed_in"]) == ("done", later.pk)
    assert body["closed_at"] is not None


@pytest.mark.django_db
def test_dropping_needs_a_reason_and_a_closed_one_stays_closed(api, org, session):
    commitment = make(session, org.manager)
    client = api(org.rep)
    url = f"/api/v1/commitments/{commitment.pk}/close/"
    no_reason = client.post(url, {"status": "dropped"}, format="json")
    assert no_reason.status_code == 400
    assert no_reason.json() == {"reason": ["Say why it is being dropped."]}
    dropped = client.post(url, {"status": "dropped", "reason": "Deal lost"}, format="json")
    assert dropped.status_code == 200
    assert dropped.json()["drop_reason"] == "Deal lost"
    again = client.post(url, {"status": "done"}, format="json")
    assert again.status_code == 400
    assert again.json() == ["This commitment is already closed."]
    edit = api(org.rep).patch(
        f"/api/v1/commitments/{commitment.pk}/", {"version": 1, "text": "x"}, format="json"
    )
    assert edit.status_code == 400


@pytest.mark.django_db
def test_closing_refuses_an_open_status_or_someone_elses_session(api, org, session):
    commitment = make(session, org.manager)
    client = api(org.manager)
    url = f"/api/v1/commitments/{commitment.pk}/close/"
    assert client.post(url, {"status": "open"}, format="json").status_code == 400
    elsewhere = one_on_one(org.other_manager, org.other_rep)
    response = client.post(url, {"status": "done", "session": elsewhere.pk}, format="json")
    assert response.status_code == 400
    assert response.json() == {"session": ["Unknown session."]}
    commitment.refresh_from_db()
    assert commitment.status == "open"


@pytest.mark.django_db
def test_commitments_are_never_deleted_or_replaced_through_the_api(api, org, session):
    commitment = make(session, org.manager)
    client = api(org.manager)
    assert client.delete(f"/api/v1/commitments/{commitment.pk}/").status_code == 405
    assert client.put(f"/api/v1/commitments/{commitment.pk}/", {}, format="json").status_code == 405
