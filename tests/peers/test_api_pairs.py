"""Peer pairs through the API: forming (programme admins, leads for their people),
accepting, declining, leaving, ending; the pair's notes and habits; partners'
check-ins; the candidates with their focus-area averages; the admins' overview.
Bad input is a 400 naming the reason, nothing saved; lists cost the same queries
whatever their length."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from peers.models import Habit, HabitCheckIn, PairNote, PeerPair
from peers.services import habit_add, habit_check_in, pair_decline
from people.models import User
from tests.support.factories import FocusAreaFactory, UserFactory
from tests.support.peers_pairs import active_pair, form_pair, with_notes

pytestmark = pytest.mark.django_db
URL = "/api/v1/peer-pairs/"
HABITS = "/api/v1/pair-habits/"


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return signed_in


def body(people, **extra):
    return {
        "members": [p.pk for p in people],
        "rationale": "similar",
        "weekday": 3,
        "local_time": "09:30",
        **extra,
    }


def test_a_lead_forms_a_pair_and_members_accept_it(api, org):
    focus = FocusAreaFactory(name="Discovery")
    made = api(org.manager).post(URL, body([org.rep, org.peer], focus_area=focus.pk), format="json")
    assert made.status_code == 201, made.json()
    data = made.json()
    assert data["status"] == "forming" and data["duration_minutes"] == 30
    assert data["interval_weeks"] == 2 and data["time_zone"] == "Europe/Berlin"
    assert data["cadence"] == "Every 2 weeks on Thursday at 09:30 (Europe/Berlin), 30 minutes"
    assert [m["state"] for m in data["members"]] == ["invited", "invited"]
    assert "Confidentiality" in data["agreement_text"]
    pk = data["id"]
    assert api(org.rep).post(f"{URL}{pk}/accept/").json()["status"] == "forming"
    twice = api(org.rep).post(f"{URL}{pk}/accept/")
    assert twice.status_code == 400 and "You already accepted" in str(twice.json())
    started = api(org.peer).post(f"{URL}{pk}/accept/").json()
    assert started["status"] == "active" and started["started_at"]
    assert "left_reason" not in str(started)


@pytest.mark.parametrize(
    ("case", "field", "message"),
    [
        ("one", "members", "pick two or three"),
        ("four", "members", "pick two or three"),
        ("twice", "members", "Pick each person once."),
        ("deactivated", "members", "no longer has an active account"),
        ("not_below", "members", "not Olga Outsider"),
        ("unknown", "members", "not id 999999"),
        ("interval_0", "interval_weeks", "Meet every 1 to 4 weeks."),
        ("interval_5", "interval_weeks", "Meet every 1 to 4 weeks."),
        ("weekday", "weekday", "Pick a day of the week."),
        ("time_zone", "time_zone", "Pick a time zone"),
        ("rationale", "rationale", "is not a valid choice"),
        ("focus", "focus_area", "Pick a current focus area"),
        ("unknown_field", "colour", "Unknown field."),
    ],
)
def test_bad_input_is_a_400_with_the_reason_and_nothing_saved(api, org, case, field, message):
    extra = [UserFactory(manager=org.manager), UserFactory(manager=org.manager)]
    extra[0].is_active = False
    extra[0].save(update_fields=["is_active"])
    pair = [org.rep, org.peer]
    data = {
        "one": body([org.rep]),
        "four": body([org.rep, org.peer, *extra]),
        "twice": body([org.rep, org.rep]),
        "deactivated": body([org.rep, extra[0]]),
        "not_below": body([org.rep, org.other_rep]),
        "unknown": body([org.rep], members=[org.rep.pk, 999999]),
        "interval_0": body(pair, interval_weeks=0),
        "interval_5": body(pair, interval_weeks=5),
        "weekday": body(pair, weekday=9),
        "time_zone": body(pair, time_zone="Nowhere/Land"),
        "rationale": body(pair, rationale="random"),
        "focus": body(pair, focus_area=999999),
        "unknown_field": body(pair, colour="red"),
    }[case]
    response = api(org.manager).post(URL, data, format="json")
    assert response.status_code == 400
    assert field in response.json() and message in str(response.json()[field])
    assert not PeerPair.objects.exists()


def test_people_who_do_not_form_pairs_are_refused(api, org):
    response = api(org.rep).post(URL, body([org.rep, org.peer]), format="json")
    assert response.status_code == 403 and "on a team you lead" in response.json()["detail"]
    assert api(org.rep).get(f"{URL}candidates/").status_code == 404
    assert not PeerPair.objects.exists()


def test_declining_and_leaving_take_an_optional_reason_nobody_else_reads(api, org):
    third = UserFactory(manager=org.manager)
    trio = active_pair(org.manager, org.rep, org.peer, third)
    left = api(third).post(f"{URL}{trio.pk}/leave/", {"reason": "ZQWHY busy"}, format="json")
    assert left.status_code == 200 and "ZQWHY" not in str(left.json())
    assert left.json()["status"] == "active"
    for who in (org.rep, org.peer, org.manager, third):
        assert "ZQWHY" not in str(api(who).get(f"{URL}{trio.pk}/").json())
    pair = form_pair(org.admin, org.other_rep, org.hr)
    declined = api(org.hr).post(f"{URL}{pair.pk}/decline/", {}, format="json")
    assert declined.json()["status"] == "ended"
    assert api(org.hr).post(f"{URL}{pair.pk}/leave/").status_code == 400
    overview = api(org.admin).get(f"{URL}overview/").json()["results"]
    reasons = {m["left_reason"] for p in overview for m in p["members"]}
    assert "ZQWHY busy" in reasons


def test_notes_and_habits_for_members_check_ins_by_the_partner(api, org):
    pair = active_pair(org.manager, org.rep, org.peer)
    rep, peer = api(org.rep), api(org.peer)
    note = rep.post(f"{URL}{pair.pk}/notes/", {"text": "We try the pause"}, format="json")
    assert note.status_code == 201 and note.json()["author"]["id"] == org.rep.pk
    assert [n["text"] for n in peer.get(f"{URL}{pair.pk}/notes/").json()] == ["We try the pause"]
    habit = rep.post(f"{URL}{pair.pk}/habits/", {"text": "Pause after price"}, format="json")
    assert habit.status_code == 201
    hid = habit.json()["id"]
    own = rep.post(f"{HABITS}{hid}/check-ins/", {"outcome": "kept"}, format="json")
    assert own.status_code == 403 and "Your partner checks" in own.json()["detail"]
    bad = peer.post(f"{HABITS}{hid}/check-ins/", {"outcome": "perfect"}, format="json")
    assert bad.status_code == 400 and "outcome" in bad.json()
    wrong = peer.post(
        f"{HABITS}{hid}/check-ins/", {"outcome": "kept", "session": 999999}, format="json"
    )
    assert wrong.status_code == 400 and "session" in wrong.json()
    done = peer.post(
        f"{HABITS}{hid}/check-ins/", {"outcome": "partly", "note": "1/2"}, format="json"
    )
    assert done.status_code == 201 and done.json()["outcome"] == "partly"
    listed = rep.get(f"{URL}{pair.pk}/habits/").json()
    assert listed[0]["recent_check_ins"][0]["note"] == "1/2"
    assert [c["outcome"] for c in rep.get(f"{HABITS}{hid}/check-ins/").json()] == ["partly"]
    by_the_partner = peer.post(f"{HABITS}{hid}/retire/")
    assert by_the_partner.status_code == 403
    assert by_the_partner.json() == {"detail": "Only the person who keeps a habit can retire it."}
    assert rep.post(f"{HABITS}{hid}/retire/").json()["retired_at"]
    assert HabitCheckIn.objects.count() == 1


def test_a_note_by_someone_not_in_the_pair_is_a_403(api, org):
    pair = active_pair(org.manager, org.rep, org.peer)
    response = api(org.manager).post(f"{URL}{pair.pk}/notes/", {"text": "Hi"}, format="json")
    assert response.status_code == 403
    assert response.json() == {"detail": "Only the pair's members can write its notes."}
    assert api(org.manager).get(f"{URL}{pair.pk}/notes/").json() == []
    assert api(org.manager).get(f"{URL}{pair.pk}/habits/").json() == []
    empty = api(org.rep).post(f"{URL}{pair.pk}/notes/", {"text": ""}, format="json")
    assert empty.status_code == 400 and "text" in empty.json()
    assert not PairNote.objects.exists()


def test_accepting_declining_or_leaving_by_someone_not_in_the_pair_is_a_403(api, org):
    forming = form_pair(org.manager, org.rep, org.peer)
    lead = api(org.manager)  # formed it, sees it, is not in it
    accept = lead.post(f"{URL}{forming.pk}/accept/")
    assert accept.json() == {"detail": "Only the pair's members can accept its agreement."}
    assert accept.status_code == 403
    assert lead.post(f"{URL}{forming.pk}/decline/", {}, format="json").status_code == 403
    active = active_pair(org.manager, *(UserFactory(manager=org.manager) for _ in range(2)))
    assert lead.post(f"{URL}{active.pk}/leave/", {}, format="json").status_code == 403
    habit = lead.post(f"{URL}{active.pk}/habits/", {"text": "Mine"}, format="json")
    assert habit.status_code == 403 and not Habit.objects.exists()


def test_the_agreement_is_adjusted_by_the_creator_until_someone_accepted(api, org):
    pair = form_pair(org.manager, org.rep, org.peer)
    edited = api(org.manager).patch(
        URL + f"{pair.pk}/", {"agreement_text": "Candour."}, format="json"
    )
    assert edited.status_code == 200 and edited.json()["agreement_text"] == "Candour."
    other = api(org.rep).patch(URL + f"{pair.pk}/", {"agreement_text": "Mine"}, format="json")
    assert other.status_code == 403
    assert other.json() == {"detail": "Only whoever formed the pair can edit its agreement."}
    assert api(org.manager).put(URL + f"{pair.pk}/", {}, format="json").status_code == 405


def test_ending_by_the_creator_or_an_admin(api, org):
    pair = active_pair(org.manager, org.rep, org.peer)
    by_a_member = api(org.rep).post(f"{URL}{pair.pk}/end/")
    assert by_a_member.status_code == 403 and "members leave it" in by_a_member.json()["detail"]
    assert api(org.hr).post(f"{URL}{pair.pk}/end/").status_code == 404
    assert api(org.admin).post(f"{URL}{pair.pk}/end/").status_code == 204
    pair.refresh_from_db()
    assert pair.status == "ended"
    assert api(org.manager).post(f"{URL}{pair.pk}/end/").status_code == 400


def test_candidates_show_what_the_former_may_see(api, org):
    focus = FocusAreaFactory(name="Discovery")
    body = api(org.manager).get(f"{URL}candidates/", {"focus_area": focus.pk}).json()
    rows = body["results"]
    assert body["count"] == 2
    assert {r["person"]["id"] for r in rows} == {org.rep.pk, org.peer.pk}
    assert all(r["focus_average"] is None and r["scores"] == 0 for r in rows)
    assert api(org.manager).get(f"{URL}candidates/", {"focus_area": 999999}).status_code == 400
    assert api(org.manager).get(f"{URL}candidates/", {"focus_area": "x"}).status_code == 400


def test_the_status_filter_and_its_bad_value(api, org):
    active_pair(org.manager, org.rep, org.peer)
    form_pair(org.admin, org.rep, org.other_rep)
    client = api(org.rep)
    assert [p["status"] for p in client.get(URL, {"status": "active"}).json()["results"]] == [
        "active"
    ]
    assert client.get(URL, {"status": "forming"}).json()["count"] == 1
    assert client.get(URL, {"status": "ended"}).json()["count"] == 0
    assert client.get(URL, {"status": "nope"}).status_code == 400


# --- Query counts ---------------------------------------------------------------------------------


def _queries(client, path):
    client.get(path)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


def _grow(org, n):
    for _ in range(n):
        other = UserFactory(manager=org.head)
        pair = active_pair(org.admin, org.rep, other)
        with_notes(pair, org.rep, other)
        habit = habit_add(pair=pair, actor=other, text="A habit")
        habit_check_in(habit=habit, actor=org.rep, outcome="kept")
        habit_add(pair=pair, actor=org.rep, text="Mine")
        leaving = UserFactory(manager=org.head)
        pair_decline(pair=form_pair(org.admin, other, leaving), actor=leaving, reason="No")


@pytest.mark.parametrize(
    ("who", "path"),
    [
        ("rep", URL),
        ("admin", f"{URL}overview/"),
        ("rep", HABITS),
        ("rep", "NOTES"),
        ("rep", "PAIR_HABITS"),
        ("rep", "CHECK_INS"),
        ("manager", f"{URL}candidates/"),
    ],
)
def test_lists_cost_the_same_queries_whatever_their_length(api, org, who, path):
    first = active_pair(org.manager, org.rep, org.peer)
    habit = habit_add(pair=first, actor=org.peer, text="Pause")
    paths = {
        "NOTES": f"{URL}{first.pk}/notes/",
        "PAIR_HABITS": f"{URL}{first.pk}/habits/",
        "CHECK_INS": f"{HABITS}{habit.pk}/check-ins/",
    }
    path = paths.get(path, path)
    client = api(getattr(org, who))
    _grow(org, 1)
    with_notes(first, org.rep)
    habit_check_in(habit=habit, actor=org.rep, outcome="kept")
    few = _queries(client, path)
    _grow(org, 3)
    with_notes(first, org.rep, org.peer)
    for _ in range(2):
        habit_check_in(habit=habit, actor=org.rep, outcome="partly")
    for _ in range(3):
        UserFactory(manager=org.manager)
    # session + user, then one query for the rows and one per prefetch (members;
    # recent check-ins), whatever the number of rows.
    assert _queries(client, path) == few
    assert Habit.objects.count() > 3


def test_candidates_come_a_page_at_a_time_by_name(api, org):
    """A programme admin may pair anyone: at 10,000 people one list was 1.2 MB, so the
    candidates page like every other list (50 a page, by name), and only a page's
    people have their focus averages read."""
    for n in range(55):
        UserFactory(display_name=f"Zed {n:02}", manager=org.manager)
    first = api(org.admin).get(f"{URL}candidates/").json()
    everyone = User.objects.filter(is_active=True).count()
    assert first["count"] == everyone and len(first["results"]) == 50
    names = [r["person"]["display_name"] for r in first["results"]]
    assert names == sorted(names)
    second = api(org.admin).get(first["next"]).json()
    assert len(second["results"]) == everyone - 50 and second["next"] is None
    assert api(org.admin).get(f"{URL}candidates/", {"page": 99}).status_code == 404
