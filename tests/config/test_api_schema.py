"""The OpenAPI schema tells the truth about the answers: every operation declares the
common error answers (core/openapi.py), error answers under /api/ are JSON, and
values the API really sends — an empty link, a session not cancelled, a pair's wall
time, an unpaginated list — match what the schema declares for them."""

import pytest
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from coaching.models import CancelReason
from coaching.services import session_cancel
from feedback.models import Win
from peers.services import habit_add, habit_check_in
from people.services_teams import team_create, team_member_add
from scorecards.models import WorkKind
from scorecards.services import recorded_call_create
from tests.support.api_schema import assert_conforms, published_schema
from tests.support.factories import WinFactory, one_on_one
from tests.support.peers_pairs import active_pair, form_pair, with_notes


def signed_in(user):
    client = APIClient()
    client.force_login(user)
    return client


def operations():
    for path, item in published_schema()["paths"].items():
        for method, operation in item.items():
            yield f"{method.upper()} {path}", operation


@pytest.mark.django_db
def test_every_operation_declares_the_common_error_answers():
    for name, operation in operations():
        declared = set(operation["responses"])
        assert {"401", "403", "429", "503"} <= declared, name
        if operation.get("parameters"):
            assert "404" in declared, name
        if "requestBody" in operation:
            assert {"400", "415"} <= declared, name
        assert "WWW-Authenticate" in operation["responses"]["401"]["headers"], name
        assert "Retry-After" in operation["responses"]["429"]["headers"], name


@pytest.mark.django_db
def test_versioned_updates_declare_the_conflict():
    schema = published_schema()["paths"]
    for path, method in [
        ("/api/v1/sessions/{id}/notes/", "put"),
        ("/api/v1/sessions/{id}/private-note/", "put"),
        ("/api/v1/commitments/{id}/", "patch"),
    ]:
        assert "409" in schema[path][method]["responses"], path


@pytest.mark.django_db
def test_a_url_under_api_that_matches_no_route_is_a_json_404(org):
    client = signed_in(org.rep)
    for url in ("/api/v1/sessions/-3/", "/api/v1/sessions/abc/", "/api/v1/nothing-here/"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"] == "application/json"
        assert response.json() == {"detail": "Not found."}
    assert_conforms(client.get("/api/v1/sessions/-3/"), "get", "/api/v1/sessions/{id}/")


@pytest.mark.django_db
def test_a_page_that_matches_no_route_is_still_the_html_404(org):
    response = signed_in(org.rep).get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "<h1>Not found</h1>" in html and '<a href="/">Back to Tandem</a>' in html
    assert "/static/css/app.css" in html  # styled like the other error pages


@pytest.mark.django_db
@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_body_too_large_to_read_is_a_json_400_and_nothing_is_saved(org):
    team = team_create(name="East", lead=org.manager)
    team_member_add(team=team, person=org.rep)
    response = signed_in(org.rep).post(
        "/api/v1/wins/", {"team": team.pk, "title": "x" * 5000}, format="json"
    )
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert "too large" in response.json()["detail"]
    assert not Win.objects.exists()


@pytest.mark.django_db
def test_a_win_without_a_link_matches_the_schema(org):
    team = team_create(name="East", lead=org.manager)
    team_member_add(team=team, person=org.rep)
    win = WinFactory(team=team, author=org.rep, link="")
    response = signed_in(org.rep).get(f"/api/v1/wins/{win.pk}/")
    assert response.json()["link"] == ""
    assert_conforms(response, "get", "/api/v1/wins/{id}/")


@pytest.mark.django_db
def test_a_recorded_call_without_a_url_matches_the_schema(org):
    call = recorded_call_create(
        actor=org.rep,
        person=org.rep,
        kind=WorkKind.ROLE_PLAY,
        title="Pricing drill",
        call_date=timezone.localdate(),
        url="",
    )
    response = signed_in(org.rep).get(f"/api/v1/recorded-calls/{call.pk}/")
    assert response.status_code == 200, response.content
    assert response.json()["url"] == ""
    assert_conforms(response, "get", "/api/v1/recorded-calls/{id}/")


@pytest.mark.django_db
def test_sessions_cancelled_or_not_match_the_schema(org):
    kept = one_on_one(org.manager, org.rep)
    cancelled = session_cancel(
        session=one_on_one(org.manager, org.rep), actor=org.manager, reason=CancelReason.SICK
    )
    client = signed_in(org.rep)
    assert client.get(f"/api/v1/sessions/{kept.pk}/").json()["cancel_reason"] == ""
    for session in (kept, cancelled):
        response = client.get(f"/api/v1/sessions/{session.pk}/")
        assert_conforms(response, "get", "/api/v1/sessions/{id}/")
    assert_conforms(client.get("/api/v1/sessions/"), "get", "/api/v1/sessions/")


@pytest.mark.django_db
def test_a_pairs_wall_time_matches_the_schema(org):
    pair = form_pair(org.admin, org.rep, org.peer)
    response = signed_in(org.rep).get(f"/api/v1/peer-pairs/{pair.pk}/")
    assert response.json()["local_time"] == "10:00:00"
    assert_conforms(response, "get", "/api/v1/peer-pairs/{id}/")


@pytest.mark.django_db
def test_pair_candidates_are_one_list_as_the_schema_says(org):
    # A list once (the fuzz test's finding), paged since the organisation grew to
    # 10,000 people; either way the answer is what the schema declares.
    response = signed_in(org.manager).get("/api/v1/peer-pairs/candidates/")
    assert isinstance(response.json()["results"], list)
    assert_conforms(response, "get", "/api/v1/peer-pairs/candidates/")


@pytest.mark.django_db
def test_a_pairs_notes_habits_and_check_ins_are_lists_as_the_schema_says(org):
    pair = with_notes(active_pair(org.admin, org.rep, org.peer), org.rep)
    habit = habit_add(pair=pair, actor=org.peer, text="Pause after the price")
    habit_check_in(habit=habit, actor=org.rep, outcome="kept")
    client = signed_in(org.rep)
    for url, template in [
        (f"/api/v1/peer-pairs/{pair.pk}/notes/", "/api/v1/peer-pairs/{id}/notes/"),
        (f"/api/v1/peer-pairs/{pair.pk}/habits/", "/api/v1/peer-pairs/{id}/habits/"),
        (f"/api/v1/pair-habits/{habit.pk}/check-ins/", "/api/v1/pair-habits/{id}/check-ins/"),
    ]:
        response = client.get(url)
        assert len(response.json()) == 1, url
        assert_conforms(response, "get", template)
