"""List pages cost a fixed number of queries, whatever the number of rows."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.services import commitment_create, goal_create
from tests.support.factories import UserFactory, one_on_one


def build(manager, reps):
    for i in range(reps):
        rep = UserFactory(manager=manager)
        past = one_on_one(manager, rep, start=timezone.now() - timedelta(days=1 + i % 5))
        one_on_one(manager, rep, start=timezone.now() + timedelta(days=1 + i % 5))
        commitment_create(
            session=past,
            actor=manager,
            text="Try it",
            evidence="Call",
            due_on=timezone.localdate() + timedelta(days=3),
        )


def count(client, path):
    client.get(path)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/sessions/", "/commitments/", "/me/", "/team/"])
def test_it_does_not_grow_with_the_number_of_rows(client, path):
    small, large = UserFactory(), UserFactory()
    build(small, 3)
    build(large, 20)
    client.force_login(small)
    few = count(client, path)
    client.force_login(large)
    many = count(client, path)
    assert few == many, path


@pytest.mark.django_db
def test_the_rep_home_and_a_persons_history_stay_flat(client, org):
    for i in range(12):
        one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=i + 1))
    for title in ("Ask before telling", "Name the next step"):
        goal_create(owner=org.rep, actor=org.rep, title=title)
    client.force_login(org.rep)
    assert count(client, "/me/") <= 23  # pinned in tests/dashboards/test_growth_query_counts.py
    client.force_login(org.manager)
    history = count(client, f"/people/{org.rep.pk}/")
    one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=20))
    assert count(client, f"/people/{org.rep.pk}/") == history
