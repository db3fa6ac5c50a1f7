"""Every plan through the API (`GET /api/v1/plans/all/`), for programme admins: running
by default, `show=paused|ended|all`, by kind and by the coach's, coachee's or team's
name or email, 50 a page at the same cost whatever the numbers; an ended plan says when
and why (`ended_at`, `end_reason`, null while live). Bad parameters are a 400 naming
them; everyone else gets 404. A programme admin outside the coach's reporting line may
read, change and end any plan by its id through the plan's own endpoints, audited as
theirs."""

from datetime import datetime, time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from cadence.models import CadencePlan
from coaching.models import CoachingSession
from people.models import AuditEvent
from tests.support.cadence_plans import EARLIER, ENDED, one_on_one, plans_of_every_shape
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/plans/"
ALL = f"{URL}all/"


def api(user=None):
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def ids(body) -> list[int]:
    return [row["id"] for row in body["results"]]


def named(plans_world, *names) -> list[int]:
    return [getattr(plans_world, name).pk for name in names]


def state(plan):
    plan.refresh_from_db()
    rule = (plan.weekday, plan.local_time, plan.duration_minutes, plan.paused)
    sessions = CoachingSession.objects.filter(occurrence__plan=plan)
    return rule, plan.ended_at, plan.end_reason, sorted(sessions.values_list("pk", flat=True))


# --- The list ----------------------------------------------------------------------------


def test_the_url_is_named(plans_world):
    assert reverse("api:plan-programme") == ALL


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({}, ["boss", "rita", "review"]),  # running, by coach
        ({"show": ""}, ["boss", "rita", "review"]),
        ({"show": "paused"}, ["olga"]),
        ({"show": "ended"}, ["pavel", "omar"]),  # the latest ended first
        ({"show": "all"}, ["boss", "omar", "rita", "pavel", "olga", "review"]),
        ({"kind": "team_call_review"}, ["review"]),
        ({"kind": "manager_review", "show": "all"}, ["boss", "omar"]),
        ({"kind": "peer", "show": "all"}, []),
        ({"q": "rita"}, ["rita"]),  # coachee's name
        ({"q": "OMAR"}, ["review"]),  # coach's name, any case; his 1:1 is paused
        ({"q": "omar", "show": "all"}, ["omar", "olga", "review"]),
        ({"q": "westward"}, ["review"]),  # team's name
        ({"q": "other.rep@example", "show": "paused"}, ["olga"]),  # email
        ({"q": "peer@", "kind": "one_on_one", "show": "ended"}, ["pavel"]),
        ({"q": "zebra", "show": "all"}, []),
    ],
)
def test_the_list_is_every_plan_by_state_kind_and_name(org, plans_world, query, expected):
    response = api(org.admin).get(ALL, query)
    assert response.status_code == 200
    body = response.json()
    assert ids(body) == named(plans_world, *expected)
    assert body["count"] == len(expected) and body["next"] is body["previous"] is None


def test_a_running_plan_is_described_as_on_the_coachs_list(org, plans_world):
    [row] = [r for r in api(org.admin).get(ALL).json()["results"] if r["id"] == plans_world.rita.pk]
    first = (
        CoachingSession.objects.filter(occurrence__plan=plans_world.rita)
        .order_by("scheduled_start")
        .first()
    )
    assert row["coach"] == {"id": org.manager.pk, "display_name": "Mia Manager"}
    assert row["coachee"] == {"id": org.rep.pk, "display_name": "Rita Rep"}
    assert row["rule_text"] == "Tuesdays 10:00 Europe/Berlin, weekly"
    assert (row["live"], row["paused"], row["ended_at"], row["end_reason"]) == (
        True,
        False,
        None,
        None,
    )
    assert row["next_session"] == first.pk
    assert datetime.fromisoformat(row["next_start"]) == first.scheduled_start
    # The same as its coach reads it on their own list.
    [mine] = [
        r for r in api(org.manager).get(URL).json()["results"] if r["id"] == plans_world.rita.pk
    ]
    assert mine == row


