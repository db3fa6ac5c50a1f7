"""The coachee's goal carries into every 1:1 — made by the engine, by hand or through
the API: sessions not yet held show the current goal (so a changed goal shows in every
upcoming one), a held session keeps the goal it was held under, and the API's notes say
what the page says."""

from datetime import time, timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from cadence import engine
from cadence.services import plan_create
from coaching.models import CoachingSession, SharedNotes
from coaching.selectors import session_page
from coaching.services import goal_create, goal_update, notes_save, session_mark_held
from tests.support.factories import one_on_one


def goal_shown(session, viewer) -> str:
    """What the session page's Goal field holds, and what the API's notes say."""
    page = session_page(user=viewer, pk=session.pk).notes.goal
    client = APIClient()
    client.force_login(viewer)
    api = client.get(f"/api/v1/sessions/{session.pk}/notes/").json()["goal"]
    assert page == api
    return page


@pytest.fixture
def goal(org):
    return goal_create(owner=org.rep, actor=org.rep, title="Ask before I pitch")


@pytest.mark.django_db
def test_a_one_on_one_made_by_the_engine_shows_the_coachees_goal(org, goal):
    plan_create(
        kind="one_on_one",
        coach=org.manager,
        coachee=org.rep,
        weekday=1,
        local_time=time(10, 0),
        generate=False,
    )
    assert engine.occurrences_generate() > 0
    sessions = CoachingSession.objects.filter(participants__person=org.rep)
    # The engine writes no goal (no cost per row): the page and the API carry it.
    goals = SharedNotes.objects.filter(session__in=sessions).values_list("goal", flat=True)
    assert set(goals) == {""}
    for session in sessions[:2]:
        assert goal_shown(session, org.manager) == "Ask before I pitch"
        assert goal_shown(session, org.rep) == "Ask before I pitch"


@pytest.mark.django_db
def test_a_one_on_one_made_by_hand_shows_the_coachees_goal(org, goal):
    assert goal_shown(one_on_one(org.manager, org.rep), org.manager) == "Ask before I pitch"


@pytest.mark.django_db
def test_a_one_on_one_made_through_the_api_shows_the_coachees_goal(org, goal):
    client = APIClient()
    client.force_login(org.manager)
    response = client.post(
        "/api/v1/sessions/",
        {
            "kind": "one_on_one",
            "coachee": org.rep.pk,
            "scheduled_start": (timezone.now() + timedelta(days=2)).isoformat(),
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    session = CoachingSession.objects.get(pk=response.json()["id"])
    assert goal_shown(session, org.rep) == "Ask before I pitch"


@pytest.mark.django_db
def test_a_changed_goal_shows_in_every_upcoming_one_on_one(org, goal):
    upcoming = [
        one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=d)) for d in (1, 8)
    ]
    goal_update(goal=goal, actor=org.rep, title="Close on the first call")
    assert [goal_shown(s, org.manager) for s in upcoming] == ["Close on the first call"] * 2


@pytest.mark.django_db
def test_a_held_session_keeps_the_goal_it_was_held_under(org, goal):
    session = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(hours=1))
    session_mark_held(session=session, actor=org.manager)
    assert SharedNotes.objects.get(session=session).goal == "Ask before I pitch"
    goal_update(goal=goal, actor=org.rep, title="Close on the first call")
    assert goal_shown(session, org.manager) == "Ask before I pitch"
    upcoming = one_on_one(org.manager, org.rep)
    assert goal_shown(upcoming, org.manager) == "Close on the first call"


@pytest.mark.django_db
def test_a_goal_written_in_the_session_is_its_own_and_stays(org, goal):
    session = one_on_one(org.manager, org.rep)
    notes_save(session=session, actor=org.rep, base_version=0, changes={"goal": "Listen more"})
    goal_update(goal=goal, actor=org.rep, title="Close on the first call")
    assert goal_shown(session, org.manager) == "Listen more"


@pytest.mark.django_db
def test_sending_the_carried_goal_back_unchanged_does_not_pin_it(org, goal):
    """A whole form saved (no script) sends the goal it showed: it stays live."""
    session = one_on_one(org.manager, org.rep)
    notes_save(
        session=session,
        actor=org.manager,
        base_version=0,
        changes={"goal": "Ask before I pitch", "will": "Try it"},
    )
    assert SharedNotes.objects.get(session=session).goal == ""
    goal_update(goal=goal, actor=org.rep, title="Close on the first call")
    assert goal_shown(session, org.manager) == "Close on the first call"


@pytest.mark.django_db
def test_without_a_development_goal_the_last_held_sessions_goal_carries(org):
    earlier = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=7))
    notes_save(session=earlier, actor=org.manager, base_version=0, changes={"goal": "Pace"})
    session_mark_held(session=earlier, actor=org.manager)
    assert goal_shown(one_on_one(org.manager, org.rep), org.rep) == "Pace"


@pytest.mark.django_db
def test_the_apis_answer_to_a_save_shows_the_carried_goal_as_its_read_does(org, goal):
    session = one_on_one(org.manager, org.rep)
    client = APIClient()
    client.force_login(org.manager)
    url = f"/api/v1/sessions/{session.pk}/notes/"
    saved = client.put(url, {"version": 0, "will": "Try it"}, format="json").json()
    assert saved["goal"] == client.get(url).json()["goal"] == "Ask before I pitch"
