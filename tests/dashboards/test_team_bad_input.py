"""Bad input on the team dashboards is a clear 4xx, never a 500: a window that is not
one of the choices is a 400 with the reason (the page still shows, over the default
window, with the choices to pick from); an id that is not a number is 404; the pages
only answer GET."""

import pytest
from django.core.exceptions import ValidationError

from dashboards.windows import parse_weeks

pytestmark = pytest.mark.django_db


def message() -> str:
    """The one message `parse_weeks` gives a wrong window (pages and API repeat it)."""
    with pytest.raises(ValidationError) as refused:
        parse_weeks("5")
    return refused.value.messages[0]


MESSAGE = message()


@pytest.mark.parametrize("weeks", ["5", "abc", "0", "-8", "8.0", "999999999999999999999"])
def test_a_wrong_window_is_a_400_page_with_the_reason(client, org, weeks):
    client.force_login(org.head)
    for path in ("/team/", f"/team/managers/{org.manager.pk}/"):
        response = client.get(path, {"weeks": weeks})
        assert response.status_code == 400, path
        body = response.content.decode()
        assert MESSAGE in body and "Showing the last 8 weeks" in body
        assert '<option value="8" selected>' in body
        assert "Managers below" in body or "Mia Manager's team" in body


def test_the_window_form_swaps_its_own_section_with_htmx(client, org):
    client.force_login(org.head)
    response = client.get("/team/", {"weeks": "5"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and MESSAGE in response.content.decode()
    body = client.get("/team/", {"weeks": "13"}, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="coaching-window"' in body and "last 13 weeks</h2>" in body.replace("\n", "")


@pytest.mark.parametrize("weeks", ["5", "abc", ""])
def test_a_wrong_window_is_a_400_in_the_api_naming_the_parameter(client, org, weeks):
    client.force_login(org.head)
    for path in (
        "/api/v1/dashboards/team/",
        f"/api/v1/dashboards/team/{org.manager.pk}/",
        "/api/v1/dashboards/managers/",
    ):
        response = client.get(path, {"weeks": weeks}, HTTP_ACCEPT="application/json")
        if weeks == "":  # absent or empty: the default
            assert response.status_code == 200 and response.json()["window"]["weeks"] == 8
        else:
            assert response.status_code == 400, path
            assert response.json() == {"weeks": [MESSAGE]}


def test_an_id_that_is_not_a_number_is_404(client, org):
    client.force_login(org.head)
    assert client.get("/team/managers/abc/").status_code == 404
    assert client.get("/api/v1/dashboards/team/abc/").status_code == 404


def test_the_pages_answer_get_only(client, org):
    client.force_login(org.head)
    for path in ("/team/", f"/team/managers/{org.manager.pk}/", "/me/"):
        assert client.post(path).status_code == 405, path
    for path in ("/api/v1/dashboards/team/", "/api/v1/dashboards/growth/"):
        assert client.post(path).status_code == 405, path
