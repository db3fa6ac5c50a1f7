"""Asking for a peer (peers/services_requests.py, `/peers/ask/`, the API's
`peer-request/`): anyone may ask, say what they would like to work on, change it or
withdraw it; whoever may put them in a pair — their team's lead, the managers above
them, programme admins — sees who asked on Form a pair, in the people list and in the
candidates API, and nobody else does; a pair of theirs starting answers it. Bad input
is a 400 with the reason and nothing saved."""

from datetime import timedelta
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from peers.models import PeerRequest
from peers.services import pair_accept
from peers.services_requests import peer_request_set
from people.erasure import person_erase
from people.privacy import personal_data_export
from tests.support.factories import FocusAreaFactory, UserFactory
from tests.support.peers_pairs import form_pair

pytestmark = pytest.mark.django_db
NOTE = "ZQASKED pricing pushback, with someone who handles it well"


def text(response) -> str:
    return unescape(response.content.decode())


def test_a_rep_asks_for_a_peer_changes_it_and_withdraws(client, org):
    focus = FocusAreaFactory(name="Pricing")
    client.force_login(org.rep)
    assert "Would you like a peer to coach with?" in text(client.get("/peers/"))
    asked = client.post("/peers/ask/", {"note": NOTE, "focus_area": focus.pk}, follow=True)
    assert asked.redirect_chain == [("/peers/", 302)]
    page = text(asked)
    assert "You asked for a peer. Whoever forms pairs" in page  # the message
    assert '<h2 id="ask-heading">You asked for a peer</h2>' in page
    assert f"on Pricing: “{NOTE}”" in page
    first = PeerRequest.objects.get(person=org.rep)
    saved = client.post("/peers/ask/", {"note": "Discovery instead"}, follow=True)
    assert "Saved: whoever forms pairs for your team sees what you asked." in text(saved)
    changed = PeerRequest.objects.get(person=org.rep)
    assert (changed.note, changed.focus_area, changed.created_at) == (
        "Discovery instead", None, first.created_at,
    )  # fmt: skip
    withdrawn = client.post("/peers/ask/withdraw/", follow=True)
    assert "You are no longer asking for a peer." in text(withdrawn)
    assert not PeerRequest.objects.exists()
    again = client.post("/peers/ask/withdraw/", follow=True)  # nothing to withdraw: no fuss
    assert again.status_code == 200 and "no longer asking" not in text(again)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"note": "x" * 301}, "Ensure this value has at most 300 characters (it has 301)."),
        ({"focus_area": "999999"}, "Pick a current focus area from the list."),
        ({"focus_area": "abc"}, "Pick a current focus area from the list."),
        ({"focus_area": "ended"}, "Pick a current focus area from the list."),
    ],
)
def test_bad_input_is_a_400_with_the_reason_and_nothing_saved(client, org, data, message):
    if data.get("focus_area") == "ended":
        today = timezone.localdate()
        ended = FocusAreaFactory(starts_on=today - timedelta(days=90), ends_on=today - timedelta(1))
        data = {"focus_area": ended.pk}
    client.force_login(org.rep)
    response = client.post("/peers/ask/", data)
    assert response.status_code == 400
    assert message in text(response)
    assert not PeerRequest.objects.exists()


def test_the_service_refuses_a_long_note_and_an_ended_focus_area(org):
    today = timezone.localdate()
    ended = FocusAreaFactory(starts_on=today - timedelta(days=90), ends_on=today - timedelta(1))
    with pytest.raises(Exception, match="Keep it to 300 characters"):
        peer_request_set(person=org.rep, note="x" * 301)
    with pytest.raises(Exception, match="Pick a current focus area"):
        peer_request_set(person=org.rep, focus_area=ended)
    assert not PeerRequest.objects.exists()


@pytest.mark.parametrize(
    ("who", "sees"),
    [
        ("rep", True),
        ("manager", True),
        ("head", True),
        ("admin", True),
        ("peer", False),
        ("other_manager", False),
        ("other_rep", False),
        ("hr", False),
    ],
)
def test_only_whoever_may_pair_them_sees_a_request(org, who, sees):
    peer_request_set(person=org.rep, note=NOTE)
    assert PeerRequest.objects.visible_to(getattr(org, who)).exists() is sees


