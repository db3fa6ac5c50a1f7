"""Working hours are a person's own setting: Monday to Friday, 09:00–17:00 in their
own time zone unless they say otherwise, on their profile page and in the API, and
in their personal-data export. Nonsense is refused with a reason, nothing saved."""

from datetime import time

import pytest
from rest_framework.test import APIClient

from people.models import User


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def hours(person) -> tuple:
    person = User.objects.get(pk=person.pk)
    return person.working_weekdays, person.work_starts, person.work_ends


@pytest.mark.django_db
def test_everyone_starts_with_nine_to_five_monday_to_friday(org):
    assert hours(org.rep) == ([0, 1, 2, 3, 4], time(9), time(17))
    body = api(org.rep).get("/api/v1/me/working-hours/").json()
    assert body == {
        "days": [0, 1, 2, 3, 4],
        "starts": "09:00",
        "ends": "17:00",
        "time_zone": "Europe/Berlin",
    }


@pytest.mark.django_db
def test_a_person_sets_their_working_hours_on_their_profile(client_for, org):
    client = client_for(org.rep)
    page = client.get("/me/profile/").content.decode()
    assert "Working days" in page and 'type="time"' in page
    response = client.post(
        "/me/profile/",
        {
            "display_name": "Rita Rep",
            "time_zone": "Europe/Berlin",
            "work_days": ["1", "2", "3"],
            "work_starts": "08:30",
            "work_ends": "14:00",
        },
        follow=True,
    )
    assert b"Profile saved." in response.content
    assert hours(org.rep) == ([1, 2, 3], time(8, 30), time(14))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, words",
    [
        ({"work_days": []}, "Pick at least one working day"),
        ({"work_days": ["7"]}, "Select a valid choice"),
        ({"work_starts": "25:00"}, "Enter a valid time"),
        ({"work_ends": "08:00"}, "at least an hour after it starts"),
        ({"work_ends": "09:30"}, "at least an hour after it starts"),
    ],
)
def test_nonsense_hours_on_the_profile_are_refused_and_nothing_saved(
    client_for, org, change, words
):
    form = {
        "display_name": "Someone Else",
        "time_zone": "Europe/Berlin",
        "work_days": ["0", "1"],
        "work_starts": "09:00",
        "work_ends": "17:00",
    } | change
    response = client_for(org.rep).post("/me/profile/", form)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert hours(org.rep) == ([0, 1, 2, 3, 4], time(9), time(17))
    assert User.objects.get(pk=org.rep.pk).display_name == "Rita Rep"


@pytest.mark.django_db
def test_the_api_changes_them(org):
    response = api(org.rep).put(
        "/api/v1/me/working-hours/",
        {"days": [0, 2, 4], "starts": "10:00", "ends": "18:30"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["days"] == [0, 2, 4]
    assert hours(org.rep) == ([0, 2, 4], time(10), time(18, 30))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, field",
    [
        ({"days": [], "starts": "09:00", "ends": "17:00"}, "days"),
        ({"days": [9], "starts": "09:00", "ends": "17:00"}, "days"),
        ({"days": [True], "starts": "09:00", "ends": "17:00"}, "days"),
        ({"days": [0], "starts": "9 o'clock", "ends": "17:00"}, "starts"),
        ({"days": [0], "starts": "17:00", "ends": "09:00"}, "work_ends"),
        ({"days": [0], "starts": "09:00"}, "ends"),
        ({"days": [0], "starts": "09:00", "ends": "17:00", "zone": "x"}, "zone"),
    ],
)
def test_nonsense_in_the_api_is_a_400_naming_the_field_and_nothing_saved(org, body, field):
    response = api(org.rep).put("/api/v1/me/working-hours/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert hours(org.rep) == ([0, 1, 2, 3, 4], time(9), time(17))


@pytest.mark.django_db
def test_the_api_needs_a_signed_in_person(org):
    assert APIClient().get("/api/v1/me/working-hours/").status_code == 401


@pytest.mark.django_db
def test_they_are_in_the_personal_data_export(org):
    api(org.rep).put(
        "/api/v1/me/working-hours/",
        {"days": [1], "starts": "07:00", "ends": "15:00"},
        format="json",
    )
    rep = User.objects.get(pk=org.rep.pk)  # as a new request reads her
    profile = api(rep).get("/api/v1/me/data/").json()["profile"]
    assert profile["working_hours"] == {"days": [1], "starts": "07:00", "ends": "15:00"}
