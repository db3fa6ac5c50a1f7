"""The page's Log as held posts the notes form, so what the coach typed is saved with
it even where no script runs: merged per field like any save; a field someone else
changed meanwhile refuses it (409, both texts in the field, nothing logged); bad input
is a 400 with nothing saved."""

from datetime import timedelta

import pytest
from django.utils import timezone

from coaching.models import CoachingSession, SessionStatus, SharedNotes
from coaching.services import notes_save
from tests.support.factories import one_on_one

pytestmark = pytest.mark.django_db


@pytest.fixture
def today(org):
    return one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(minutes=30))


def typed(**fields):
    return {"version": "0", "goal": "", "reality": "", "reality_evidence_url": "",
            "options": "", "will": "", **fields}  # fmt: skip


def test_the_button_posts_the_notes_form(client_for, org, today):
    page = client_for(org.manager).get(f"/sessions/{today.pk}/").content.decode()
    assert 'id="notes-form"' in page
    assert f'form="notes-form" formaction="/sessions/{today.pk}/held/"' in page


def test_what_was_typed_is_saved_and_the_session_logged(client_for, org, today):
    client = client_for(org.manager)
    response = client.post(
        f"/sessions/{today.pk}/held/", typed(options="Ask first", will="Try it twice")
    )
    assert response.status_code == 302
    notes = SharedNotes.objects.get(session=today)
    assert (notes.options, notes.will) == ("Ask first", "Try it twice")
    today.refresh_from_db()
    assert today.status == SessionStatus.HELD and not today.held_but_empty


def test_the_same_field_changed_by_the_other_person_refuses_it(client_for, org, today):
    notes_save(session=today, actor=org.rep, base_version=0, changes={"will": "Aisha's words"})
    response = client_for(org.manager).post(
        f"/sessions/{today.pk}/held/", typed(will="Sofia's words")
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert "Aisha&#x27;s words" in body and "Sofia&#x27;s words" in body
    assert CoachingSession.objects.get(pk=today.pk).status == SessionStatus.SCHEDULED
    assert SharedNotes.objects.get(session=today).will == "Aisha's words"


def test_bad_input_is_a_400_and_nothing_changes(client_for, org, today):
    response = client_for(org.manager).post(
        f"/sessions/{today.pk}/held/", typed(version="x", will="Lost?")
    )
    assert response.status_code == 400
    assert CoachingSession.objects.get(pk=today.pk).status == SessionStatus.SCHEDULED
    assert SharedNotes.objects.get(session=today).will == ""
