"""A manager's "My people's open commitments": everyone below them, soonest due first,
50 a page — a head of sales has thousands, and the list used to stop silently at 200."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.models import CommitmentStatus
from tests.support.factories import CommitmentFactory, UserFactory


def _open_commitments(owner, n, *, first_due_in=1):
    today = timezone.localdate()
    return [
        CommitmentFactory(
            owner=owner, text=f"Commitment {i:02d}", due_on=today + timedelta(days=first_due_in + i)
        )
        for i in range(n)
    ]


def _rows(page: str) -> int:
    team = page.split('id="team-heading"', 1)[1]
    return team.count('<tr class="')


@pytest.mark.django_db
def test_a_manager_pages_through_everyone_belows_open_commitments_soonest_first(client_for, org):
    _open_commitments(org.rep, 40)
    _open_commitments(org.peer, 15, first_due_in=100)
    CommitmentFactory(
        owner=org.rep,
        text="Finished long ago",
        status=CommitmentStatus.DONE,
        closed_at=timezone.now(),
    )
    CommitmentFactory(owner=org.other_rep, text="Another team's promise")
    client = client_for(org.manager)

    first = client.get("/commitments/")
    page = first.content.decode()
    assert first.status_code == 200
    assert "55 open, soonest due first: 1–50 here." in page
    assert _rows(page) == 50
    assert page.index("Commitment 00") < page.index("Commitment 39")
    assert "Page 1 of 2" in page and 'href="?page=2">Due later</a>' in page
    assert "Finished long ago" not in page and "Another team" not in page

    second = client.get("/commitments/?page=2").content.decode()
    assert _rows(second) == 5
    assert "51–55 here" in second and 'href="?page=1">Due sooner</a>' in second
    assert "Commitment 14" in second and "Commitment 39" not in second


@pytest.mark.django_db
def test_the_head_sees_the_commitments_of_people_two_levels_down(client_for, org):
    _open_commitments(org.rep, 2)
    _open_commitments(org.other_rep, 1)
    page = client_for(org.head).get("/commitments/").content.decode()
    assert "3 open, soonest due first." in page
    assert "Page 1 of" not in page  # one page: no navigation


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["abc", "0", "-1", "1.5", "9" * 5000])
def test_a_bad_page_number_is_a_400_saying_so_with_the_first_page_shown(client_for, org, bad):
    _open_commitments(org.rep, 3)
    response = client_for(org.manager).get("/commitments/", {"page": bad})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Give a page number: a whole number from 1." in page
    assert "3 open, soonest due first." in page


@pytest.mark.django_db
def test_a_page_past_the_last_shows_the_last(client_for, org):
    _open_commitments(org.rep, 52)
    page = client_for(org.manager).get("/commitments/?page=7").content.decode()
    assert "Page 2 of 2" in page and _rows(page) == 2


@pytest.mark.django_db
def test_a_rep_has_no_team_list_and_no_page_to_get_wrong(client_for, org):
    _open_commitments(org.rep, 2)
    response = client_for(org.rep).get("/commitments/?page=abc")
    assert response.status_code == 200
    assert "My people&#x27;s open commitments" not in response.content.decode()


@pytest.mark.django_db
def test_the_list_costs_the_same_queries_for_a_page_of_5_and_of_50(client):
    def queries(manager) -> int:
        client.force_login(manager)
        client.get("/commitments/")
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/commitments/").status_code == 200
        return len(captured)

    few, many = UserFactory(), UserFactory()
    _open_commitments(UserFactory(manager=few), 5)
    for _ in range(3):
        _open_commitments(UserFactory(manager=many), 30)
    # session, user, roles, the header's unread count; mine; the team's count, its
    # page's ids, their rows.
    assert queries(few) == queries(many) == 8


@pytest.mark.django_db
def test_my_open_commitments_come_first_then_the_closed_ones_latest_first(client_for, org):
    """What is still to do leads, soonest due first; what was kept or dropped follows,
    the most recent first — the same on my list and on my page for my manager."""
    today = timezone.localdate()

    def promise(text, days, status=CommitmentStatus.OPEN):
        closed = None if status == CommitmentStatus.OPEN else timezone.now()
        reason = "Plans changed" if status == CommitmentStatus.DROPPED else ""
        CommitmentFactory(
            owner=org.rep, text=text, due_on=today + timedelta(days=days), status=status,
            closed_at=closed, drop_reason=reason,
        )  # fmt: skip

    promise("Kept in January", -60, CommitmentStatus.DONE)
    promise("Open, due in a fortnight", 14)
    promise("Dropped last week", -7, CommitmentStatus.DROPPED)
    promise("Open, overdue", -2)
    promise("Kept last month", -30, CommitmentStatus.DONE)
    expected = [
        "Open, overdue",
        "Open, due in a fortnight",
        "Dropped last week",
        "Kept last month",
        "Kept in January",
    ]
    for viewer, path in ((org.rep, "/commitments/"), (org.manager, f"/people/{org.rep.pk}/")):
        page = client_for(viewer).get(path).content.decode()
        assert sorted(expected, key=page.index) == expected, viewer
