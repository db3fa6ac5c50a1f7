"""Rating through the API: `PUT /api/v1/sessions/{id}/rating/` creates or changes the
requester's rating, `GET` reads it back (404 if none or not theirs), `DELETE` takes
it back. Someone who sees the session but is not its coachee gets 403 with the reason,
outsiders 404; bad input is a 400 naming the field, nothing saved. The session itself
never carries a rating."""

from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from rest_framework.test import APIClient

from coaching.models import SessionRating
from tests.support.coaching_ratings import SECRET, held, rate


@pytest.fixture
def api():
    def signed_in(user):
        client = APIClient()
        client.force_login(user)
        return client

    return signed_in


def url(session):
    return f"/api/v1/sessions/{session.pk}/rating/"


@pytest.mark.django_db
def test_the_coachee_puts_a_rating_and_reads_it_back(api, org):
    session = held(org.manager, org.rep)
    client = api(org.rep)
    assert client.get(url(session)).status_code == 404  # not rated yet
    response = client.put(url(session), {"score": 4, "comment": "Useful"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["score"], body["comment"]) == (4, "Useful")
    assert set(body) == {"score", "comment", "created_at", "updated_at", "open_until"}
    assert client.get(url(session)).json() == body
    changed = client.put(url(session), {"score": 2}, format="json").json()
    assert (changed["score"], changed["comment"]) == (2, "")
    assert SessionRating.objects.count() == 1


@pytest.mark.django_db
def test_open_until_is_fourteen_days_after_it_was_held(api, org):
    session = held(org.manager, org.rep)
    body = api(org.rep).put(url(session), {"score": 5}, format="json").json()
    expected = session.held_at + timedelta(days=14)
    assert body["open_until"].startswith(expected.strftime("%Y-%m-%dT"))


@pytest.mark.django_db
def test_the_coachee_takes_it_back_with_delete(api, org):
    session = held(org.manager, org.rep)
    rate(session, org.rep, 3)
    client = api(org.rep)
    assert client.delete(url(session)).status_code == 204
    assert not SessionRating.objects.exists()
    assert client.delete(url(session)).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, field, message",
    [
        ({"score": 0}, "score", "Rate it from 1 (not useful) to 5 (very useful)."),
        ({"score": 6}, "score", "Rate it from 1 (not useful) to 5 (very useful)."),
        ({"score": "abc"}, "score", "Rate it from 1 (not useful) to 5 (very useful), as a number."),
        ({}, "score", "This field is required."),
        (
            {"score": 3, "comment": "x" * 1001},
            "comment",
            "Keep the comment under 1,000 characters.",
        ),
        ({"score": 3, "rater": 1}, "rater", "Unknown field."),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_nothing_is_saved(api, org, body, field, message):
    session = held(org.manager, org.rep)
    response = api(org.rep).put(url(session), body, format="json")
    assert response.status_code == 400
    assert response.json() == {field: [message]}
    assert not SessionRating.objects.exists()


@pytest.mark.django_db
def test_after_fourteen_days_a_change_is_a_400_and_the_rating_stays(api, org):
    session = held(org.manager, org.rep, ago=timedelta(hours=2))
    rate(session, org.rep, 4)
    client = api(org.rep)
    with time_machine.travel(session.held_at + timedelta(days=14, seconds=1), tick=False):
        response = client.put(url(session), {"score": 1}, format="json")
        assert response.status_code == 400
        assert "can no longer be rated or changed" in response.json()[0]
        assert client.delete(url(session)).status_code == 400
        assert client.get(url(session)).json()["score"] == 4  # still theirs to read


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "head"])
def test_someone_who_sees_the_session_but_is_not_its_coachee_gets_403_or_404(api, org, who):
    session = held(org.manager, org.rep)
    rate(session, org.rep, 2, SECRET)
    client = api(getattr(org, who))
    response = client.put(url(session), {"score": 5}, format="json")
    assert response.status_code == 403
    assert response.json() == {"detail": "Only the person coached in this session can rate it."}
    assert client.delete(url(session)).status_code == 403
    # Reading: there is no rating of theirs here, whoever else's there may be.
    response = client.get(url(session))
    assert response.status_code == 404 and "SECRET" not in response.content.decode()
    assert SessionRating.objects.get().score == 2


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["other_manager", "peer", "other_rep", "hr", "admin"])
def test_outsiders_get_404_for_every_method(api, org, who):
    session = held(org.manager, org.rep)
    rate(session, org.rep, 2, SECRET)
    client = api(getattr(org, who))
    assert client.get(url(session)).status_code == 404
    assert client.put(url(session), {"score": 5}, format="json").status_code == 404
    assert client.delete(url(session)).status_code == 404
    assert SessionRating.objects.get().score == 2


@pytest.mark.django_db
def test_without_credentials_it_is_401(org):
    session = held(org.manager, org.rep)
    assert APIClient().get(url(session)).status_code == 401


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "manager", "head"])
def test_the_session_itself_carries_no_rating(api, org, who):
    session = held(org.manager, org.rep)
    rate(session, org.rep, 1, SECRET)
    client = api(getattr(org, who))
    for path in (f"/api/v1/sessions/{session.pk}/", "/api/v1/sessions/"):
        text = client.get(path).content.decode()
        assert "SECRET" not in text and "rating" not in text


@pytest.mark.django_db
def test_the_rating_endpoint_is_in_the_schema_without_warnings(tmp_path):
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    schema = (tmp_path / "schema.yml").read_text()
    assert "  /api/v1/sessions/{id}/rating/:" in schema
    for operation in (
        "sessions_rating_retrieve",
        "sessions_rating_update",
        "sessions_rating_destroy",
    ):
        assert f"operationId: {operation}" in schema
