"""Plans through the API: the list is what My cadence shows; a plan is read by its
coach, its coachee and the people above the coach, and changed or ended by the coach
and the people above them. Anyone else — the coachee too, for a change — gets 404, as
on the page; bad input is a 400 naming the field, with nothing saved; changing the
rule moves the sessions nobody has touched; the list costs the same queries for one
plan as for thirteen."""

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from cadence.engine import occurrences_generate
from cadence.models import CadencePlan, Occurrence
from cadence.services import plan_create
from coaching.models import CoachingSession
from coaching.services import notes_save
from people.models import AuditEvent
from people.services_teams import team_create
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/plans/"
PEOPLE = ["manager", "rep", "head", "other_manager", "peer", "other_rep", "hr", "admin"]
# Mia's plan with Rita: read by both, by Hana above Mia and by programme admins
# (Programme → Plans); changed by Mia, Hana and programme admins.
SEE = {"manager", "rep", "head", "admin"}
MANAGE = {"manager", "head", "admin"}
MONDAY = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
BERLIN = ZoneInfo("Europe/Berlin")
NOTE_NEEDED = "Say briefly why, when the reason is “Other”."


def api(user=None):
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def plan(weekly_plan):
    """Mia's weekly 1:1 with Rita, Tuesdays 10:00 Berlin, with six weeks of sessions."""
    made = weekly_plan()
    occurrences_generate()
    return made


@pytest.fixture
def team_with_lead(org):
    return team_create(name="Mia's team", lead=org.manager)


def _sessions(plan):
    return CoachingSession.objects.filter(occurrence__plan=plan).order_by("scheduled_start")


def _state(plan):
    plan.refresh_from_db()
    rule = [getattr(plan, f) for f in ("weekday", "local_time", "duration_minutes")]
    rule += [plan.interval_weeks, plan.week_of_month, plan.paused, plan.ended_at, plan.end_note]
    return rule, list(_sessions(plan).values_list("pk", "scheduled_start"))


# --- Reading ---------------------------------------------------------------------------


def test_the_list_is_the_coachs_own_live_plans_as_my_cadence_shows_them(org, plan):
    ended = plan_create(
        kind="one_on_one", coach=org.manager, coachee=org.peer, weekday=2,
        local_time=time(9, 0), generate=False,
    )  # fmt: skip
    CadencePlan.objects.filter(pk=ended.pk).update(ended_at=MONDAY, end_reason="leave")
    first = _sessions(plan).first()
    body = api(org.manager).get(URL).json()
    assert body["count"] == 1 and body["next"] is None
    [row] = body["results"]
    assert row == {
        "id": plan.pk,
        "kind": "one_on_one",
        "coach": {"id": org.manager.pk, "display_name": "Mia Manager"},
        "coachee": {"id": org.rep.pk, "display_name": "Rita Rep"},
        "team": None,
        "recurrence": "weekly",
        "weekday": 1,
        "local_time": "10:00:00",
        "duration_minutes": plan.duration_minutes,
        "interval_weeks": 1,
        "week_of_month": None,  # a weekly rule does not use it
        "rule_text": "Tuesdays 10:00 Europe/Berlin, weekly",
        "time_zone": "Europe/Berlin",
        "starts_on": plan.starts_on.isoformat(),
        "ends_on": None,
        "paused": False,
        "live": True,
        "next_start": row["next_start"],
        "next_session": first.pk,
        "ended_at": None,
        "end_reason": None,
    }
    assert datetime.fromisoformat(row["next_start"]) == first.scheduled_start


@pytest.mark.parametrize("who", ["rep", "head", "other_manager", "hr"])
def test_the_list_holds_only_plans_one_runs_empty_for_anyone_else(org, plan, who):
    """Rita is coached in the plan and Hana is above its coach: they read it by id, but
    it is not a plan they run (as on My cadence)."""
    body = api(getattr(org, who)).get(URL).json()
    assert body["count"] == 0 and body["results"] == []


