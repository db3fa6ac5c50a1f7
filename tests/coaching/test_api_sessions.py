"""The sessions API: who sees which session, planning sessions of every kind, the
held / cancel / reschedule actions, filters, and a list whose query count does not
grow with the number of sessions."""

from base64 import b64encode
from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from coaching import models as coaching_models
from coaching.api import NewestFirstCursor
from coaching.models import CoachingSession, SessionKind
from coaching.services import peer_session_create
from people.services_teams import team_create, team_member_add
from tests.support.factories import FocusAreaFactory, UserFactory, one_on_one

SEES = ["rep", "manager", "head"]
DOES_NOT_SEE = ["other_manager", "peer", "other_rep", "hr", "admin"]


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return signed_in


def in_days(days, hour=9):
    return (timezone.now() + timedelta(days=days)).replace(
        hour=hour, minute=0, second=0, microsecond=0
    )


def ids(response):
    return [row["id"] for row in response.json()["results"]]


def messages(body) -> str:
    """Every message in an error body, flattened, for `in` checks."""
    if isinstance(body, dict):
        return " ".join(messages(v) for v in body.values())
    if isinstance(body, list):
        return " ".join(messages(v) for v in body)
    return str(body)


# --- Who sees what -------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", SEES)
def test_the_coachee_the_coach_and_the_coachs_manager_see_a_1_1(api, org, who):
    session = one_on_one(org.manager, org.rep)
    client = api(getattr(org, who))
    assert ids(client.get("/api/v1/sessions/")) == [session.pk]
    assert client.get(f"/api/v1/sessions/{session.pk}/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("who", DOES_NOT_SEE)
def test_everyone_else_gets_404_and_an_empty_list(api, org, who):
    session = one_on_one(org.manager, org.rep)
    client = api(getattr(org, who))
    assert session.pk not in ids(client.get("/api/v1/sessions/"))
    response = client.get(f"/api/v1/sessions/{session.pk}/")
    assert response.status_code == 404
    assert set(response.json()) == {"detail"}


@pytest.mark.django_db
def test_hr_and_programme_admins_see_no_sessions_at_all(api, org):
    one_on_one(org.manager, org.rep)
    one_on_one(org.head, org.manager)
    one_on_one(org.other_manager, org.other_rep)
    for person in (org.hr, org.admin):
        body = api(person).get("/api/v1/sessions/").json()
        assert body["results"] == []


@pytest.mark.django_db
def test_anonymous_callers_get_401(api, org):
    session = one_on_one(org.manager, org.rep)
    client = api()
    assert client.get("/api/v1/sessions/").status_code == 401
    assert client.get(f"/api/v1/sessions/{session.pk}/").status_code == 401
    assert client.post("/api/v1/sessions/", {}, format="json").status_code == 401


@pytest.mark.django_db
def test_peer_sessions_stay_with_the_peers(api, org):
    session = peer_session_create(actor=org.rep, peer=org.peer, start=in_days(1))
    assert api(org.peer).get(f"/api/v1/sessions/{session.pk}/").status_code == 200
    assert api(org.manager).get(f"/api/v1/sessions/{session.pk}/").status_code == 404
    assert api(org.head).get(f"/api/v1/sessions/{session.pk}/").status_code == 404


@pytest.mark.django_db
def test_it_describes_the_session_and_what_the_requester_may_do(api, org):
    focus = FocusAreaFactory(name="Discovery")
    session = one_on_one(org.manager, org.rep, start=in_days(2), focus_area=focus)

    as_coach = api(org.manager).get(f"/api/v1/sessions/{session.pk}/").json()
    assert as_coach == {
        "id": session.pk,
        "kind": "one_on_one",
        "status": "scheduled",
        "scheduled_start": as_coach["scheduled_start"],
        "original_start": as_coach["scheduled_start"],
        "duration_minutes": 30,
        "team": None,
        "focus_area": {"id": focus.pk, "name": "Discovery"},
        "participants": [
            {
                "person": {"id": org.manager.pk, "display_name": "Mia Manager"},
                "role": "coach",
                "speaking_order": 0,
            },
            {
                "person": {"id": org.rep.pk, "display_name": "Rita Rep"},
                "role": "coachee",
                "speaking_order": 1,
            },
        ],
        "presented_call": None,
        "scenario": "",
        "drills": "",
        "held_at": None,
        "held_but_empty": False,
        "cancel_reason": "",
        "cancel_note": "",
        "sequence": 0,
        "changes": [],
        "viewer_role": "coach",
        "can_run": True,
        "can_edit": True,
    }
    as_coachee = api(org.rep).get(f"/api/v1/sessions/{session.pk}/").json()
    assert (as_coachee["viewer_role"], as_coachee["can_run"], as_coachee["can_edit"]) == (
        "coachee",
        False,
        True,
    )
    as_head = api(org.head).get(f"/api/v1/sessions/{session.pk}/").json()
    assert (as_head["viewer_role"], as_head["can_run"], as_head["can_edit"]) == (
        None,
        False,
        False,
    )


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_sessions_are_never_edited_or_deleted_directly(api, org, method):
    session = one_on_one(org.manager, org.rep)
    response = getattr(api(org.manager), method)(
        f"/api/v1/sessions/{session.pk}/", {"status": "held"}, format="json"
    )
    assert response.status_code == 405
    assert CoachingSession.objects.filter(pk=session.pk, status="scheduled").exists()


@pytest.mark.django_db
def test_an_id_that_is_not_a_number_is_a_plain_404(api, org):
    assert api(org.manager).get("/api/v1/sessions/abc/").status_code == 404
    assert api(org.manager).get(f"/api/v1/sessions/{10**30}/").status_code == 404


# --- Listing -------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_lists_latest_first_and_filters_by_status_kind_person_and_time(api, org):
    early = one_on_one(org.manager, org.rep, start=in_days(1))
    late = one_on_one(org.manager, org.peer, start=in_days(10))
    review = one_on_one(org.head, org.manager, start=in_days(5))
    api(org.manager).post(f"/api/v1/sessions/{early.pk}/cancel/", {"reason": "sick"}, format="json")
    client = api(org.head)

    assert ids(client.get("/api/v1/sessions/")) == [late.pk, review.pk, early.pk]
    assert ids(client.get("/api/v1/sessions/?status=cancelled")) == [early.pk]
    assert ids(client.get("/api/v1/sessions/?status=scheduled&kind=one_on_one")) == [
        late.pk,
        review.pk,
    ]
    assert ids(client.get("/api/v1/sessions/?kind=role_play")) == []
    assert ids(client.get(f"/api/v1/sessions/?person={org.rep.pk}")) == [early.pk]
    assert ids(client.get(f"/api/v1/sessions/?person={org.manager.pk}")) == [
        late.pk,
        review.pk,
        early.pk,
    ]
    window = {"from": in_days(4).isoformat(), "to": in_days(6).isoformat()}
    assert ids(client.get("/api/v1/sessions/", window)) == [review.pk]
    assert ids(client.get("/api/v1/sessions/", {"from": in_days(5).isoformat()})) == [
        late.pk,
        review.pk,
    ]


@pytest.mark.django_db
def test_a_person_filter_never_widens_what_one_sees(api, org):
    one_on_one(org.other_manager, org.other_rep)
    assert ids(api(org.manager).get(f"/api/v1/sessions/?person={org.other_rep.pk}")) == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    ["status=postponed", "kind=party", "person=rita", "from=next+tuesday", "to=2026-13-01"],
)
def test_malformed_filters_are_a_400(api, org, query):
    response = api(org.manager).get(f"/api/v1/sessions/?{query}")
    assert response.status_code == 400
    assert query.split("=")[0] in response.json()


