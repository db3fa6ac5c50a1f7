"""Below an organisation's head there can be a thousand managers: "My team" and the
managers review show them a page at a time, by name, and compute only that page.
Pages and API agree on the page size and on how a wrong page number is refused."""

import pytest

from dashboards import paging
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eve"]  # the managers below the boss, by name


@pytest.fixture
def boss(org, monkeypatch):
    """A manager of five managers (each with a rep), shown two to a page."""
    monkeypatch.setattr(paging, "MANAGERS_PER_PAGE", 2)
    boss = UserFactory(display_name="Bo Boss", manager=org.head)
    for name in reversed(NAMES):
        manager = UserFactory(display_name=f"{name} Manager", manager=boss)
        UserFactory(manager=manager)
    return boss


def shown(response) -> list[str]:
    """Names in the managers-below table of the page, in order."""
    html = response.content.decode()
    table = html[
        html.index('<table class="managers">') : html.index(
            "</table>", html.index('<table class="managers">')
        )
    ]
    return [name for name in (f"{n} Manager" for n in NAMES) if name in table]


def test_my_team_shows_the_managers_below_a_page_at_a_time(client, boss):
    client.force_login(boss)
    first = client.get("/team/")
    assert first.status_code == 200
    assert shown(first) == ["Ana Manager", "Ben Manager"]
    page = first.content.decode()
    assert '<span class="count">5</span>' in page  # the heading counts all of them
    assert "Managers 1–2 of 5, page 1 of 3" in page
    assert 'href="?weeks=8&amp;managers_page=2#managers"' in page and 'rel="prev"' not in page

    last = client.get("/team/?weeks=4&managers_page=3")
    assert shown(last) == ["Eve Manager"]
    assert "Managers 5–5 of 5, page 3 of 3" in last.content.decode()
    assert 'href="?weeks=4&amp;managers_page=2#managers"' in last.content.decode()


def test_a_page_past_the_last_shows_the_last(client, boss):
    client.force_login(boss)
    response = client.get("/team/?managers_page=40")
    assert response.status_code == 200 and shown(response) == ["Eve Manager"]


@pytest.mark.parametrize("raw", ["0", "-1", "two", "1.5", "9" * 5000])
def test_a_wrong_page_is_a_400_with_the_first_page(client, boss, raw):
    client.force_login(boss)
    response = client.get("/team/", {"managers_page": raw})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Give a page number: a whole number from 1. Showing the first page." in page
    assert shown(response) == ["Ana Manager", "Ben Manager"]


def test_a_managers_page_read_from_above_pages_too(client, org, boss):
    client.force_login(org.head)
    response = client.get(f"/team/managers/{boss.pk}/?managers_page=2")
    assert response.status_code == 200 and shown(response) == ["Cleo Manager", "Dev Manager"]


def test_the_team_endpoint_gives_the_same_page_and_says_where_it_is(client, org, boss):
    client.force_login(boss)
    data = client.get("/api/v1/dashboards/team/?managers_page=2", **JSON).json()
    names = [row["manager"]["display_name"] for row in data["managers_below"]]
    assert names == ["Cleo Manager", "Dev Manager"]
    assert data["managers_below_page"] == {"number": 2, "pages": 3, "count": 5, "per_page": 2}

    client.force_login(org.head)
    above = client.get(f"/api/v1/dashboards/team/{boss.pk}/?managers_page=3", **JSON).json()
    assert [r["manager"]["display_name"] for r in above["managers_below"]] == ["Eve Manager"]


def test_the_managers_review_endpoint_pages(client, boss):
    client.force_login(boss)
    data = client.get("/api/v1/dashboards/managers/?page=3", **JSON).json()
    assert [r["manager"]["display_name"] for r in data["managers"]] == ["Eve Manager"]
    assert data["page"] == {"number": 3, "pages": 3, "count": 5, "per_page": 2}


@pytest.mark.parametrize(
    ("path", "name"),
    [("/api/v1/dashboards/team/", "managers_page"), ("/api/v1/dashboards/managers/", "page")],
)
def test_a_wrong_page_is_a_400_naming_the_parameter(client, boss, path, name):
    client.force_login(boss)
    response = client.get(path, {name: "0"}, **JSON)
    assert response.status_code == 400
    assert response.json()[name] == ["Give a page number: a whole number from 1."]


def test_a_manager_without_managers_below_has_no_such_section(client, org):
    client.force_login(org.manager)
    assert 'id="managers"' not in client.get("/team/").content.decode()
    data = client.get("/api/v1/dashboards/team/", **JSON).json()
    assert data["managers_below"] is None and data["managers_below_page"] is None