@pytest.mark.parametrize("who", PEOPLE)
def test_a_plan_is_read_by_its_coach_coachee_and_those_above_the_coach(org, plan, who):
    response = api(getattr(org, who)).get(f"{URL}{plan.pk}/")
    if who in SEE:
        assert response.status_code == 200
        assert response.json()["rule_text"] == "Tuesdays 10:00 Europe/Berlin, weekly"
    else:
        assert response.status_code == 404


def test_a_monthly_plan_shows_which_week_and_no_interval(org, weekly_plan):
    plan = weekly_plan(recurrence="monthly_nth", week_of_month=2, weekday=2)
    row = api(org.manager).get(f"{URL}{plan.pk}/").json()
    assert (row["recurrence"], row["week_of_month"], row["interval_weeks"]) == (
        "monthly_nth",
        2,
        None,
    )
    assert row["rule_text"] == "2nd Wednesday of the month, 10:00 Europe/Berlin"
    assert row["next_start"] is None and row["next_session"] is None  # none generated


def test_a_team_plan_names_its_team(org, team_with_lead):
    plan = plan_create(
        kind="team_call_review", coach=org.manager, team=team_with_lead, weekday=3,
        local_time=time(15, 0), generate=False,
    )  # fmt: skip
    row = api(org.manager).get(f"{URL}{plan.pk}/").json()
    assert row["team"] == {"id": team_with_lead.pk, "name": team_with_lead.name}
    assert row["coachee"] is None and row["kind"] == "team_call_review"


# --- Who may change -------------------------------------------------------------------


def _writes(plan):
    return [
        ("patch", f"{URL}{plan.pk}/", {"weekday": 3}),
        ("post", f"{URL}{plan.pk}/end/", {"reason": "leave"}),
    ]


@pytest.mark.parametrize("who", ["other_manager", "peer", "other_rep", "hr"])
def test_an_outsider_gets_404_on_every_plan_route_and_nothing_changes(org, plan, who):
    client = api(getattr(org, who))
    before = _state(plan)
    assert client.get(f"{URL}{plan.pk}/").status_code == 404
    for method, path, body in _writes(plan):
        assert getattr(client, method)(path, body, format="json").status_code == 404, path
    assert _state(plan) == before


def test_the_coachee_sees_the_plan_but_changing_it_is_404_as_on_the_page(org, plan, client):
    before = _state(plan)
    rita = api(org.rep)
    assert rita.get(f"{URL}{plan.pk}/").status_code == 200
    for method, path, body in _writes(plan):
        assert getattr(rita, method)(path, body, format="json").status_code == 404, path
    client.force_login(org.rep)
    assert client.post(f"/cadence/plans/{plan.pk}/edit/", {}).status_code == 404
    assert client.post(f"/cadence/plans/{plan.pk}/end/", {}).status_code == 404
    assert _state(plan) == before


def test_a_peer_in_a_peer_plan_reads_it_and_may_not_change_it_as_on_the_page(org, client):
    """A peer pair's plan names one member as coach and the other as coachee: the other
    sees it on their sessions, and the page refuses them a change with 404."""
    plan = plan_create(
        kind="peer", coach=org.rep, coachee=org.peer, weekday=4, local_time=time(12, 0),
        generate=False,
    )  # fmt: skip
    before = _state(plan)
    pavel = api(org.peer)
    assert pavel.get(f"{URL}{plan.pk}/").json()["coach"]["id"] == org.rep.pk
    assert pavel.get(URL).json()["results"] == []
    client.force_login(org.peer)
    page = client.post(f"/cadence/plans/{plan.pk}/pause/", {"paused": "1"}).status_code
    for method, path, body in _writes(plan):
        assert getattr(pavel, method)(path, body, format="json").status_code == page == 404
    assert _state(plan) == before
    # The coach, Rita, may.
    response = api(org.rep).patch(f"{URL}{plan.pk}/", {"paused": True}, format="json")
    assert response.status_code == 200 and response.json()["paused"] is True


