"""Notifications through the API: one's own, newest first, fifty a page, each the line
the page shows (never anyone's words) in the reader's time zone; marking them read
touches one's own only; email preferences with quiet hours, checked as the page's form
checks them (a 400 naming the field, nothing saved). Same queries for three
notifications or sixty."""

from datetime import UTC, datetime, time, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from coaching.services import notes_save, private_note_save
from notifications.models import Notification, NotificationKind, NotificationPreference
from people.services_credentials import api_token_rotate
from tests.support.factories import SessionFactory, SessionParticipantFactory, one_on_one

pytestmark = pytest.mark.django_db
URL = "/api/v1/notifications/"
READ = f"{URL}read/"
PREFERENCES = "/api/v1/me/notification-preferences/"
PEOPLE = ["manager", "rep", "head", "other_manager", "peer", "other_rep", "hr", "admin"]
SECRET = "PRIVATE-MARKER-7a1d"
SHARED = "SHARED-NOTES-MARKER-3f0e"
DEFAULTS = {
    "email_upcoming": True,
    "email_missed": True,
    "email_escalation": True,
    "email_digest": True,
    "email_feedback": True,
    "email_pair_invited": True,
    "email_peer_asked": True,
    "email_session_changed": True,
    "email_invitations": True,
    "quiet_from": None,
    "quiet_until": None,
}


def api(user=None):
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _notify(kind, recipient, session=None, **kw):
    return Notification.objects.create(kind=kind, recipient=recipient, session=session, **kw)


@pytest.fixture
def session(org):
    s = one_on_one(org.manager, org.rep)
    notes_save(session=s, actor=org.manager, base_version=0, changes={"reality": SHARED})
    private_note_save(session=s, author=org.manager, text=SECRET, base_version=0)
    return s


@pytest.fixture
def inboxes(org, session):
    """An upcoming reminder each for Mia and Rita; a digest for Mia."""
    return {
        "rep": _notify(NotificationKind.UPCOMING, org.rep, session),
        "manager": _notify(NotificationKind.UPCOMING, org.manager, session),
        "digest": _notify(NotificationKind.DIGEST, org.manager, period="2026-W47"),
    }


def _read_ids():
    return set(Notification.objects.filter(read_at__isnull=False).values_list("pk", flat=True))


# --- The list --------------------------------------------------------------------------


def test_ones_own_notifications_newest_first_each_as_the_pages_line(org, inboxes, session, client):
    body = api(org.manager).get(URL).json()
    assert body["count"] == 2 and body["next"] is None
    digest, reminder = body["results"]
    assert digest == {
        "id": inboxes["digest"].pk,
        "kind": "digest",
        "text": "Weekly digest for the week 2026-W47",
        "url": "/me/digests/2026-W47/",
        "created_at": digest["created_at"],
        "read_at": None,
    }
    assert reminder["kind"] == "upcoming" and reminder["id"] == inboxes["manager"].pk
    assert reminder["text"].startswith("Session tomorrow: 1:1 with Rita Rep, ")
    assert reminder["url"] == f"/sessions/{session.pk}/"
    client.force_login(org.manager)
    page = client.get("/me/notifications/").content.decode()
    assert digest["text"] in page and reminder["text"] in page


@pytest.mark.parametrize("who", PEOPLE)
def test_someone_elses_notifications_never_appear(org, inboxes, who):
    body = api(getattr(org, who)).get(URL).json()
    mine = {"rep": {inboxes["rep"].pk}, "manager": {inboxes["manager"].pk, inboxes["digest"].pk}}
    assert {row["id"] for row in body["results"]} == mine.get(who, set())
    assert body["count"] == len(mine.get(who, set()))


def test_no_ones_words_reach_the_list(org, inboxes):
    for person in (org.manager, org.rep):
        text = api(person).get(URL).content.decode()
        assert SECRET not in text and SHARED not in text


def test_a_line_about_a_session_no_longer_theirs_has_no_link(org):
    at = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
    with time_machine.travel(at, tick=False):
        session = one_on_one(org.manager, org.rep, start=at + timedelta(hours=2))
        _notify(NotificationKind.UPCOMING, org.other_rep, session)  # not in it (any more)
    [row] = api(org.other_rep).get(URL).json()["results"]
    assert row["text"] == "Session today: 1:1 on Wed 4 Mar, 15:00"  # Berlin time
    assert row["url"] is None


