"""Pair privacy: a pair is seen by its members and whoever formed it — the members'
managers, the skip-level, HR, other peers and programme admins who did not form it
get 404 on every page and endpoint, and change nothing. The pair's notes, habits and
check-ins are read by its members only: not by whoever formed it, and never by a
programme admin, whose overview shows every pair and the reasons people gave for
leaving but none of the pair's words. The reason is shown to nobody else."""

from html import unescape

import pytest
from rest_framework.test import APIClient

from peers.models import Habit, HabitCheckIn, PairMember, PairNote, PeerPair
from peers.services import habit_add, habit_check_in, pair_leave
from tests.support.peers_pairs import SECRET, active_pair, form_pair, with_notes

pytestmark = pytest.mark.django_db

MARK = "ZQPAIRSECRET"
REASON = "ZQLEAVEREASON my manager keeps asking"


@pytest.fixture
def pair(org):
    """Formed by the programme admin: Rita (Mia's report) and Olga (Omar's report),
    with notes, a habit each and a check-in, all carrying the secret mark."""
    pair = active_pair(org.admin, org.rep, org.other_rep, rationale="similar")
    with_notes(pair, org.rep, org.other_rep)
    habit = habit_add(pair=pair, actor=org.rep, text=f"{MARK} habit: pause after price")
    habit_add(pair=pair, actor=org.other_rep, text=f"{MARK} habit: two questions")
    habit_check_in(habit=habit, actor=org.other_rep, outcome="kept", note=f"{MARK} check-in")
    return pair


def page_paths(pair):
    habit = Habit.objects.filter(pair=pair).first()
    gets = [f"/peers/{pair.pk}/"]
    posts = {
        f"/peers/{pair.pk}/accept/": {},
        f"/peers/{pair.pk}/decline/": {"reason": "x"},
        f"/peers/{pair.pk}/leave/": {"reason": "x"},
        f"/peers/{pair.pk}/agreement/": {"agreement_text": "Mine now"},
        f"/peers/{pair.pk}/notes/": {"text": "Mine now"},
        f"/peers/{pair.pk}/habits/": {"text": "Mine now"},
        f"/peers/habits/{habit.pk}/retire/": {},
        f"/peers/habits/{habit.pk}/check-in/": {"outcome": "kept"},
    }
    return gets, posts


def api_paths(pair):
    habit = Habit.objects.filter(pair=pair).first()
    base = f"/api/v1/peer-pairs/{pair.pk}/"
    gets = [base, f"{base}notes/", f"{base}habits/"]
    gets += [f"/api/v1/pair-habits/{habit.pk}/", f"/api/v1/pair-habits/{habit.pk}/check-ins/"]
    posts = {
        f"{base}accept/": {},
        f"{base}decline/": {},
        f"{base}leave/": {},
        f"{base}notes/": {"text": "Mine now"},
        f"{base}habits/": {"text": "Mine now"},
        f"/api/v1/pair-habits/{habit.pk}/retire/": {},
        f"/api/v1/pair-habits/{habit.pk}/check-ins/": {"outcome": "kept"},
    }
    return gets, posts


def snapshot():
    return (
        list(PeerPair.objects.values_list("pk", "agreement_text", "started_at", "ended_at")),
        list(PairMember.objects.values_list("pk", "accepted_at", "left_at")),
        PairNote.objects.count(),
        list(Habit.objects.values_list("pk", "retired_at")),
        HabitCheckIn.objects.count(),
    )


@pytest.mark.parametrize("who", ["rep", "other_rep", "admin"])
def test_the_members_and_whoever_formed_it_see_the_pair(client, org, pair, who):
    client.force_login(getattr(org, who))
    page = client.get(f"/peers/{pair.pk}/")
    assert page.status_code == 200 and "Rita Rep" in page.content.decode()
    api = APIClient()
    api.force_login(getattr(org, who))
    assert [p["id"] for p in api.get("/api/v1/peer-pairs/").json()["results"]] == [pair.pk]
    assert api.get(f"/api/v1/peer-pairs/{pair.pk}/").status_code == 200