def test_someone_above_the_coach_may_change_and_end_it(org, plan):
    hana = api(org.head)
    response = hana.patch(f"{URL}{plan.pk}/", {"duration_minutes": 45}, format="json")
    assert response.status_code == 200 and response.json()["duration_minutes"] == 45
    response = hana.post(f"{URL}{plan.pk}/end/", {"reason": "new_manager"}, format="json")
    assert response.status_code == 200 and response.json()["live"] is False
    plan.refresh_from_db()
    assert (plan.end_reason, plan.ended_by) == ("new_manager", org.head)


@pytest.mark.parametrize("pk", ["999999", str(2**63), str(10**30)])
def test_an_id_nobody_has_is_404(org, plan, pk):
    client = api(org.manager)
    assert client.get(f"{URL}{pk}/").status_code == 404
    assert client.patch(f"{URL}{pk}/", {"weekday": 3}, format="json").status_code == 404
    assert client.post(f"{URL}{pk}/end/", {"reason": "leave"}, format="json").status_code == 404


def test_anonymous_callers_get_401(plan):
    client = api()
    assert client.get(URL).status_code == 401
    assert client.get(f"{URL}{plan.pk}/").status_code == 401
    assert client.patch(f"{URL}{plan.pk}/", {"weekday": 3}, format="json").status_code == 401
    assert client.post(f"{URL}{plan.pk}/end/", {"reason": "leave"}).status_code == 401


# --- Changing the rule ------------------------------------------------------------------


def test_changing_the_rule_moves_only_the_future_sessions_nobody_touched(
    org, weekly_plan, django_capture_on_commit_callbacks
):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan()
        occurrences_generate()
        first, second, *_ = _sessions(plan)
        notes_save(session=second, actor=org.rep, base_version=0, changes={"reality": "ready"})
        with django_capture_on_commit_callbacks(execute=True):
            response = api(org.manager).patch(
                f"{URL}{plan.pk}/",
                {"weekday": 3, "local_time": "15:00", "duration_minutes": 45, "interval_weeks": 2},
                format="json",
            )
        assert response.status_code == 200
        row = response.json()
        # The new rule's sessions are made once the change commits.
        next_start = api(org.manager).get(f"{URL}{plan.pk}/").json()["next_start"]
    assert row["rule_text"] == "Thursdays 15:00 Europe/Berlin, every 2 weeks"
    assert (row["weekday"], row["local_time"], row["duration_minutes"]) == (3, "15:00:00", 45)
    assert not CoachingSession.objects.filter(pk=first.pk).exists()  # untouched: moved
    kept = CoachingSession.objects.get(pk=second.pk)  # prepared: stays where it was
    assert kept.scheduled_start == second.scheduled_start
    regenerated = [s for s in _sessions(plan) if s.pk != second.pk]
    assert regenerated, "the new rule's sessions are planned"
    for session in regenerated:
        local = session.scheduled_start.astimezone(BERLIN)
        assert (local.weekday(), local.time()) == (3, time(15, 0))
        assert session.scheduled_end - session.scheduled_start == timedelta(minutes=45)
    # Thursday 5 March 15:00 Berlin: the new rule's first slot, before the kept one.
    assert datetime.fromisoformat(next_start) == datetime(2026, 3, 5, 14, 0, tzinfo=UTC)


def test_pausing_and_resuming(org, plan):
    client = api(org.manager)
    response = client.patch(f"{URL}{plan.pk}/", {"paused": True}, format="json")
    assert response.status_code == 200 and response.json()["paused"] is True
    plan.refresh_from_db()
    assert plan.paused
    response = client.patch(f"{URL}{plan.pk}/", {"paused": False}, format="json")
    assert response.json()["paused"] is False
    plan.refresh_from_db()
    assert not plan.paused


