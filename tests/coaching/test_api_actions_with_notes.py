"""Log as held, move and cancel through the API take the notes typed so far in the same
request: saved first (merged per field), or — when someone else changed the same field
— a 409 with both texts and nothing done at all."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from coaching.models import CoachingSession, SessionStatus, SharedNotes
from coaching.services import notes_save
from tests.support.factories import one_on_one


@pytest.fixture
def coach(org):
    client = APIClient()
    client.force_login(org.manager)
    return client


@pytest.fixture
def today(org):
    return one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(minutes=30))


def act(client, session, verb, body):
    return client.post(f"/api/v1/sessions/{session.pk}/{verb}/", body, format="json")


def later():
    return (timezone.now() + timedelta(days=3)).isoformat()


ACTIONS = [
    ("held", {}),
    ("cancel", {"reason": "travel"}),
    ("reschedule", {"scheduled_start": "LATER"}),
]


def body_for(extra, notes):
    body = {k: (later() if v == "LATER" else v) for k, v in extra.items()}
    return {**body, "notes": notes}


@pytest.mark.django_db
@pytest.mark.parametrize(("verb", "extra"), ACTIONS)
def test_the_notes_sent_with_an_action_are_saved_with_it(coach, org, today, verb, extra):
    response = act(coach, today, verb, body_for(extra, {"version": 0, "will": "Ask first"}))
    assert response.status_code == 200, response.json()
    assert SharedNotes.objects.get(session=today).will == "Ask first"


@pytest.mark.django_db
def test_held_with_notes_counts_them_for_held_but_empty(coach, org, today):
    response = act(coach, today, "held", {"notes": {"version": 0, "will": "Ask first"}})
    assert response.json()["held_but_empty"] is False


@pytest.mark.django_db
@pytest.mark.parametrize(("verb", "extra"), ACTIONS)
def test_unsaved_text_that_would_be_lost_is_a_409_and_nothing_happens(
    coach, org, today, verb, extra
):
    notes_save(session=today, actor=org.rep, base_version=0, changes={"will": "Rep's plan"})
    response = act(
        coach,
        today,
        verb,
        body_for(extra, {"version": 0, "will": "Coach's plan", "options": "Two ways"}),
    )
    assert response.status_code == 409
    body = response.json()
    assert body["conflicts"] == {"will": {"saved": "Rep's plan", "yours": "Coach's plan"}}
    assert body["version"] == 1
    notes = SharedNotes.objects.get(session=today)
    assert (notes.will, notes.options, notes.version) == ("Rep's plan", "", 1)
    assert CoachingSession.objects.get(pk=today.pk).status == SessionStatus.SCHEDULED


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("notes", "field"),
    [
        ({"version": 0, "mood": "great"}, "mood"),
        ({"will": "No version"}, "version"),
        ({"version": "latest", "will": "x"}, "version"),
        ({"version": 0, "will": "x" * 10_001}, "will"),
        ({"version": 0}, "non_field_errors"),
    ],
)
def test_bad_notes_refuse_the_action_and_save_nothing(coach, org, today, notes, field):
    response = act(coach, today, "held", {"notes": notes})
    assert response.status_code == 400
    assert field in str(response.json())
    assert SharedNotes.objects.get(session=today).version == 0
    assert CoachingSession.objects.get(pk=today.pk).status == SessionStatus.SCHEDULED


@pytest.mark.django_db
def test_an_action_without_notes_works_as_before(coach, org, today):
    assert act(coach, today, "held", {}).status_code == 200
