"""The role homes and their number pages explain themselves in words: no path to a
source file or a doc in the repository reaches a reader (their definitions are on the
page, under "What the numbers mean")."""

import re

import pytest

pytestmark = pytest.mark.django_db

SOURCE_PATH = re.compile(r"\b[\w/]+\.(?:py|md)\b")


@pytest.mark.parametrize(
    "who, path",
    [
        ("hr", "/hr/"),
        ("hr", "/hr/skills/"),
        ("hr", "/hr/peers/"),
        ("hr", "/hr/feedback/"),
        ("manager", "/team/"),
        ("manager", "/team/skills/"),
        ("head", "/team/managers/{manager}/"),
        ("rep", "/me/"),
    ],
)
def test_no_page_names_a_source_file(client, org, who, path):
    client.force_login(getattr(org, who))
    response = client.get(path.format(manager=org.manager.pk))
    assert response.status_code == 200
    assert SOURCE_PATH.findall(response.content.decode()) == []