def test_sending_what_the_plan_already_says_changes_nothing(org, plan):
    client = api(org.manager)
    before, events = _state(plan), AuditEvent.objects.count()
    response = client.patch(
        f"{URL}{plan.pk}/", {"weekday": 1, "local_time": "10:00", "paused": False}, format="json"
    )
    assert response.status_code == 200
    assert _state(plan) == before and AuditEvent.objects.count() == events


def test_a_monthly_plan_changes_which_week_it_falls_in(org, weekly_plan):
    plan = weekly_plan(recurrence="monthly_nth", week_of_month=2, weekday=2)
    response = api(org.manager).patch(f"{URL}{plan.pk}/", {"week_of_month": 3}, format="json")
    assert response.status_code == 200
    assert response.json()["rule_text"] == "3rd Wednesday of the month, 10:00 Europe/Berlin"


BAD_CHANGES = [
    ({"weekday": 9}, "weekday"),
    ({"weekday": "Tuesday"}, "weekday"),
    ({"weekday": None}, "weekday"),
    ({"local_time": "25:99"}, "local_time"),
    ({"local_time": "10:00+02:00"}, "local_time"),  # a wall time, never an offset
    ({"local_time": 10}, "local_time"),
    ({"duration_minutes": 2}, "duration_minutes"),
    ({"duration_minutes": 481}, "duration_minutes"),
    ({"duration_minutes": "long"}, "duration_minutes"),
    ({"interval_weeks": 12}, "interval_weeks"),
    ({"interval_weeks": 0}, "interval_weeks"),
    ({"week_of_month": 2}, "week_of_month"),  # a weekly plan does not use it
    ({"paused": "maybe"}, "paused"),
    ({"time_zone": "Asia/Tokyo"}, "time_zone"),  # read-only here
    ({"coach": 1}, "coach"),
    ({"ends_on": "2030-01-01"}, "ends_on"),
    ({"recurrence": "monthly_last"}, "recurrence"),
    ({"colour": "red", "weekday": 3}, "colour"),
    ({}, "non_field_errors"),
]


@pytest.mark.parametrize(("body", "field"), BAD_CHANGES)
def test_a_bad_change_is_a_400_naming_the_field_and_nothing_is_saved(org, plan, body, field):
    client = api(org.manager)
    before, events = _state(plan), AuditEvent.objects.count()
    response = client.patch(f"{URL}{plan.pk}/", body, format="json")
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert all(isinstance(m, str) and m for m in response.json()[field])
    assert _state(plan) == before and AuditEvent.objects.count() == events


def test_a_field_the_rule_does_not_use_is_named_as_such(org, weekly_plan):
    plan = weekly_plan(recurrence="monthly_last")
    before = _state(plan)
    body = {"interval_weeks": 2, "week_of_month": 2}
    errors = api(org.manager).patch(f"{URL}{plan.pk}/", body, format="json").json()
    assert errors == {
        "interval_weeks": ["This plan's rule (monthly on the last weekday) does not use it."],
        "week_of_month": ["This plan's rule (monthly on the last weekday) does not use it."],
    }
    assert _state(plan) == before


@pytest.mark.parametrize("body", [[], "weekday=3", [{"weekday": 3}]])
def test_a_body_that_is_not_an_object_is_a_400(org, plan, body):
    before = _state(plan)
    response = api(org.manager).patch(f"{URL}{plan.pk}/", body, format="json")
    assert response.status_code == 400
    assert _state(plan) == before


def test_an_ended_plan_cannot_be_changed(org, plan):
    client = api(org.manager)
    client.post(f"{URL}{plan.pk}/end/", {"reason": "leave"}, format="json")
    before = _state(plan)
    response = client.patch(f"{URL}{plan.pk}/", {"weekday": 3}, format="json")
    assert response.status_code == 400 and response.json() == ["This plan has ended."]
    assert _state(plan) == before


# --- Ending -----------------------------------------------------------------------------