def test_an_ended_plan_says_when_and_why_it_ended(org, plans_world):
    body = api(org.admin).get(ALL, {"show": "ended"}).json()
    pavel, omar = body["results"]
    assert (pavel["id"], pavel["live"], pavel["end_reason"]) == (
        plans_world.pavel.pk,
        False,
        "leave",
    )
    assert datetime.fromisoformat(pavel["ended_at"]) == ENDED
    assert (omar["end_reason"], datetime.fromisoformat(omar["ended_at"])) == (
        "role_change",
        EARLIER,
    )
    assert pavel["next_start"] is pavel["next_session"] is None
    team = api(org.admin).get(ALL, {"show": "all", "q": "westward"}).json()["results"][0]
    assert (
        team["team"] == {"id": plans_world.west.pk, "name": "Westward"} and team["coachee"] is None
    )


def test_plans_come_50_a_page(org, plans_world):
    for i in range(50):  # 53 running
        one_on_one(org.manager, UserFactory(display_name=f"Report {i:02}"), weekday=i % 5)
    client = api(org.admin)
    first = client.get(ALL).json()
    assert first["count"] == 53 and len(first["results"]) == 50 and first["previous"] is None
    assert first["next"].endswith("/api/v1/plans/all/?page=2")
    second = client.get(ALL, {"page": 2}).json()
    assert len(second["results"]) == 3 and second["next"] is None
    assert not set(ids(first)) & set(ids(second))
    found = client.get(ALL, {"q": "report"}).json()
    assert found["count"] == 50 and len(found["results"]) == 50 and found["next"] is None
    assert client.get(ALL, {"page": 3}).status_code == 404  # DRF's own: no such page


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"show": "sleeping"}, "show"),
        ({"show": "running"}, "show"),  # running is the default, left out
        ({"kind": "coffee"}, "kind"),
        ({"kind": "one_on_one", "show": "gone"}, "show"),
        ({"q": "x" * 101}, "q"),
    ],
)
def test_a_bad_parameter_is_a_400_naming_it(org, plans_world, query, field):
    response = api(org.admin).get(ALL, query)
    assert response.status_code == 400
    errors = response.json()
    assert list(errors) == [field]
    assert all(isinstance(message, str) and message for message in errors[field])


@pytest.mark.parametrize("who", ["rep", "manager", "head", "hr", "other_manager", "peer"])
def test_everyone_but_programme_admins_gets_404(org, plans_world, who):
    client = api(getattr(org, who))
    assert client.get(ALL).status_code == 404
    assert client.get(ALL, {"show": "all"}).status_code == 404
    assert client.get(ALL, {"show": "bogus"}).status_code == 404  # not a 400: nothing to see


def test_anonymous_callers_get_401(plans_world):
    assert api().get(ALL).status_code == 401


def test_the_list_costs_the_same_at_two_sizes(org):
    """Plans of every shape — 1:1s, team plans, paused, ended, with sessions planned —
    at 3 and at 60 (more than a page)."""

    def make(n, start):
        plans_of_every_shape(org, n, start)

    client = api(org.admin)

    def queries():
        counts = []
        for query in ({}, {"show": "all"}, {"show": "ended", "q": "coach"}):
            with CaptureQueriesContext(connection) as captured:
                assert client.get(ALL, query).status_code == 200
            counts.append(len(captured))
        return counts

    make(3, 0)
    few = queries()
    make(57, 3)
    assert CadencePlan.objects.count() == 60
    assert client.get(ALL, {"show": "all"}).json()["next"] is not None
    many = queries()
    # Session, user, roles; the count; the page's ids; those plans with their next sessions.
    assert few == many == [6, 6, 6]


# --- Changing any plan by its id ---------------------------------------------------------