@pytest.mark.parametrize("who", ["manager", "other_manager", "head", "hr", "peer"])
def test_managers_the_skip_level_hr_and_other_peers_get_404_and_change_nothing(
    client, org, pair, who
):
    before = snapshot()
    client.force_login(getattr(org, who))
    gets, posts = page_paths(pair)
    for path in gets:
        assert client.get(path).status_code == 404, path
    for path, data in posts.items():
        assert client.post(path, data).status_code == 404, path
    assert client.post(f"/peers/{pair.pk}/end/").status_code == 404
    page = client.get("/peers/").content.decode()
    assert f"/peers/{pair.pk}/" not in page and MARK not in page
    api = APIClient()
    api.force_login(getattr(org, who))
    gets, posts = api_paths(pair)
    for path in gets:
        assert api.get(path).status_code == 404, path
    for path, data in posts.items():
        assert api.post(path, data, format="json").status_code == 404, path
    patch = api.patch(f"/api/v1/peer-pairs/{pair.pk}/", {"agreement_text": "x"}, format="json")
    assert patch.status_code == 404
    assert api.post(f"/api/v1/peer-pairs/{pair.pk}/end/").status_code == 404
    assert api.get("/api/v1/peer-pairs/").json()["results"] == []
    assert api.get("/api/v1/pair-habits/").json()["results"] == []
    assert api.get("/api/v1/peer-pairs/overview/").status_code == 404
    assert client.get("/peers/overview/").status_code == 404
    assert snapshot() == before


def test_a_manager_who_formed_a_pair_sees_it_but_not_what_its_members_write(client, org):
    pair = active_pair(org.manager, org.rep, org.peer)
    with_notes(pair, org.rep, org.peer)
    habit_add(pair=pair, actor=org.rep, text=f"{MARK} habit")
    client.force_login(org.manager)
    page = client.get(f"/peers/{pair.pk}/").content.decode()
    assert "Pavel Peer" in page and "private to its members" in page and MARK not in page
    api = APIClient()
    api.force_login(org.manager)
    base = f"/api/v1/peer-pairs/{pair.pk}/"
    for path in (base, f"{base}notes/", f"{base}habits/", "/api/v1/peer-pairs/"):
        response = api.get(path)
        assert response.status_code == 200 and MARK not in response.content.decode(), path
    for who in ("head", "admin", "hr", "other_manager"):
        client.force_login(getattr(org, who))
        assert client.get(f"/peers/{pair.pk}/").status_code == 404, who


def test_anonymous_visitors_are_sent_to_sign_in_and_the_api_answers_401(client, pair):
    for path in ("/peers/", "/peers/new/", "/peers/overview/", f"/peers/{pair.pk}/"):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(f"/peers/{pair.pk}/notes/", {"text": "x"}).status_code == 302
    api = APIClient()
    for path in ("/api/v1/peer-pairs/", f"/api/v1/peer-pairs/{pair.pk}/", "/api/v1/pair-habits/"):
        assert api.get(path).status_code == 401, path
    assert PairNote.objects.count() == 2


def test_members_read_the_notes_habits_and_check_ins(client, org, pair):
    client.force_login(org.other_rep)
    page = client.get(f"/peers/{pair.pk}/").content.decode()
    assert SECRET.split(" ")[0] in page and "pause after price" in page and "check-in" in page


