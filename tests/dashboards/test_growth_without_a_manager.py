"""My coaching tells someone with no manager on record what to do about it, in words
that fit who they are: a programme admin can add the reporting line themselves; anyone
else asks a programme admin. Whoever has no coach is told to ask a peer to score
their calls, and whoever has one is told to ask them by name."""

import pytest

from tests.support.dashboards_team import page, squash, world  # noqa: F401 - `world` is a fixture
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_programme_admin_without_a_manager_is_offered_the_link_to_add_one(client, org):
    admin = UserFactory(display_name="Ada Admin", roles=["programme_admin"])
    client.force_login(admin)
    html = page(client, "/me/")
    assert "You have no manager on record, so nobody runs a 1:1 with you." in squash(html)
    assert f'<a href="/programme/people/{admin.pk}/">add your reporting line</a>' in html
    assert "ask your programme admin" not in html


def test_anyone_else_without_a_manager_is_told_to_ask_a_programme_admin(client, org):
    client.force_login(org.head)
    text = squash(page(client, "/me/"))
    assert "If someone should, ask your programme admin to add your reporting line." in text
    assert "/programme/people/" not in text


def test_whoever_has_no_scores_is_told_whom_to_ask_to_score_with_them(client, world):  # noqa: F811
    client.force_login(world.org.peer)  # Pavel: no scores on "Ask first"; Mia coaches him
    assert "Score your own calls and ask Mia Manager to score them with you." in squash(
        page(client, "/me/")
    )
    client.force_login(world.org.head)  # nobody coaches the head
    assert "Score your own calls and ask a peer to score them with you." in squash(
        page(client, "/me/")
    )