def test_a_programme_admin_reads_changes_and_ends_any_plan_by_its_id(org, plans_world):
    """Adam is not above Mia: he may as programme admin."""
    client = api(org.admin)
    plan = plans_world.rita
    assert client.get(f"{URL}{plan.pk}/").json()["id"] == plan.pk
    response = client.patch(
        f"{URL}{plan.pk}/", {"local_time": "16:30", "duration_minutes": 45}, format="json"
    )
    assert response.status_code == 200
    assert (response.json()["local_time"], response.json()["duration_minutes"]) == (
        "16:30:00",
        45,
    )
    response = client.patch(f"{URL}{plan.pk}/", {"paused": True}, format="json")
    assert response.status_code == 200 and response.json()["paused"] is True
    response = client.post(
        f"{URL}{plan.pk}/end/", {"reason": "other", "note": "Moves to partnerships"}
    )
    assert response.status_code == 200
    row = response.json()
    assert (row["live"], row["end_reason"]) == (False, "other") and row["ended_at"]
    plan.refresh_from_db()
    assert (plan.local_time, plan.duration_minutes, plan.paused) == (time(16, 30), 45, True)
    assert (plan.ended_by, plan.end_reason, plan.end_note) == (
        org.admin,
        "other",
        "Moves to partnerships",
    )
    events = AuditEvent.objects.filter(target_id=str(plan.pk)).order_by("pk")
    assert list(events.values_list("verb", "actor")) == [
        ("plan.changed", org.admin.pk),
        ("plan.changed", org.admin.pk),
        ("plan.ended", org.admin.pk),
    ]
    assert plans_world.rita.pk in ids(client.get(ALL, {"show": "ended"}).json())


def test_a_programme_admin_changes_a_paused_plan_and_a_team_plan_too(org, plans_world):
    client = api(org.admin)
    response = client.patch(f"{URL}{plans_world.olga.pk}/", {"paused": False}, format="json")
    assert response.status_code == 200 and response.json()["paused"] is False
    response = client.patch(f"{URL}{plans_world.review.pk}/", {"weekday": 4}, format="json")
    assert response.status_code == 200 and response.json()["weekday"] == 4
    assert set(ids(client.get(ALL).json())) == set(
        named(plans_world, "boss", "rita", "review", "olga")
    )


def test_a_programme_admins_bad_change_is_a_400_and_nothing_changes(org, plans_world):
    client = api(org.admin)
    before = state(plans_world.rita)
    response = client.patch(f"{URL}{plans_world.rita.pk}/", {"duration_minutes": 3}, format="json")
    assert response.status_code == 400 and "duration_minutes" in response.json()
    response = client.post(f"{URL}{plans_world.rita.pk}/end/", {"reason": "other"}, format="json")
    assert response.status_code == 400 and "note" in response.json()
    assert state(plans_world.rita) == before
    assert not AuditEvent.objects.filter(verb__startswith="plan.").exists()


def test_an_ended_plan_stays_ended_for_a_programme_admin_too(org, plans_world):
    client = api(org.admin)
    before = state(plans_world.pavel)
    response = client.patch(f"{URL}{plans_world.pavel.pk}/", {"weekday": 3}, format="json")
    assert response.status_code == 400 and response.json() == ["This plan has ended."]
    response = client.post(
        f"{URL}{plans_world.pavel.pk}/end/", {"reason": "departed"}, format="json"
    )
    assert response.status_code == 200 and response.json()["end_reason"] == "leave"
    assert state(plans_world.pavel) == before
    plans_world.pavel.refresh_from_db()
    assert plans_world.pavel.ended_by == org.head


def test_a_plan_id_nobody_has_is_404_for_a_programme_admin(org, plans_world):
    client = api(org.admin)
    assert client.get(f"{URL}999999/").status_code == 404
    assert client.patch(f"{URL}999999/", {"weekday": 3}, format="json").status_code == 404
    assert client.post(f"{URL}999999/end/", {"reason": "leave"}).status_code == 404
