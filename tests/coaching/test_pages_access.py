"""Every coaching page as every role: outsiders get 404, never a glimpse."""

from datetime import timedelta

import pytest
from django.utils import timezone

from coaching.services import commitment_create, private_note_save
from tests.support.factories import one_on_one

PEOPLE = ["rep", "manager", "head", "other_manager", "peer", "other_rep", "hr", "admin"]
CAN_SEE_SESSION = {"rep", "manager", "head"}
SECRET = "PRIVATE-MARKER-7f3a"


@pytest.fixture
def session(org):
    s = one_on_one(org.manager, org.rep)
    private_note_save(session=s, author=org.manager, text=SECRET, base_version=0)
    commitment_create(
        session=s,
        actor=org.manager,
        text="Open with the customer's goal",
        evidence="Recorded call",
        due_on=timezone.localdate() + timedelta(days=5),
    )
    return s


def session_pages(s):
    return [
        f"/sessions/{s.pk}/",
        f"/sessions/{s.pk}/prepare/",
        f"/sessions/{s.pk}/cancel/",
        f"/sessions/{s.pk}/reschedule/",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("who", PEOPLE)
def test_session_pages_are_404_to_everyone_outside_the_circle(client, org, session, who):
    client.force_login(getattr(org, who))
    for path in session_pages(session):
        response = client.get(path)
        if who in CAN_SEE_SESSION:
            # Cancelling or moving it: 403 with the reason to whoever does not run it.
            assert response.status_code in (200, 302, 403), path
        else:
            assert response.status_code == 404, (who, path)
        assert SECRET.encode() not in response.content or who == "manager"


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["other_manager", "peer", "other_rep", "hr", "admin"])
def test_posting_to_someone_elses_session_is_404_and_changes_nothing(client, org, session, who):
    client.force_login(getattr(org, who))
    posts = {
        f"/sessions/{session.pk}/notes/": {"version": 0, "reality": "x"},
        f"/sessions/{session.pk}/private-note/": {"version": 0, "text": "x"},
        f"/sessions/{session.pk}/agenda/": {"text": "x"},
        f"/sessions/{session.pk}/commitments/": {
            "text": "x",
            "evidence": "y",
            "due_on": "2099-01-01",
        },
        f"/sessions/{session.pk}/held/": {},
        f"/sessions/{session.pk}/cancel/": {"reason": "other", "note": "x"},
        f"/sessions/{session.pk}/reschedule/": {"scheduled_start": "2026-12-01T10:00"},
    }
    for path, data in posts.items():
        assert client.post(path, data).status_code == 404, path
    session.refresh_from_db()
    assert session.status == "scheduled"
    assert session.notes.version == 0


@pytest.mark.django_db
def test_the_coachs_private_note_reaches_only_the_coach(client, org, session):
    for who in PEOPLE:
        client.force_login(getattr(org, who))
        for path in [
            f"/sessions/{session.pk}/",
            "/me/",
            "/sessions/",
            "/commitments/",
            f"/people/{org.rep.pk}/",
            "/team/",
        ]:
            body = client.get(path).content
            assert (SECRET.encode() in body) == (
                who == "manager" and path == f"/sessions/{session.pk}/"
            ), (who, path)


@pytest.mark.django_db
def test_a_managers_manager_reads_along_but_cannot_edit(client, org, session):
    client.force_login(org.head)
    page = client.get(f"/sessions/{session.pk}/").content.decode()
    assert "Save notes" not in page and "Log as held" not in page
    response = client.post(f"/sessions/{session.pk}/notes/", {"version": 0, "reality": "x"})
    assert response.status_code == 400
    assert "can read these notes but not edit" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["other_manager", "peer", "hr", "admin"])
def test_a_persons_page_is_404_outside_their_management_chain(client, org, who):
    client.force_login(getattr(org, who))
    assert client.get(f"/people/{org.rep.pk}/").status_code == 404


@pytest.mark.django_db
def test_a_new_manager_sees_the_history_under_the_old_manager(client, org, session):
    from people.services import reporting_line_change

    reporting_line_change(person=org.rep, manager=org.other_manager)
    client.force_login(org.other_manager)
    page = client.get(f"/people/{org.rep.pk}/").content.decode()
    assert f"/sessions/{session.pk}/" in page
    assert client.get(f"/sessions/{session.pk}/").status_code == 200
    assert SECRET not in client.get(f"/sessions/{session.pk}/").content.decode()
