"""A person's page for the people above them lists every session they were coached
in, newest first, 50 a page — two years of weekly 1:1s and call reviews are a few
hundred, and the list used to stop silently at 100."""

from datetime import timedelta

import pytest
from django.utils import timezone

from coaching import models as coaching_models
from coaching import selectors
from tests.support.factories import one_on_one


def _sessions(manager, rep, n):
    now = timezone.now()
    return [one_on_one(manager, rep, start=now - timedelta(days=i + 1)) for i in range(n)]


def _items(page: str) -> int:
    history = page.split('id="h-heading"', 1)[1].split("</section>", 1)[0]
    return history.count("<li>")


@pytest.mark.django_db
def test_a_manager_pages_back_through_a_reps_sessions(client_for, org):
    sessions = _sessions(org.manager, org.rep, 55)
    client = client_for(org.manager)
    first = client.get(f"/people/{org.rep.pk}/").content.decode()
    assert "newest first: 55, 1–50 here." in first and _items(first) == 50
    assert f"/sessions/{sessions[0].pk}/" in first and f"/sessions/{sessions[54].pk}/" not in first
    assert 'href="?page=2#h-heading">Older</a>' in first
    second = client.get(f"/people/{org.rep.pk}/?page=2").content.decode()
    assert _items(second) == 5 and f"/sessions/{sessions[54].pk}/" in second


@pytest.mark.django_db
def test_one_page_of_history_has_no_navigation(client_for, org):
    _sessions(org.manager, org.rep, 3)
    page = client_for(org.manager).get(f"/people/{org.rep.pk}/").content.decode()
    assert _items(page) == 3 and "Page 1 of" not in page


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["0", "two", "-3"])
def test_a_bad_page_number_is_a_400_saying_so(client_for, org, bad):
    _sessions(org.manager, org.rep, 2)
    response = client_for(org.manager).get(f"/people/{org.rep.pk}/", {"page": bad})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Give a page number: a whole number from 1." in page and _items(page) == 2


@pytest.mark.django_db
def test_someone_outside_the_chain_still_gets_a_404(client_for, org):
    _sessions(org.manager, org.rep, 2)
    response = client_for(org.other_manager).get(f"/people/{org.rep.pk}/?page=2")
    assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("walk_from", [0, 1000])  # each session checked, or all gathered
def test_from_above_the_history_is_the_rule_in_its_list_shape(
    client_for, org, monkeypatch, walk_from
):
    """Far above a person, their few hundred sessions are the narrow side: each is
    checked against its participants rather than gathering the million sessions the
    head of 10,000 people may see (4.6 s → 0.2 s there). Either way, the same list."""
    monkeypatch.setattr(coaching_models, "WALK_FROM_PEOPLE_BELOW", walk_from)
    sessions = _sessions(org.manager, org.rep, 3)
    page = client_for(org.head).get(f"/people/{org.rep.pk}/").content.decode()
    assert _items(page) == 3 and all(f"/sessions/{s.pk}/" in page for s in sessions)
    sql = str(selectors.coaching_history(viewer=org.head, person=org.rep).query)
    assert ("UNION" in sql) == (walk_from == 1000), sql