@pytest.mark.django_db
def test_the_list_comes_in_pages_newest_first_linked_by_cursor(api, org, monkeypatch):
    monkeypatch.setattr(NewestFirstCursor, "page_size", 2)
    sessions = [one_on_one(org.manager, org.rep, start=in_days(n)) for n in (1, 2, 3)]
    client = api(org.rep)
    first = client.get("/api/v1/sessions/").json()
    assert set(first) == {"next", "previous", "results"}  # no count: see NewestFirstCursor
    assert [row["id"] for row in first["results"]] == [sessions[2].pk, sessions[1].pk]
    assert first["previous"] is None and "cursor=" in first["next"]

    second = client.get(first["next"]).json()
    assert [row["id"] for row in second["results"]] == [sessions[0].pk]
    assert second["next"] is None
    assert [row["id"] for row in client.get(second["previous"]).json()["results"]] == [
        sessions[2].pk,
        sessions[1].pk,
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "position",
    [
        None,
        "p=yesterday",
        "p=2026-13-45 25:00:00",
        "o=-3",
        "p=2026-03-04&r=maybe",
        "p=2026-03-04 10:00:00",  # no offset: ours always carry one
        "p=9999-12-31T23:59:59-01:00",  # past the last moment once in UTC (500 on SQLite)
    ],
)
def test_a_cursor_we_did_not_give_is_a_404(api, org, position):
    """Cursors are base64 of a query string; made by hand they can hold anything."""
    one_on_one(org.manager, org.rep)
    cursor = "not-ours" if position is None else b64encode(position.encode()).decode()
    response = api(org.rep).get("/api/v1/sessions/", {"cursor": cursor})
    assert response.status_code == 404
    assert response.json() == {"detail": "Invalid cursor"}


