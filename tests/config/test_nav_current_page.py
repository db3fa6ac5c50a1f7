"""The main nav marks the section of the page shown, by the page's namespace or
namespaced name (`request.resolver_match`), so names shared by two apps cannot mix."""

import re

import pytest

pytestmark = pytest.mark.django_db

CURRENT = re.compile(r'<a href="([^"]+)" aria-current="page">')


@pytest.mark.parametrize(
    ("path", "section"),
    [
        ("/me/", "/me/"),
        ("/goals/", "/me/"),
        ("/sessions/", "/sessions/"),
        ("/scorecards/", "/scorecards/"),
        ("/skills/", "/scorecards/"),
        ("/library/", "/library/"),
        ("/experiments/", "/library/"),
        ("/playbooks/", "/library/"),
        ("/feedback/wins/", "/feedback/"),
        ("/feedback/given/", "/feedback/"),
        ("/peers/", "/peers/"),
        ("/me/notifications/", "/me/notifications/"),
    ],
)
def test_the_nav_marks_the_section_of_the_page(client, org, path, section):
    client.force_login(org.rep)
    response = client.get(path)
    assert response.status_code == 200
    nav = response.content.decode().split("</nav>", 2)
    assert CURRENT.findall(nav[0] + nav[1]) == [section]
