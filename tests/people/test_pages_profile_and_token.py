import pytest

from people.models import AuditEvent

WORKING_HOURS = {
    "work_days": ["0", "1", "2", "3", "4"],
    "work_starts": "09:00",
    "work_ends": "17:00",
}


@pytest.mark.django_db
def test_a_person_changes_their_name_and_time_zone(client, org):
    client.force_login(org.rep)
    response = client.post(
        "/me/profile/",
        {"display_name": "Rita R.", "time_zone": "Asia/Tokyo", **WORKING_HOURS},
        follow=True,
    )
    assert b"Profile saved." in response.content
    org.rep.refresh_from_db()
    assert (org.rep.display_name, org.rep.time_zone) == ("Rita R.", "Asia/Tokyo")


@pytest.mark.django_db
def test_an_unknown_time_zone_is_refused_with_a_message_and_nothing_saved(client, org):
    client.force_login(org.rep)
    response = client.post(
        "/me/profile/",
        {"display_name": "Someone Else", "time_zone": "Mars/Olympus", **WORKING_HOURS},
    )
    assert response.status_code == 400
    assert b"Select a valid choice" in response.content
    org.rep.refresh_from_db()
    assert (org.rep.display_name, org.rep.time_zone) == ("Rita Rep", "Europe/Berlin")


@pytest.mark.django_db
def test_a_token_is_shown_once_and_can_be_revoked(client, org):
    client.force_login(org.rep)
    created = client.post("/me/api-token/new/")
    assert b"will not be shown again" in created.content
    assert b"You have an active token" in client.get("/me/api-token/").content
    assert b"will not be shown again" not in client.get("/me/api-token/").content
    client.post("/me/api-token/revoke/")
    assert b"You have no token" in client.get("/me/api-token/").content
    assert list(
        AuditEvent.objects.filter(actor=org.rep, verb__startswith="api_token")
        .values_list("verb", flat=True)
        .order_by("at", "id")
    ) == ["api_token.created", "api_token.revoked"]


@pytest.mark.django_db
def test_token_changes_refuse_get_requests(client, org):
    client.force_login(org.rep)
    assert client.get("/me/api-token/new/").status_code == 405
    assert client.get("/me/api-token/revoke/").status_code == 405