def test_a_token_caller_reads_times_in_their_own_zone_as_the_page_does(org, client):
    """The page's zone comes from the signed-in session; a token's request carries
    none, and still reads Olga's Berlin time, not UTC."""
    at = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
    with time_machine.travel(at, tick=False):
        session = one_on_one(org.manager, org.rep, start=at + timedelta(hours=2))
        _notify(NotificationKind.UPCOMING, org.other_rep, session)
    token = APIClient()
    token.credentials(HTTP_AUTHORIZATION=f"Token {api_token_rotate(person=org.other_rep)}")
    [row] = token.get(URL).json()["results"]
    assert row["text"] == "Session today: 1:1 on Wed 4 Mar, 15:00"
    client.force_login(org.other_rep)
    assert row["text"] in client.get("/me/notifications/").content.decode()


def test_fifty_a_page_newest_first_like_every_list(org):
    sessions = _sessions_for(org.rep, 60)
    rows = [_notify(NotificationKind.MISSED, org.rep, s) for s in sessions]
    newest = rows[0]
    Notification.objects.filter(pk=newest.pk).update(
        created_at=timezone.now() + timedelta(minutes=1)
    )
    client = api(org.rep)
    first = client.get(URL).json()
    assert first["count"] == 60 and len(first["results"]) == 50
    assert first["results"][0]["id"] == newest.pk
    assert [r["id"] for r in first["results"][1:4]] == [rows[59].pk, rows[58].pk, rows[57].pk]
    second = client.get(first["next"]).json()
    assert len(second["results"]) == 10 and second["next"] is None
    assert {r["id"] for r in first["results"]}.isdisjoint(r["id"] for r in second["results"])
    assert client.get(URL, {"page": "zzz"}).status_code == 404
    assert client.get(URL, {"page": 9}).status_code == 404


def test_anonymous_callers_get_401(inboxes):
    client = api()
    assert client.get(URL).status_code == 401
    assert client.post(READ, {}, format="json").status_code == 401
    assert client.get(PREFERENCES).status_code == 401
    assert client.patch(PREFERENCES, {"email_digest": False}, format="json").status_code == 401
    assert not _read_ids() and not NotificationPreference.objects.exists()


# --- Marking read -----------------------------------------------------------------------


def test_marking_read_up_to_what_was_shown_marks_ones_own_only(org, inboxes, session):
    client = api(org.manager)
    shown = client.get(URL).json()["results"]
    arrived_since = _notify(NotificationKind.MISSED, org.manager, session)
    response = client.post(READ, {"up_to": shown[0]["id"]}, format="json")
    assert response.status_code == 200 and response.json() == {"marked": 2}
    assert _read_ids() == {inboxes["manager"].pk, inboxes["digest"].pk}
    rows = {r["id"]: r for r in client.get(URL).json()["results"]}
    assert rows[arrived_since.pk]["read_at"] is None
    assert rows[inboxes["digest"].pk]["read_at"] is not None


def test_marking_all_read_without_an_id_marks_ones_own_only(org, inboxes):
    response = api(org.manager).post(READ, {}, format="json")
    assert response.json() == {"marked": 2}
    assert _read_ids() == {inboxes["manager"].pk, inboxes["digest"].pk}
    assert api(org.manager).post(READ, {}, format="json").json() == {"marked": 0}


def test_marking_with_someone_elses_ids_touches_nothing(org, inboxes):
    response = api(org.other_rep).post(READ, {"up_to": inboxes["rep"].pk + 100}, format="json")
    assert response.status_code == 200 and response.json() == {"marked": 0}
    assert not _read_ids()


@pytest.mark.parametrize(
    "body",
    [
        {"up_to": "abc"},
        {"up_to": 0},
        {"up_to": -3},
        {"up_to": 2**63},
        {"up_to": True},
        {"up_to": [1]},
        {"everything": True},
        [],
    ],
)
def test_marking_read_with_a_bad_id_is_a_400_and_marks_nothing(org, inboxes, body):
    response = api(org.manager).post(READ, body, format="json")
    assert response.status_code == 400
    assert not _read_ids()


# --- Preferences --------------------------------------------------------------------


def test_preferences_read_as_the_defaults_until_saved_without_saving_any(org):
    response = api(org.rep).get(PREFERENCES)
    assert response.status_code == 200 and response.json() == DEFAULTS
    assert not NotificationPreference.objects.exists()