def test_an_admin_sees_every_pair_in_the_overview_and_never_a_word_the_pair_wrote(
    client, org, pair
):
    manager_pair = active_pair(org.manager, org.rep, org.peer)
    with_notes(manager_pair, org.peer)
    client.force_login(org.admin)
    overview = client.get("/peers/overview/")
    assert overview.status_code == 200
    text = overview.content.decode()
    assert f"#{pair.pk}" in text and f"#{manager_pair.pk}" in text
    assert "Pavel Peer" in text and "active" in text
    api = APIClient()
    api.force_login(org.admin)
    pages = [
        "/peers/",
        "/peers/overview/",
        f"/peers/{pair.pk}/",  # formed it: sees it, not its words
        f"/peers/{manager_pair.pk}/",  # 404
        "/peers/new/",
        "/admin/peers/peerpair/",
        f"/admin/peers/peerpair/{pair.pk}/change/",
        f"/admin/peers/peerpair/{manager_pair.pk}/change/",
        "/admin/peers/agreementtemplate/",
    ]
    endpoints = [
        "/api/v1/peer-pairs/",
        "/api/v1/peer-pairs/overview/",
        f"/api/v1/peer-pairs/{pair.pk}/",
        f"/api/v1/peer-pairs/{pair.pk}/notes/",
        f"/api/v1/peer-pairs/{pair.pk}/habits/",
        f"/api/v1/peer-pairs/{manager_pair.pk}/notes/",
        "/api/v1/peer-pairs/candidates/",
        "/api/v1/pair-habits/",
    ]
    statuses = {}
    for path in pages:
        response = client.get(path)
        statuses[path] = response.status_code
        assert MARK not in response.content.decode(), path
    for path in endpoints:
        response = api.get(path)
        statuses[path] = response.status_code
        assert MARK not in response.content.decode(), path
    assert statuses["/admin/peers/peerpair/"] == 200
    assert statuses[f"/admin/peers/peerpair/{pair.pk}/change/"] == 200
    assert statuses[f"/peers/{pair.pk}/"] == 200 and statuses[f"/peers/{manager_pair.pk}/"] == 404
    assert statuses["/api/v1/peer-pairs/overview/"] == 200
    assert "PairNote" not in str(client.get("/admin/").content)  # notes not registered


def test_the_leave_reason_is_shown_to_programme_admins_only(client, org):
    third_pair = active_pair(org.manager, org.rep, org.peer)
    pair_leave(pair=third_pair, actor=org.peer, reason=REASON)
    client.force_login(org.admin)
    assert REASON in unescape(client.get("/peers/overview/").content.decode())
    api = APIClient()
    api.force_login(org.admin)
    assert REASON in api.get("/api/v1/peer-pairs/overview/").content.decode()
    for who in ("rep", "peer", "manager"):  # the partner, the leaver, whoever formed it
        client.force_login(getattr(org, who))
        for path in ("/peers/", f"/peers/{third_pair.pk}/"):
            page = unescape(client.get(path).content.decode())
            assert "ZQLEAVEREASON" not in page, (who, path)
        api.force_login(getattr(org, who))
        for path in ("/api/v1/peer-pairs/", f"/api/v1/peer-pairs/{third_pair.pk}/"):
            assert "ZQLEAVEREASON" not in api.get(path).content.decode(), (who, path)
    assert "left" in unescape(client.get(f"/peers/{third_pair.pk}/").content.decode())


def test_the_admin_site_shows_the_agreement_template_one_row_editable(client, org):
    from peers.models import AgreementTemplate

    client.force_login(org.admin)
    row = AgreementTemplate.objects.get()
    assert client.get("/admin/peers/agreementtemplate/add/").status_code == 403
    response = client.post(
        f"/admin/peers/agreementtemplate/{row.pk}/change/", {"text": "Candour, kindly."}
    )
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.text == "Candour, kindly."
    assert form_pair(org.manager, org.rep, org.peer).agreement_text == "Candour, kindly."
    assert (
        client.post(f"/admin/peers/peerpair/{PeerPair.objects.get().pk}/change/").status_code == 403
    )


def test_what_pairs_write_is_not_registered_in_the_admin():
    from django.contrib import admin

    registered = {m._meta.label for m in admin.site._registry}
    assert {"peers.AgreementTemplate", "peers.PeerPair"} <= registered
    for private in ("peers.PairNote", "peers.Habit", "peers.HabitCheckIn"):
        assert private not in registered
