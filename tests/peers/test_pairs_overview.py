"""All pairs, for programme admins (`/peers/overview/`, the API's `overview`): 25 a
page, newest first, all or in one state with how many each state holds; a state or
page number that makes no sense is a 400 with the reason. (Who may see it: the
authorization matrix and tests/peers/test_pairs_privacy.py; its query count:
tests/peers/test_pages_pairs.py.)"""

from html import unescape

import pytest
from rest_framework.test import APIClient

from peers.selectors import PAIRS_PER_PAGE
from peers.services import pair_decline, pair_end
from tests.support.factories import UserFactory
from tests.support.peers_pairs import active_pair, form_pair

pytestmark = pytest.mark.django_db
PAGE = "/peers/overview/"
API = "/api/v1/peer-pairs/overview/"


@pytest.fixture
def pairs(org):
    """One forming pair, one that ended before it started, one that ended after, and
    PAIRS_PER_PAGE active ones (the newest)."""
    people = [UserFactory(manager=org.head) for n in range(6 + 2 * PAIRS_PER_PAGE)]
    forming = form_pair(org.admin, people[0], people[1])
    declined = form_pair(org.admin, people[2], people[3])
    pair_decline(pair=declined, actor=people[3])
    ended = active_pair(org.admin, people[4], people[5])
    pair_end(pair=ended, actor=org.admin)
    active = [active_pair(org.admin, people[n], people[n + 1]) for n in range(6, len(people), 2)]
    return type("Pairs", (), {"forming": forming, "ended": [declined, ended], "active": active})


def shown(response) -> set[int]:
    body = response.content.decode()
    return {int(piece.split("<")[0]) for piece in body.split("<td>#")[1:]}


def test_it_shows_a_page_of_pairs_newest_first_with_each_states_count(client, org, pairs):
    client.force_login(org.admin)
    first = client.get(PAGE)
    assert first.status_code == 200
    assert shown(first) == {p.pk for p in pairs.active}
    body = unescape(first.content.decode())
    for label, count in (("All", 28), ("Forming", 1), ("Active", 25), ("Ended", 2)):
        assert f'>{label} <span class="count">{count}</span>' in body
    assert "Page 1 of 2" in body
    second = client.get(PAGE, {"page": 2})
    assert shown(second) == {pairs.forming.pk, *(p.pk for p in pairs.ended)}


@pytest.mark.parametrize(
    ("show", "expected"),
    [("forming", "forming"), ("ended", "ended"), ("active", "active")],
)
def test_it_shows_the_pairs_in_one_state(client, org, pairs, show, expected):
    client.force_login(org.admin)
    response = client.get(PAGE, {"show": show})
    assert response.status_code == 200
    wanted = getattr(pairs, expected)
    assert shown(response) == ({wanted.pk} if show == "forming" else {p.pk for p in wanted})
    assert 'aria-current="page"' in response.content.decode()


def test_a_state_with_no_pairs_says_so(client, org):
    client.force_login(org.admin)
    active_pair(org.admin, org.rep, org.peer)
    assert "No pair has ended yet." in client.get(PAGE, {"show": "ended"}).content.decode()
    assert "No pair is forming now." in client.get(PAGE, {"show": "forming"}).content.decode()


def test_a_wrong_state_or_page_is_a_400_with_the_reason(client, org, pairs):
    client.force_login(org.admin)
    wrong = client.get(PAGE, {"show": "paused"})
    assert wrong.status_code == 400
    assert "Show all pairs, or those forming, active or ended." in unescape(wrong.content.decode())
    assert shown(wrong) == set()
    page = client.get(PAGE, {"page": "two"})
    assert page.status_code == 400
    assert "Give a page number: a whole number from 1." in page.content.decode()
    assert shown(page) == {p.pk for p in pairs.active}  # the first page
    past = client.get(PAGE, {"page": 9})
    assert past.status_code == 200 and "Page 2 of 2" in past.content.decode()


def test_the_api_filters_the_overview_by_state(org, pairs):
    api = APIClient()
    api.force_login(org.admin)
    ended = api.get(API, {"status": "ended"})
    assert ended.status_code == 200
    assert {p["id"] for p in ended.json()["results"]} == {p.pk for p in pairs.ended}
    assert api.get(API).json()["count"] == 28
    wrong = api.get(API, {"status": "paused"})
    assert wrong.status_code == 400 and "status" in wrong.json()