@pytest.mark.django_db
def test_walking_newest_first_sees_exactly_what_visible_to_sees(org, monkeypatch):
    """The API's list reads `visible_for_lists`, which walks the sessions for people
    with many below: the same rule as `visible_to`, checked for everyone in the org
    with both shapes (every kind of participant, a peer session, a deactivated rep)."""
    one_on_one(org.manager, org.rep)
    one_on_one(org.head, org.manager)
    one_on_one(org.other_manager, org.other_rep)
    peer_session_create(actor=org.rep, peer=org.peer, start=in_days(1))
    gone = UserFactory(manager=org.manager)
    one_on_one(org.manager, gone)
    gone.is_active = False
    gone.save(update_fields=["is_active"])
    people = [org.head, org.manager, org.other_manager, org.rep, org.peer, org.other_rep,
              org.hr, org.admin, gone]  # fmt: skip
    sessions = CoachingSession.objects
    for walk_from in (0, 1000):  # walk for everyone, for no one
        monkeypatch.setattr(coaching_models, "WALK_FROM_PEOPLE_BELOW", walk_from)
        for person in people:
            expected = set(sessions.visible_to(person).values_list("pk", flat=True))
            walked = set(sessions.visible_for_lists(person).values_list("pk", flat=True))
            assert walked == expected, (walk_from, person.display_name)
    assert set(sessions.visible_for_lists(org.head)) == set(sessions.exclude(kind="peer"))


@pytest.mark.django_db
@pytest.mark.parametrize("walk_from", [0, 500])  # walking newest first, or gathering
@pytest.mark.parametrize("how_many", [3, 30])
def test_the_list_takes_the_same_number_of_queries_for_3_or_30_sessions(
    api, org, how_many, walk_from, monkeypatch
):
    monkeypatch.setattr(coaching_models, "WALK_FROM_PEOPLE_BELOW", walk_from)
    focus = FocusAreaFactory()
    for n in range(how_many):
        coachee = org.rep if n % 2 else org.peer
        one_on_one(org.manager, coachee, start=in_days(1 + n), focus_area=focus)
    client = api(org.head)
    client.get("/api/v1/sessions/")  # warm up: content types, first-use caches
    # 1 session row, 2 user, 3 the ids of the people below, 4 sessions with focus area /
    # team / call joined, 5 participants with their people (prefetch), 6 the sessions'
    # moves and cancellations with who made them (prefetch); no count
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/sessions/")
    assert len(response.json()["results"]) == how_many
    assert len(queries) == 6, [q["sql"] for q in queries]


# --- Planning sessions ---------------------------------------------------------------


def plan(api, who, **body):
    return api(who).post("/api/v1/sessions/", body, format="json")