def test_put_sets_them_all_and_patch_changes_some_of_ones_own(org):
    NotificationPreference.objects.create(person=org.peer, email_digest=False)
    client = api(org.rep)
    chosen = {**DEFAULTS, "email_missed": False, "quiet_from": "20:00", "quiet_until": "07:30"}
    response = client.put(PREFERENCES, chosen, format="json")
    assert response.status_code == 200
    assert response.json() == {**chosen, "quiet_from": "20:00:00", "quiet_until": "07:30:00"}
    preference = NotificationPreference.objects.get(person=org.rep)
    assert (preference.email_missed, preference.quiet_from, preference.quiet_until) == (
        False,
        time(20, 0),
        time(7, 30),
    )
    response = client.patch(PREFERENCES, {"email_digest": False}, format="json")
    assert response.status_code == 200
    preference.refresh_from_db()
    assert (preference.email_digest, preference.email_missed, preference.quiet_from) == (
        False,
        False,
        time(20, 0),
    )
    response = client.patch(PREFERENCES, {"quiet_from": None, "quiet_until": None}, format="json")
    assert response.json()["quiet_from"] is None
    assert NotificationPreference.objects.filter(person=org.rep).count() == 1
    saved = {**DEFAULTS, "email_missed": False, "email_digest": False}
    assert client.get(PREFERENCES).json() == saved
    # Pavel's own row is untouched.
    assert NotificationPreference.objects.get(person=org.peer).email_digest is False
    assert api(org.peer).get(PREFERENCES).json() == {**DEFAULTS, "email_digest": False}


@pytest.mark.parametrize(
    ("method", "body", "field", "message"),
    [
        ("patch", {"quiet_from": "22:00"}, "quiet_until", "Quiet hours need a start and an end."),
        ("patch", {"quiet_until": "06:00"}, "quiet_from", "Quiet hours need a start and an end."),
        (
            "patch",
            {"quiet_from": "22:00", "quiet_until": "22:00"},
            "quiet_until",
            "Quiet hours must end at a different time.",
        ),
        ("patch", {"quiet_from": "26:00", "quiet_until": "06:00"}, "quiet_from", "Time has"),
        ("patch", {"quiet_from": "22:00+01:00", "quiet_until": "06:00"}, "quiet_from", "Time"),
        ("patch", {"email_digest": "perhaps"}, "email_digest", "Must be a valid boolean."),
        ("patch", {"email_digest": None}, "email_digest", "This field may not be null."),
        ("patch", {"email_everything": True}, "email_everything", "Unknown field."),
        ("patch", {}, "non_field_errors", "Send at least one of"),
        ("put", {"email_digest": True}, "email_missed", "This field is required."),
        ("put", {**DEFAULTS, "quiet_from": "07:00"}, "quiet_until", "need a start and an end"),
    ],
)
def test_bad_preferences_are_a_400_naming_the_field_and_save_nothing(
    org, method, body, field, message
):
    NotificationPreference.objects.create(person=org.rep, email_upcoming=False)
    client = api(org.rep)
    response = getattr(client, method)(PREFERENCES, body, format="json")
    assert response.status_code == 400
    assert message in " ".join(response.json()[field]), response.json()
    preference = NotificationPreference.objects.get(person=org.rep)
    assert (preference.email_upcoming, preference.email_digest, preference.quiet_from) == (
        False,
        True,
        None,
    )


def test_a_bad_first_save_leaves_no_row_behind(org):
    response = api(org.rep).patch(PREFERENCES, {"quiet_from": "22:00"}, format="json")
    assert response.status_code == 400
    assert not NotificationPreference.objects.exists()


# --- Query count -----------------------------------------------------------------------


def _sessions_for(person, n):
    sessions = []
    for i in range(n):
        s = SessionFactory(scheduled_start=timezone.now() + timedelta(days=1, minutes=i))
        SessionParticipantFactory(session=s, person=person, role="coachee")
        SessionParticipantFactory(session=s, role="coach")
        sessions.append(s)
    return sessions


def _queries(client):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(URL)
    assert response.status_code == 200
    return len(captured), response.json()["count"]


def test_the_list_costs_the_same_queries_for_three_notifications_or_sixty(org):
    client = api(org.rep)
    for s in _sessions_for(org.rep, 3):
        _notify(NotificationKind.UPCOMING, org.rep, s)
    few, three = _queries(client)
    for s in _sessions_for(org.rep, 57):
        _notify(NotificationKind.MISSED, org.rep, s)
    many, sixty = _queries(client)
    assert (three, sixty) == (3, 60)
    # session, user, count, the page's rows, their sessions' people, who is below
    # them and which sessions are still visible.
    assert few == many == 7


def test_the_browsable_api_shows_the_list_and_the_preferences(org, inboxes):
    client = api(org.manager)
    for path in (URL, PREFERENCES):
        assert client.get(path, HTTP_ACCEPT="text/html").status_code == 200


def test_notifications_are_in_the_schema(org):
    paths = api(org.rep).get("/api/schema/", {"format": "json"}).json()["paths"]
    assert set(paths[URL]) == {"get"}
    assert set(paths[READ]) == {"post"}
    assert set(paths[PREFERENCES]) == {"get", "put", "patch"}
    assert "400" in paths[PREFERENCES]["put"]["responses"]
