"""Open commitments follow their owner onto every later session until closed."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from coaching.models import Commitment
from coaching.selectors import carried_commitments, session_page
from coaching.selectors_notes import notes_shown
from coaching.services import commitment_close, commitment_create, session_reschedule
from people.services import reporting_line_change
from tests.support.factories import one_on_one


def promise(session, actor, text="Open with the customer's goal"):
    return commitment_create(
        session=session,
        actor=actor,
        text=text,
        evidence="Two recorded calls",
        due_on=timezone.localdate() + timedelta(days=14),
    )


@pytest.mark.django_db
def test_an_open_commitment_appears_on_the_next_session_until_closed(org):
    first = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=7))
    commitment = promise(first, org.manager)
    second = one_on_one(org.manager, org.rep)
    assert carried_commitments(session=second, viewer=org.manager) == [commitment]
    assert carried_commitments(session=second, viewer=org.rep) == [commitment]

    commitment_close(commitment=commitment, actor=org.rep, status="done", session=second)
    assert carried_commitments(session=second, viewer=org.manager) == []


@pytest.mark.django_db
def test_it_survives_a_reschedule(org):
    first = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=7))
    commitment = promise(first, org.manager)
    second = one_on_one(org.manager, org.rep)
    session_reschedule(session=second, actor=org.manager, start=timezone.now() + timedelta(days=3))
    assert carried_commitments(session=second, viewer=org.manager) == [commitment]


@pytest.mark.django_db
def test_the_new_manager_sees_it_after_a_reporting_line_change_and_the_old_one_does_not(org):
    with time_machine.travel(timezone.now() - timedelta(days=10)):
        first = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(hours=1))
        commitment = promise(first, org.manager)
    reporting_line_change(person=org.rep, manager=org.other_manager)
    with_new = one_on_one(org.other_manager, org.rep)

    assert carried_commitments(session=with_new, viewer=org.other_manager) == [commitment]
    page = session_page(user=org.other_manager, pk=with_new.pk)
    assert page.carried == [commitment]
    # what the rep promises the new manager stays out of the old manager's view
    later = promise(with_new, org.other_manager, text="Call the CFO first")
    assert not Commitment.objects.visible_to(org.manager).filter(pk=later.pk).exists()
    assert Commitment.objects.visible_to(org.other_manager).filter(pk=later.pk).exists()


@pytest.mark.django_db
def test_a_past_session_shows_only_what_was_open_before_it(org):
    first = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=14))
    before = promise(first, org.manager, text="Before")
    second = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=7))
    after = promise(second, org.manager, text="After")
    assert carried_commitments(session=second, viewer=org.manager) == [before]
    third = one_on_one(org.manager, org.rep)
    assert carried_commitments(session=third, viewer=org.manager) == [before, after]


@pytest.mark.django_db
def test_the_goal_carries_over_to_the_next_session_until_changed(org):
    from coaching.services import notes_save

    first = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=7))
    notes_save(session=first, actor=org.rep, base_version=0, changes={"goal": "Multi-threading"})
    second = one_on_one(org.manager, org.rep)
    assert notes_shown(second).goal == "Multi-threading"