def test_ending_a_plan_takes_a_reason_and_leaves_the_list(org, plan):
    client = api(org.manager)
    response = client.post(
        f"{URL}{plan.pk}/end/", {"reason": "other", "note": "Rita moves office"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["live"] is False and response.json()["id"] == plan.pk
    plan.refresh_from_db()
    assert (plan.end_reason, plan.end_note, plan.ended_by) == (
        "other",
        "Rita moves office",
        org.manager,
    )
    assert not _sessions(plan).exists()  # future, untouched: gone
    assert client.get(URL).json()["results"] == []
    assert client.get(f"{URL}{plan.pk}/").json()["live"] is False  # still readable


def test_ending_an_ended_plan_changes_nothing(org, plan):
    client = api(org.manager)
    client.post(f"{URL}{plan.pk}/end/", {"reason": "leave"}, format="json")
    before = _state(plan)
    response = client.post(f"{URL}{plan.pk}/end/", {"reason": "role_change"}, format="json")
    assert response.status_code == 200 and response.json()["live"] is False
    assert _state(plan) == before
    plan.refresh_from_db()
    assert plan.end_reason == "leave"


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({}, "reason", "This field is required."),
        ({"reason": ""}, "reason", '"" is not a valid choice.'),
        ({"reason": "bogus"}, "reason", '"bogus" is not a valid choice.'),
        # Only ending a team's policy says so.
        ({"reason": "policy_ended"}, "reason", '"policy_ended" is not a valid choice.'),
        ({"reason": "other"}, "note", NOTE_NEEDED),
        ({"reason": "other", "note": "   "}, "note", NOTE_NEEDED),
        ({"reason": "leave", "note": "x" * 501}, "note", "no more than 500 characters"),
        ({"reason": "leave", "note": None}, "note", "This field may not be null."),
        ({"reason": "leave", "ended_by": 1}, "ended_by", "Unknown field."),
    ],
)
def test_a_bad_ending_is_a_400_naming_the_field_and_the_plan_stays(org, plan, body, field, message):
    client = api(org.manager)
    before, events = _state(plan), AuditEvent.objects.count()
    response = client.post(f"{URL}{plan.pk}/end/", body, format="json")
    assert response.status_code == 400
    assert message in " ".join(response.json()[field])
    assert _state(plan) == before and AuditEvent.objects.count() == events
    assert CadencePlan.objects.get(pk=plan.pk).is_live


# --- Query count ------------------------------------------------------------------------


def _plans_for(org, n):
    for i in range(n):
        rep = UserFactory(manager=org.manager, display_name=f"Report {i}")
        plan_create(
            kind="one_on_one", coach=org.manager, coachee=rep, weekday=i % 5,
            local_time=time(9 + i % 8, 0), generate=False,
        )  # fmt: skip
    occurrences_generate()


def _queries(client):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(URL)
    assert response.status_code == 200
    return len(captured), response.json()["count"]


def test_the_list_costs_the_same_queries_for_one_plan_or_thirteen(org):
    client = api(org.manager)
    _plans_for(org, 1)
    few, one = _queries(client)
    _plans_for(org, 12)
    assert Occurrence.objects.count() > 60
    many, thirteen = _queries(client)
    assert (one, thirteen) == (1, 13)
    # session, user; the live plans with their next session (the page's misses and
    # next two weeks are not read: the list shows neither).
    assert few == many == 3


def test_the_browsable_api_shows_the_list_and_a_plan(org, plan):
    client = api(org.manager)
    for path in (URL, f"{URL}{plan.pk}/"):
        response = client.get(path, HTTP_ACCEPT="text/html")
        assert response.status_code == 200 and b"Tuesdays 10:00" in response.content


def test_plans_are_in_the_schema(org):
    schema = api(org.rep).get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    assert set(paths[URL]) == {"get"}
    assert set(paths[f"{URL}{{id}}/"]) == {"get", "patch"}
    assert set(paths[f"{URL}{{id}}/end/"]) == {"post"}
    for operation in (paths[f"{URL}{{id}}/"]["patch"], paths[f"{URL}{{id}}/end/"]["post"]):
        assert {"400", "404"} <= set(operation["responses"])
