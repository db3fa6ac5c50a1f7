"""Shared notes and private notes through the API: who reads and who writes, stale
saves answered 409 with the saved text, bad input refused with nothing saved — and a
coach's private note that never reaches anyone but its author."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from coaching.models import NotesRevision, PrivateNote, SharedNotes
from coaching.services import (
    agenda_item_add,
    commitment_create,
    notes_save,
    private_note_save,
    session_cancel,
)
from tests.support.factories import FocusAreaFactory, PromptFactory, one_on_one

EVERYONE = ["rep", "manager", "head", "other_manager", "peer", "other_rep", "hr", "admin"]
DOES_NOT_SEE = ["other_manager", "peer", "other_rep", "hr", "admin"]
NOTE_FIELDS = ["goal", "reality", "reality_evidence_url", "options", "will", "notes"]


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return signed_in


@pytest.fixture
def session(org):
    return one_on_one(org.manager, org.rep)


def notes_url(session):
    return f"/api/v1/sessions/{session.pk}/notes/"


def private_url(session):
    return f"/api/v1/sessions/{session.pk}/private-note/"


# --- Shared notes: who reads, who writes ---------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "manager", "head"])
def test_the_coachee_the_coach_and_the_coachs_manager_read_the_shared_notes(api, org, session, who):
    notes_save(session=session, actor=org.rep, base_version=0, changes={"goal": "Discovery"})
    response = api(getattr(org, who)).get(notes_url(session))
    assert response.status_code == 200
    body = response.json()
    assert {k: body[k] for k in NOTE_FIELDS} == {
        "goal": "Discovery",
        "reality": "",
        "reality_evidence_url": "",
        "options": "",
        "will": "",
        "notes": "",
    }
    assert body["version"] == 1
    assert body["coachee_prepared_at"] is not None


@pytest.mark.django_db
@pytest.mark.parametrize("who", DOES_NOT_SEE)
def test_everyone_else_gets_404_on_the_notes_both_ways(api, org, session, who):
    client = api(getattr(org, who))
    assert client.get(notes_url(session)).status_code == 404
    put = client.put(notes_url(session), {"version": 0, "goal": "Mine now"}, format="json")
    assert put.status_code == 404
    session.notes.refresh_from_db()
    assert (session.notes.goal, session.notes.version) == ("", 0)


@pytest.mark.django_db
def test_anonymous_callers_get_401_on_notes_and_private_notes(api, session):
    client = api()
    assert client.get(notes_url(session)).status_code == 401
    assert client.put(notes_url(session), {"version": 0}, format="json").status_code == 401
    assert client.get(private_url(session)).status_code == 401
    assert client.put(private_url(session), {"version": 0}, format="json").status_code == 401


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "manager"])
def test_people_in_the_session_save_the_notes(api, org, session, who):
    response = api(getattr(org, who)).put(
        notes_url(session), {"version": 0, "reality": "  Lost the room at pricing  "}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["reality"] == "Lost the room at pricing"
    assert response.json()["version"] == 1
    assert NotesRevision.objects.filter(notes__session=session).count() == 1


@pytest.mark.django_db
def test_a_manager_reading_along_cannot_edit_the_notes(api, org, session):
    response = api(org.head).put(
        notes_url(session), {"version": 0, "will": "Head's idea"}, format="json"
    )
    assert response.status_code == 403
    assert response.json() == {"detail": "You can read these notes but not edit them."}
    session.notes.refresh_from_db()
    assert (session.notes.will, session.notes.version) == ("", 0)


@pytest.mark.django_db
def test_the_notes_of_a_cancelled_session_are_read_only(api, org, session):
    session_cancel(session=session, actor=org.manager, reason="sick")
    response = api(org.rep).put(notes_url(session), {"version": 0, "goal": "x"}, format="json")
    assert response.status_code == 403


@pytest.mark.django_db
def test_fields_not_sent_are_kept(api, org, session):
    client = api(org.manager)
    client.put(notes_url(session), {"version": 0, "goal": "G", "will": "W"}, format="json")
    response = client.put(notes_url(session), {"version": 1, "options": "O"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["goal"], body["options"], body["will"]) == ("G", "O", "W")


# --- Shared notes: concurrency -------------------------------------------------------


@pytest.mark.django_db
def test_two_saves_from_the_same_version_one_wins_and_the_other_sees_the_saved_text(
    api, org, session
):
    coachee, coach = api(org.rep), api(org.manager)
    assert coachee.get(notes_url(session)).json()["version"] == 0
    assert coach.get(notes_url(session)).json()["version"] == 0

    first = coachee.put(notes_url(session), {"version": 0, "reality": "Rep's view"}, format="json")
    second = coach.put(notes_url(session), {"version": 0, "reality": "Coach's view"}, format="json")

    assert first.status_code == 200
    assert second.status_code == 409
    assert second.json() == {
        "detail": "Someone else changed the same part of these notes since you opened them.",
        "conflicts": {"reality": {"saved": "Rep's view", "yours": "Coach's view"}},
        "current": {
            "goal": "",
            "reality": "Rep's view",
            "reality_evidence_url": "",
            "options": "",
            "will": "",
            "notes": "",
        },
        "version": 1,
    }
    session.notes.refresh_from_db()
    assert session.notes.reality == "Rep's view"

    # The coach has both texts and saves the merge from the version they were given.
    merged = coach.put(
        notes_url(session),
        {"version": second.json()["version"], "reality": "Rep's view\nCoach's view"},
        format="json",
    )
    assert merged.status_code == 200
    assert merged.json()["version"] == 2
    revisions = NotesRevision.objects.filter(notes__session=session).order_by("version")
    assert [r.reality for r in revisions] == ["Rep's view", "Rep's view\nCoach's view"]


# --- Shared notes: bad input ---------------------------------------------------------


def assert_nothing_saved(session):
    notes = SharedNotes.objects.get(session=session)
    assert notes.version == 0
    assert notes.content() == dict.fromkeys(NOTE_FIELDS, "")
    assert not NotesRevision.objects.filter(notes=notes).exists()


@pytest.mark.django_db
def test_text_over_10000_characters_is_refused_and_nothing_is_saved(api, org, session):
    response = api(org.manager).put(
        notes_url(session), {"version": 0, "goal": "Fine", "notes": "x" * 10_001}, format="json"
    )
    assert response.status_code == 400
    assert "notes" in response.json()
    assert "10000" in response.json()["notes"][0]
    assert_nothing_saved(session)


@pytest.mark.django_db
def test_text_of_exactly_10000_characters_is_saved(api, org, session):
    response = api(org.manager).put(
        notes_url(session), {"version": 0, "notes": "x" * 10_000}, format="json"
    )
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"version": 0, "mood": "great"}, "mood"),
        ({"version": 0}, "non_field_errors"),
        ({"goal": "No version"}, "version"),
        ({"version": -1, "goal": "x"}, "version"),
        ({"version": "latest", "goal": "x"}, "version"),
        ({"version": 0, "reality_evidence_url": "not a link"}, "reality_evidence_url"),
        ({"version": 0, "goal": ["a", "list"]}, "goal"),
    ],
)
def test_malformed_saves_are_refused_and_nothing_is_saved(api, org, session, body, field):
    response = api(org.manager).put(notes_url(session), body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert_nothing_saved(session)


# --- Private notes -------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "rep"])
def test_people_in_the_session_keep_their_own_private_note(api, org, session, who):
    client = api(getattr(org, who))
    assert client.get(private_url(session)).json() == {"text": "", "version": 0}
    saved = client.put(private_url(session), {"text": "Mine", "version": 0}, format="json")
    assert saved.status_code == 200
    assert saved.json() == {"text": "Mine", "version": 1}
    assert client.get(private_url(session)).json() == {"text": "Mine", "version": 1}


@pytest.mark.django_db
def test_each_participant_sees_only_their_own_private_note(api, org, session):
    private_note_save(session=session, author=org.manager, text="Coach only", base_version=0)
    assert api(org.rep).get(private_url(session)).json() == {"text": "", "version": 0}


@pytest.mark.django_db
def test_the_coachs_manager_gets_403_on_private_notes_and_none_is_made(api, org, session):
    private_note_save(session=session, author=org.manager, text="Coach only", base_version=0)
    client = api(org.head)
    read = client.get(private_url(session))
    assert read.status_code == 403
    assert read.json() == {"detail": "Only people in the session keep notes here."}
    write = client.put(private_url(session), {"text": "Head's", "version": 0}, format="json")
    assert write.status_code == 403
    assert write.json() == {"detail": "Only people in the session keep notes here."}
    assert not PrivateNote.objects.filter(author=org.head).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("who", DOES_NOT_SEE)
def test_people_who_do_not_see_the_session_get_404_on_private_notes(api, org, session, who):
    client = api(getattr(org, who))
    assert client.get(private_url(session)).status_code == 404
    put = client.put(private_url(session), {"text": "x", "version": 0}, format="json")
    assert put.status_code == 404
    assert not PrivateNote.objects.exists()


@pytest.mark.django_db
def test_a_stale_private_note_save_is_a_409_with_the_saved_text(api, org, session):
    client = api(org.manager)
    client.put(private_url(session), {"text": "From the laptop", "version": 0}, format="json")
    stale = client.put(
        private_url(session), {"text": "From the phone", "version": 0}, format="json"
    )
    assert stale.status_code == 409
    assert stale.json() == {
        "detail": "These notes changed since you opened them.",
        "current": {"text": "From the laptop"},
        "version": 1,
    }
    assert PrivateNote.objects.get(author=org.manager).text == "From the laptop"


@pytest.mark.django_db
def test_a_private_note_over_the_text_limit_is_refused(api, org, session):
    response = api(org.manager).put(
        private_url(session), {"text": "x" * 10_001, "version": 0}, format="json"
    )
    assert response.status_code == 400
    assert "text" in response.json()
    assert not PrivateNote.objects.exists()


# --- The firewall around private notes ------------------------------------------------

COACH_SECRET = "ZQX-COACH-PRIVATE-7731"
COACHEE_SECRET = "ZQX-COACHEE-PRIVATE-4410"


@pytest.mark.django_db
def test_a_private_note_never_appears_in_any_response_to_anyone_but_its_author(api, org):
    session = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(hours=3))
    private_note_save(
        session=session, author=org.manager, text=f"Worried: {COACH_SECRET}", base_version=0
    )
    private_note_save(
        session=session, author=org.rep, text=f"Nervous: {COACHEE_SECRET}", base_version=0
    )
    notes_save(session=session, actor=org.rep, base_version=0, changes={"goal": "Discovery"})
    agenda_item_add(session=session, actor=org.rep, text="Pricing objection")
    commitment_create(
        session=session,
        actor=org.manager,
        text="Two open questions",
        evidence="Recorded call",
        due_on=timezone.localdate() + timedelta(days=7),
    )
    FocusAreaFactory()
    PromptFactory()
    reads = [
        "/api/v1/sessions/",
        f"/api/v1/sessions/?person={org.manager.pk}",
        f"/api/v1/sessions/{session.pk}/",
        notes_url(session),
        private_url(session),
        "/api/v1/agenda-items/",
        f"/api/v1/agenda-items/?session={session.pk}",
        "/api/v1/commitments/",
        "/api/v1/focus-areas/",
        "/api/v1/prompts/",
    ]
    seen_by = {COACH_SECRET: set(), COACHEE_SECRET: set()}
    for who in [*EVERYONE, None]:
        client = api(getattr(org, who) if who else None)
        bodies = [client.get(url).content.decode() for url in reads]
        # Writes answer with saved state too: a stale save shows what is saved.
        bodies.append(
            client.put(
                notes_url(session), {"version": 99, "goal": "x"}, format="json"
            ).content.decode()
        )
        bodies.append(
            client.put(
                private_url(session), {"version": 99, "text": "x"}, format="json"
            ).content.decode()
        )
        for secret, people in seen_by.items():
            if any(secret in body for body in bodies):
                people.add(who)

    assert seen_by == {COACH_SECRET: {"manager"}, COACHEE_SECRET: {"rep"}}
    assert PrivateNote.objects.get(author=org.manager).text == f"Worried: {COACH_SECRET}"
    assert PrivateNote.objects.get(author=org.rep).text == f"Nervous: {COACHEE_SECRET}"


@pytest.mark.django_db
@pytest.mark.parametrize("url", [notes_url, private_url])
def test_the_browsable_api_offers_a_form_filled_with_the_notes(api, org, session, url):
    """The browsable API fills its PUT form from what it shows: notes, not a session."""
    notes_save(session=session, actor=org.manager, base_version=0, changes={"goal": "Pricing"})
    private_note_save(session=session, author=org.manager, text="Ask about Q3", base_version=0)
    response = api(org.manager).get(url(session), HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert "&quot;version&quot;" in response.content.decode()