@pytest.mark.django_db
def test_a_manager_plans_a_1_1_with_someone_who_reports_to_them(api, org):
    start = in_days(3)
    response = plan(
        api, org.manager, kind="one_on_one", coachee=org.rep.pk, scheduled_start=start.isoformat()
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["kind"] == "one_on_one"
    assert body["viewer_role"] == "coach"
    assert [(p["person"]["id"], p["role"]) for p in body["participants"]] == [
        (org.manager.pk, "coach"),
        (org.rep.pk, "coachee"),
    ]
    assert api(org.rep).get(f"/api/v1/sessions/{body['id']}/").status_code == 200


@pytest.mark.django_db
def test_a_1_1_with_someone_not_below_you_is_refused(api, org):
    response = plan(
        api,
        org.manager,
        kind="one_on_one",
        coachee=org.other_rep.pk,
        scheduled_start=in_days(1).isoformat(),
    )
    assert response.status_code == 400
    assert "must report to you" in messages(response.json())
    assert not CoachingSession.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("bad_id", [999_999, 10**30])
def test_an_unknown_person_id_is_a_clear_400(api, org, bad_id):
    response = plan(
        api, org.manager, kind="one_on_one", coachee=bad_id, scheduled_start=in_days(1).isoformat()
    )
    assert response.status_code == 400
    assert response.json() == {"coachee": [f"No active person with id {bad_id}."]}
    assert not CoachingSession.objects.exists()


@pytest.mark.django_db
def test_a_deactivated_person_cannot_be_picked(api, org):
    org.rep.is_active = False
    org.rep.save(update_fields=["is_active"])
    response = plan(
        api,
        org.manager,
        kind="one_on_one",
        coachee=org.rep.pk,
        scheduled_start=in_days(1).isoformat(),
    )
    assert response.status_code == 400
    assert response.json() == {"coachee": [f"No active person with id {org.rep.pk}."]}


@pytest.mark.django_db
def test_a_person_id_that_is_not_a_number_is_a_400(api, org):
    response = plan(
        api, org.manager, kind="one_on_one", coachee="rita", scheduled_start=in_days(1).isoformat()
    )
    assert response.status_code == 400
    assert "coachee" in response.json()


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["tea_party", "", None])
def test_an_unknown_kind_is_refused(api, org, kind):
    body = {"coachee": org.rep.pk, "scheduled_start": in_days(1).isoformat()}
    if kind is not None:
        body["kind"] = kind
    response = plan(api, org.manager, **body)
    assert response.status_code == 400
    assert "kind" in response.json()
    assert not CoachingSession.objects.exists()


@pytest.mark.django_db
def test_fields_of_another_kind_are_refused_not_ignored(api, org):
    response = plan(
        api, org.rep, kind="peer", coachee=org.peer.pk, scheduled_start=in_days(1).isoformat()
    )
    assert response.status_code == 400
    assert response.json() == {"peer": ["This field is required."]}
    response = plan(
        api,
        org.rep,
        kind="peer",
        peer=org.peer.pk,
        coachee=org.peer.pk,
        scheduled_start=in_days(1).isoformat(),
    )
    assert response.status_code == 400
    assert response.json() == {"coachee": ["Unknown field."]}


@pytest.mark.django_db
def test_a_request_body_that_is_not_an_object_is_a_400(api, org):
    response = api(org.manager).post("/api/v1/sessions/", [1, 2], format="json")
    assert response.status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("start", "message"),
    [
        ("next tuesday", "Datetime has wrong format"),
        ("2026-02-30T09:00:00Z", "Datetime has wrong format"),
        ("2030-01-01T09:00", "with a time zone"),
        ("2000-01-01T09:00:00Z", "more than 60 days ago"),
        ("2099-01-01T09:00:00Z", "more than a year ahead"),
    ],
)
def test_a_malformed_or_implausible_start_is_refused(api, org, start, message):
    response = plan(api, org.manager, kind="one_on_one", coachee=org.rep.pk, scheduled_start=start)
    assert response.status_code == 400
    assert message in messages(response.json()["scheduled_start"])
    assert not CoachingSession.objects.exists()


@pytest.mark.django_db
def test_a_role_play_needs_a_focus_area(api, org):
    response = plan(
        api,
        org.manager,
        kind="role_play",
        participants=[org.rep.pk, org.peer.pk],
        scenario="Price objection from a CFO",
        scheduled_start=in_days(2).isoformat(),
    )
    assert response.status_code == 400
    assert response.json() == {"focus_area": ["A role-play practises one focus area: pick one."]}
    assert not CoachingSession.objects.exists()


