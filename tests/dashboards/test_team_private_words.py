"""Private words never reach the team dashboards: a manager — and anyone above them —
never reads a report's developmental feedback on "My team", a manager's team read
from above or the API, nor the question of a request they were not asked; HR and
admins cannot open them at all. The markers are planted in tests/support/dashboards_team.py."""

import pytest

from tests.support.dashboards_team import (  # noqa: F401 - `world` is a fixture
    DEVELOPMENTAL_MARK,
    EVALUATIVE_MARK,
    REQUEST_MARK,
    page,
    world,
)

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
MARKS = ("DVZQDASHMARK", "RQZQDASHMARK", "EVZQDASHMARK")


def bodies(client, paths):
    for path in paths:
        response = client.get(path, **JSON) if path.startswith("/api/") else None
        yield path, (response.content.decode() if response else page(client, path))


@pytest.mark.parametrize("who", ["manager", "head"])
def test_the_chain_never_reads_a_reports_feedback_or_requests_on_these_pages(
    client,
    world,  # noqa: F811
    who,
):
    org = world.org
    client.force_login(getattr(org, who))
    paths = ["/team/", "/api/v1/dashboards/team/"]
    if who == "head":
        paths += [
            f"/team/managers/{org.manager.pk}/",
            f"/api/v1/dashboards/team/{org.manager.pk}/",
            "/api/v1/dashboards/managers/",
        ]
    for path, body in bodies(client, paths):
        for mark in MARKS:
            assert mark not in body, (path, mark)


def test_the_rep_reads_her_own_developmental_feedback_and_nothing_evaluative(client, world):  # noqa: F811
    """The positive control: the words are there to find, for her."""
    client.force_login(world.org.rep)
    html = page(client, "/me/")
    assert DEVELOPMENTAL_MARK.split()[0] in html
    assert EVALUATIVE_MARK.split()[0] not in html
    assert REQUEST_MARK.split()[0] not in html  # her own request's question: not here


def test_hr_and_admins_cannot_open_them(client, world):  # noqa: F811
    org = world.org
    for who in (org.hr, org.admin):
        client.force_login(who)
        for path in (
            "/team/",
            f"/team/managers/{org.manager.pk}/",
            "/api/v1/dashboards/team/",
            f"/api/v1/dashboards/team/{org.manager.pk}/",
            "/api/v1/dashboards/managers/",
        ):
            assert client.get(path, **JSON).status_code == 404, path