def test_leads_see_who_asked_on_form_a_pair_and_peers(client, org):
    peer_request_set(person=org.rep, note=NOTE)
    client.force_login(org.manager)
    peers = text(client.get("/peers/"))
    assert "1 person you may pair asked for a peer." in peers
    new = text(client.get("/peers/new/"))
    assert "Rita Rep" in new and NOTE in new
    assert "Rita Rep · asked for a peer" in new  # in the list of people
    client.force_login(org.other_manager)
    assert NOTE not in text(client.get("/peers/new/"))
    assert "asked for a peer." not in text(client.get("/peers/"))


def test_a_pair_starting_answers_its_members_requests(org):
    for person in (org.rep, org.peer, org.other_rep):
        peer_request_set(person=person)
    pair = form_pair(org.head, org.rep, org.peer)
    pair_accept(pair=pair, actor=org.rep)
    assert PeerRequest.objects.count() == 3  # forming: still asking
    pair_accept(pair=pair, actor=org.peer)
    assert list(PeerRequest.objects.values_list("person", flat=True)) == [org.other_rep.pk]


def test_the_api_reads_sets_and_withdraws_ones_own_request(org):
    focus = FocusAreaFactory(name="Pricing")
    api = APIClient()
    api.force_login(org.rep)
    assert api.get("/api/v1/peer-request/").status_code == 404
    put = api.put("/api/v1/peer-request/", {"note": NOTE, "focus_area": focus.pk}, format="json")
    assert put.status_code == 200
    assert put.json()["note"] == NOTE
    assert put.json()["focus_area"] == {"id": focus.pk, "name": "Pricing"}
    for bad, field in (
        ({"note": "x" * 301}, "note"),
        ({"colour": "red"}, "colour"),
        ({"focus_area": "abc"}, "focus_area"),
        ({"note": None}, "note"),
    ):
        refused = api.put("/api/v1/peer-request/", bad, format="json")
        assert refused.status_code == 400 and set(refused.json()) == {field}
    assert PeerRequest.objects.get().note == NOTE
    assert api.get("/api/v1/peer-request/").json()["note"] == NOTE
    assert api.delete("/api/v1/peer-request/").status_code == 204
    assert api.delete("/api/v1/peer-request/").status_code == 404


def test_the_candidates_say_who_asked(org):
    peer_request_set(person=org.rep, note=NOTE)
    api = APIClient()
    api.force_login(org.manager)
    rows = {
        r["person"]["id"]: r for r in api.get("/api/v1/peer-pairs/candidates/").json()["results"]
    }
    assert (rows[org.rep.pk]["asked_for_peer"], rows[org.rep.pk]["peer_request_note"]) == (
        True, NOTE,
    )  # fmt: skip
    assert (rows[org.peer.pk]["asked_for_peer"], rows[org.peer.pk]["peer_request_note"]) == (
        False, None,
    )  # fmt: skip


def test_it_is_in_the_persons_data_and_goes_with_erasure(org):
    peer_request_set(person=org.rep, note=NOTE)
    assert personal_data_export(person=org.rep)["peer_request"]["note"] == NOTE
    org.rep.is_active = False
    org.rep.save(update_fields=["is_active"])
    person_erase(actor=org.admin, person=org.rep, dry_run=False)
    assert not PeerRequest.objects.exists()


def _queries(client, path) -> int:
    client.get(path)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


@pytest.mark.parametrize("path", ["/peers/new/", "/peers/"])
def test_the_pages_cost_the_same_however_many_asked(client, org, path):
    peer_request_set(person=org.rep, note=NOTE)
    client.force_login(org.manager)
    few = _queries(client, path)
    for n in range(25):
        peer_request_set(person=UserFactory(manager=org.manager), note=f"Note {n}")
    assert _queries(client, path) == few
