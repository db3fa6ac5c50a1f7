"""A coachee's commitment close rate — done ÷ made over the commitments made in the last
8 weeks, counted as `commitment_close_rates` counts it — on their person page and in
the API, for them and the people above them only."""

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from coaching.selectors import close_rate_of, commitment_close_rates
from coaching.services import commitment_close, commitment_create
from tests.support.factories import one_on_one


def promise(session, actor, text="Try it"):
    return commitment_create(
        session=session,
        actor=actor,
        text=text,
        evidence="A call",
        due_on=timezone.localdate() + timedelta(days=7),
    )


def history(org, *, made, done, dropped=0):
    """`made` commitments of the rep from last week's 1:1: `done` done, `dropped` dropped."""
    session = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=7))
    made_now = [promise(session, org.manager, text=f"Try {i}") for i in range(made)]
    for c in made_now[:done]:
        commitment_close(commitment=c, actor=org.rep, status="done")
    for c in made_now[done : done + dropped]:
        commitment_close(commitment=c, actor=org.rep, status="dropped", reason="Deal lost")
    return made_now


def api_as(user):
    client = APIClient()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_it_is_done_over_made_in_the_last_eight_weeks_as_the_health_metric_counts_it(org):
    with time_machine.travel(timezone.now() - timedelta(weeks=9)):
        old = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=1))
        promise(old, org.manager)  # made before the window: not counted
    history(org, made=4, done=2, dropped=1)
    rate = close_rate_of(person=org.rep)
    assert (rate.made, rate.done, rate.rate, rate.weeks) == (4, 2, 0.5, 8)
    mine = commitment_close_rates(owners=[org.rep], since=rate.since, until=rate.until)
    assert mine[org.rep.pk] == (rate.done, rate.made)


@pytest.mark.django_db
def test_the_person_page_shows_it_to_the_people_above(client, org):
    history(org, made=3, done=2)
    for viewer in (org.manager, org.head):
        client.force_login(viewer)
        body = client.get(f"/people/{org.rep.pk}/").content.decode()
        assert "67% done" in body
        assert "2 of the 3 commitments made in the last 8 weeks" in body


@pytest.mark.django_db
def test_without_commitments_the_page_says_so(client, org):
    client.force_login(org.manager)
    body = client.get(f"/people/{org.rep.pk}/").content.decode()
    assert "No commitments made in the last 8 weeks." in body


@pytest.mark.django_db
@pytest.mark.parametrize("outsider", ["other_manager", "peer", "hr", "admin"])
def test_nobody_else_sees_the_page(client, org, outsider):
    history(org, made=1, done=1)
    client.force_login(getattr(org, outsider))
    assert client.get(f"/people/{org.rep.pk}/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("made", [2, 12])
def test_the_person_page_costs_the_same_queries_however_many_commitments(client, org, made):
    history(org, made=made, done=made // 2)
    client.force_login(org.manager)
    client.get(f"/people/{org.rep.pk}/")
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/people/{org.rep.pk}/").status_code == 200
    pytest.person_page_queries = getattr(pytest, "person_page_queries", set()) | {len(queries)}
    assert len(pytest.person_page_queries) == 1, [q["sql"] for q in queries]
    close_rate = [q for q in queries if 'COUNT("coaching_commitment"."id")' in q["sql"]]
    assert len(close_rate) == 1


# --- The API ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_gives_my_own_and_that_of_someone_below_me(org):
    history(org, made=4, done=1)
    mine = api_as(org.rep).get("/api/v1/commitments/close-rate/")
    assert mine.status_code == 200
    body = mine.json()
    assert (body["owner"], body["made"], body["done"], body["close_rate"], body["weeks"]) == (
        org.rep.pk,
        4,
        1,
        0.25,
        8,
    )
    for above in (org.manager, org.head):
        theirs = api_as(above).get("/api/v1/commitments/close-rate/", {"owner": org.rep.pk})
        counted = ("owner", "made", "done", "close_rate")
        assert {k: theirs.json()[k] for k in counted} == {k: body[k] for k in counted}


@pytest.mark.django_db
def test_none_made_is_a_null_rate(org):
    body = api_as(org.manager).get("/api/v1/commitments/close-rate/").json()
    assert (body["made"], body["done"], body["close_rate"]) == (0, 0, None)


@pytest.mark.django_db
@pytest.mark.parametrize("outsider", ["other_manager", "peer", "other_rep", "hr", "admin"])
def test_an_outsider_gets_a_404(org, outsider):
    history(org, made=1, done=1)
    response = api_as(getattr(org, outsider)).get(
        "/api/v1/commitments/close-rate/", {"owner": org.rep.pk}
    )
    assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("owner", ["abc", "0", "-3", "1.5", "9" * 30])
def test_a_bad_owner_is_a_400(org, owner):
    response = api_as(org.manager).get("/api/v1/commitments/close-rate/", {"owner": owner})
    assert response.status_code == 400
    assert "owner" in response.json()


@pytest.mark.django_db
def test_signed_out_is_refused(org):
    assert APIClient().get("/api/v1/commitments/close-rate/").status_code in (401, 403)
