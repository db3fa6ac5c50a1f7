from datetime import timedelta

import pytest
from django.utils import timezone

from coaching.services import commitment_create, notes_save, session_mark_held
from core.errors import Forbidden
from tests.support.factories import one_on_one


def past_session(org, days_ago):
    return one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=days_ago))


@pytest.mark.django_db
def test_a_session_held_with_nothing_written_is_flagged(org):
    session = session_mark_held(session=past_session(org, 1), actor=org.manager)
    assert session.held_but_empty


@pytest.mark.django_db
def test_a_session_with_written_notes_is_not_flagged(org):
    session = past_session(org, 1)
    notes_save(session=session, actor=org.manager, base_version=0, changes={"will": "Try it"})
    assert not session_mark_held(session=session, actor=org.manager).held_but_empty


@pytest.mark.django_db
def test_notes_copied_unchanged_from_the_previous_session_are_flagged(org):
    earlier = past_session(org, 8)
    notes_save(session=earlier, actor=org.manager, base_version=0, changes={"reality": "Same"})
    session_mark_held(session=earlier, actor=org.manager)
    later = past_session(org, 1)
    notes_save(session=later, actor=org.manager, base_version=0, changes={"reality": "Same"})
    assert session_mark_held(session=later, actor=org.manager).held_but_empty


@pytest.mark.django_db
def test_writing_it_up_afterwards_lifts_the_flag(org):
    session = session_mark_held(session=past_session(org, 1), actor=org.manager)
    assert session.held_but_empty
    commitment_create(
        session=session,
        actor=org.manager,
        text="Multi-thread Acme",
        evidence="Two contacts",
        due_on=timezone.localdate() + timedelta(days=7),
    )
    session.refresh_from_db()
    assert not session.held_but_empty


@pytest.mark.django_db
def test_only_the_coach_logs_it_held(org):
    with pytest.raises(Forbidden, match="running this session"):
        session_mark_held(session=past_session(org, 1), actor=org.rep)