@pytest.mark.django_db
def test_a_role_play_with_a_focus_area_and_a_scenario_is_planned(api, org):
    focus = FocusAreaFactory()
    response = plan(
        api,
        org.manager,
        kind="role_play",
        participants=[org.rep.pk, org.peer.pk],
        focus_area=focus.pk,
        scenario="Price objection from a CFO",
        scheduled_start=in_days(2).isoformat(),
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["scenario"] == "Price objection from a CFO"
    assert body["focus_area"]["id"] == focus.pk
    assert {p["role"] for p in body["participants"]} == {"coach", "participant"}


@pytest.mark.django_db
def test_a_role_play_with_an_ended_focus_area_or_an_unknown_person_is_refused(api, org):
    ended = FocusAreaFactory(
        starts_on=timezone.localdate() - timedelta(days=90),
        ends_on=timezone.localdate() - timedelta(days=1),
    )
    response = plan(
        api,
        org.manager,
        kind="role_play",
        participants=[org.rep.pk, 424242],
        focus_area=ended.pk,
        scenario="Price objection",
        scheduled_start=in_days(2).isoformat(),
    )
    assert response.status_code == 400
    assert response.json() == {
        "participants": ["No active person with id 424242."],
        "focus_area": [f"No current focus area with id {ended.pk}."],
    }


@pytest.mark.django_db
def test_a_role_play_scenario_over_the_text_limit_is_refused(api, org):
    response = plan(
        api,
        org.manager,
        kind="role_play",
        participants=[org.rep.pk],
        focus_area=FocusAreaFactory().pk,
        scenario="x" * 10_001,
        scheduled_start=in_days(2).isoformat(),
    )
    assert response.status_code == 400
    assert "scenario" in response.json()
    assert not CoachingSession.objects.exists()


@pytest.fixture
def team(org):
    team = team_create(name="Enterprise East", lead=org.manager)
    team_member_add(team=team, person=org.rep)
    team_member_add(team=team, person=org.peer)
    return team


def call_review(team, presenter, **extra):
    return dict(
        kind="team_call_review",
        team=team.pk,
        presenter=presenter.pk,
        call_url="https://calls.example.com/recordings/9",
        call_title="Discovery with Northwind",
        call_date=(timezone.localdate() - timedelta(days=1)).isoformat(),
        scheduled_start=in_days(2).isoformat(),
        **extra,
    )


@pytest.mark.django_db
def test_a_team_lead_plans_a_call_review_where_peers_speak_before_the_manager(api, org, team):
    response = api(org.manager).post("/api/v1/sessions/", call_review(team, org.rep), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["team"] == {"id": team.pk, "name": "Enterprise East"}
    assert body["presented_call"]["title"] == "Discovery with Northwind"
    assert [(p["person"]["id"], p["role"]) for p in body["participants"]] == [
        (org.rep.pk, "presenter"),
        (org.peer.pk, "host"),
        (org.manager.pk, "manager"),
    ]
    assert body["viewer_role"] == "manager" and body["can_run"] is True


@pytest.mark.django_db
def test_the_lead_s_manager_may_plan_it_too(api, org, team):
    body = call_review(team, org.peer, host=org.rep.pk)
    response = api(org.head).post("/api/v1/sessions/", body, format="json")
    assert response.status_code == 201, response.json()


@pytest.mark.django_db
def test_the_rotating_host_is_never_the_presenter(api, org, team):
    # Pavel is first in name order, so the rotation picks him — while he presents.
    response = api(org.manager).post(
        "/api/v1/sessions/", call_review(team, org.peer), format="json"
    )
    assert response.status_code == 201, response.json()


@pytest.mark.django_db
def test_a_call_review_for_a_team_you_do_not_lead_is_a_400(api, org, team):
    expected = {"team": ["Pick a team that you, or someone who reports to you, leads."]}
    response = api(org.other_manager).post(
        "/api/v1/sessions/", call_review(team, org.rep), format="json"
    )
    assert response.status_code == 400
    assert response.json() == expected
    # an unknown team reads the same, so team ids cannot be probed
    body = call_review(team, org.rep) | {"team": 987_654}
    response = api(org.other_manager).post("/api/v1/sessions/", body, format="json")
    assert response.status_code == 400
    assert response.json() == expected
    assert not CoachingSession.objects.exists()


@pytest.mark.django_db
def test_a_call_review_presenter_must_be_on_the_team(api, org, team):
    response = api(org.manager).post(
        "/api/v1/sessions/", call_review(team, org.other_rep), format="json"
    )
    assert response.status_code == 400
    assert "is not on Enterprise East" in messages(response.json())
    assert not CoachingSession.objects.exists()


@pytest.mark.django_db
def test_a_manager_of_managers_plans_a_manager_review(api, org):
    response = plan(
        api,
        org.head,
        kind="manager_review",
        manager=org.manager.pk,
        scheduled_start=in_days(4).isoformat(),
        duration_minutes=45,
    )
    assert response.status_code == 201, response.json()
    assert response.json()["kind"] == SessionKind.MANAGER_REVIEW
    assert api(org.rep).get(f"/api/v1/sessions/{response.json()['id']}/").status_code == 404


@pytest.mark.django_db
def test_a_manager_review_of_someone_with_no_reports_is_refused(api, org):
    response = plan(
        api,
        org.manager,
        kind="manager_review",
        manager=org.rep.pk,
        scheduled_start=in_days(4).isoformat(),
    )
    assert response.status_code == 400
    assert "nobody reporting to them" in messages(response.json())


@pytest.mark.django_db
def test_anyone_plans_peer_coaching_with_a_colleague(api, org):
    response = plan(
        api, org.rep, kind="peer", peer=org.other_rep.pk, scheduled_start=in_days(1).isoformat()
    )
    assert response.status_code == 201, response.json()
    assert response.json()["can_run"] is True
    assert api(org.other_rep).get(f"/api/v1/sessions/{response.json()['id']}/").status_code == 200


@pytest.mark.django_db
def test_a_duration_out_of_range_is_refused(api, org):
    response = plan(
        api,
        org.manager,
        kind="one_on_one",
        coachee=org.rep.pk,
        scheduled_start=in_days(1).isoformat(),
        duration_minutes=600,
    )
    assert response.status_code == 400
    assert "duration_minutes" in response.json()


# --- Held, cancel, reschedule --------------------------------------------------------


@pytest.mark.django_db
def test_the_coach_logs_a_session_held(api, org):
    session = one_on_one(org.manager, org.rep, start=in_days(-1))
    response = api(org.manager).post(f"/api/v1/sessions/{session.pk}/held/", {}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "held"
    assert body["held_at"] is not None
    assert body["held_but_empty"] is True  # nothing written, nothing committed


@pytest.mark.django_db
def test_logging_held_at_a_given_time_and_twice(api, org):
    session = one_on_one(org.manager, org.rep, start=in_days(-1))
    held_at = in_days(-1, hour=10)
    client = api(org.manager)
    response = client.post(
        f"/api/v1/sessions/{session.pk}/held/", {"held_at": held_at.isoformat()}, format="json"
    )
    assert response.status_code == 200
    assert datetime.fromisoformat(response.json()["held_at"]) == held_at
    again = client.post(f"/api/v1/sessions/{session.pk}/held/", {}, format="json")
    assert again.status_code == 400
    assert "already held" in messages(again.json())


@pytest.mark.django_db
def test_a_session_cannot_be_logged_held_in_the_future(api, org):
    session = one_on_one(org.manager, org.rep, start=in_days(-1))
    response = api(org.manager).post(
        f"/api/v1/sessions/{session.pk}/held/",
        {"held_at": in_days(2).isoformat()},
        format="json",
    )
    assert response.status_code == 400
    assert "in the future" in messages(response.json())


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "head"])
def test_people_who_see_but_do_not_run_a_session_get_403_on_its_actions(api, org, who):
    session = one_on_one(org.manager, org.rep)
    client = api(getattr(org, who))
    held = client.post(f"/api/v1/sessions/{session.pk}/held/", {}, format="json")
    assert held.status_code == 403
    assert held.json() == {"detail": "Only the person running this session can log it."}
    cancel = client.post(
        f"/api/v1/sessions/{session.pk}/cancel/", {"reason": "sick"}, format="json"
    )
    assert cancel.status_code == 403
    move = client.post(
        f"/api/v1/sessions/{session.pk}/reschedule/",
        {"scheduled_start": in_days(3).isoformat()},
        format="json",
    )
    assert move.status_code == 403
    session.refresh_from_db()
    assert session.status == "scheduled"


@pytest.mark.django_db
@pytest.mark.parametrize("who", DOES_NOT_SEE)
def test_people_who_do_not_see_a_session_get_404_on_its_actions(api, org, who):
    session = one_on_one(org.manager, org.rep)
    client = api(getattr(org, who))
    for name, body in (
        ("held", {}),
        ("cancel", {"reason": "sick"}),
        ("reschedule", {"scheduled_start": in_days(3).isoformat()}),
    ):
        response = client.post(f"/api/v1/sessions/{session.pk}/{name}/", body, format="json")
        assert response.status_code == 404, name


@pytest.mark.django_db
def test_the_coach_cancels_with_a_reason(api, org):
    session = one_on_one(org.manager, org.rep)
    response = api(org.manager).post(
        f"/api/v1/sessions/{session.pk}/cancel/",
        {"reason": "customer_escalation", "note": "Acme outage"},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["cancel_reason"], body["cancel_note"]) == (
        "cancelled",
        "customer_escalation",
        "Acme outage",
    )
    assert body["can_edit"] is False


@pytest.mark.django_db
def test_cancelling_needs_a_known_reason_and_a_note_for_other(api, org):
    session = one_on_one(org.manager, org.rep)
    client = api(org.manager)
    unknown = client.post(
        f"/api/v1/sessions/{session.pk}/cancel/", {"reason": "bored"}, format="json"
    )
    assert unknown.status_code == 400
    assert "reason" in unknown.json()
    other = client.post(
        f"/api/v1/sessions/{session.pk}/cancel/", {"reason": "other"}, format="json"
    )
    assert other.status_code == 400
    assert "note" in other.json()
    session.refresh_from_db()
    assert session.status == "scheduled"


@pytest.mark.django_db
def test_the_coach_moves_a_session_and_the_original_slot_is_kept(api, org):
    start = in_days(1)
    session = one_on_one(org.manager, org.rep, start=start)
    response = api(org.manager).post(
        f"/api/v1/sessions/{session.pk}/reschedule/",
        {"scheduled_start": in_days(3).isoformat(), "duration_minutes": 45},
        format="json",
    )
    assert response.status_code == 200, response.json()
    session.refresh_from_db()
    assert session.scheduled_start == in_days(3)
    assert session.original_start == start
    assert session.duration_minutes == 45


@pytest.mark.django_db
def test_moving_a_session_years_ahead_or_without_a_time_zone_is_refused(api, org):
    session = one_on_one(org.manager, org.rep)
    client = api(org.manager)
    for start in ("2099-01-01T09:00:00Z", "2030-01-01T09:00:00"):
        response = client.post(
            f"/api/v1/sessions/{session.pk}/reschedule/",
            {"scheduled_start": start},
            format="json",
        )
        assert response.status_code == 400
        assert "scheduled_start" in response.json()


@pytest.mark.django_db
def test_a_cancelled_session_cannot_be_moved(api, org):
    session = one_on_one(org.manager, org.rep)
    client = api(org.manager)
    client.post(f"/api/v1/sessions/{session.pk}/cancel/", {"reason": "travel"}, format="json")
    response = client.post(
        f"/api/v1/sessions/{session.pk}/reschedule/",
        {"scheduled_start": in_days(3).isoformat()},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == ["Only a scheduled session can be moved."]


@pytest.mark.django_db
def test_new_sessions_of_a_new_person_work_end_to_end(api, org):
    """A person added today is pickable at once (the field reads active people live)."""
    newcomer = UserFactory(display_name="Nina New", manager=org.manager)
    response = plan(
        api,
        org.manager,
        kind="one_on_one",
        coachee=newcomer.pk,
        scheduled_start=in_days(1).isoformat(),
    )
    assert response.status_code == 201


@pytest.mark.django_db
def test_a_session_that_has_not_started_cannot_be_logged_held(api, org):
    session = one_on_one(org.manager, org.rep, start=in_days(5))
    client = api(org.manager)
    for body in ({}, {"held_at": in_days(-1).isoformat()}):
        response = client.post(f"/api/v1/sessions/{session.pk}/held/", body, format="json")
        assert response.status_code == 400
        assert "has not started yet" in messages(response.json())
    session.refresh_from_db()
    assert session.status == "scheduled" and session.held_at is None
