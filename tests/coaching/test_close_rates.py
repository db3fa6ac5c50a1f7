"""Close rate (done ÷ made) per coachee and per coach, for the health metrics."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.selectors import coaching_quality, commitment_close_rates
from coaching.services import commitment_close, commitment_create, session_mark_held
from tests.support.factories import one_on_one


def promise(session, actor):
    return commitment_create(
        session=session,
        actor=actor,
        text="Try it",
        evidence="A call",
        due_on=timezone.localdate() + timedelta(days=7),
    )


@pytest.mark.django_db
def test_it_counts_done_over_made_per_coachee_and_per_coach(org):
    with_rep = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=3))
    with_peer = one_on_one(org.manager, org.peer, start=timezone.now() - timedelta(days=3))
    with_other = one_on_one(
        org.other_manager, org.other_rep, start=timezone.now() - timedelta(days=3)
    )
    a, b = promise(with_rep, org.manager), promise(with_rep, org.manager)
    c = promise(with_peer, org.manager)
    d = promise(with_other, org.other_manager)
    commitment_close(commitment=a, actor=org.manager, status="done")
    commitment_close(commitment=b, actor=org.manager, status="dropped", reason="Deal lost")
    commitment_close(commitment=d, actor=org.other_manager, status="done")

    with CaptureQueriesContext(connection) as queries:
        by_owner = commitment_close_rates(owners=[org.rep, org.peer, org.other_rep])
    assert len(queries) == 1
    assert by_owner == {org.rep.pk: (1, 2), org.peer.pk: (0, 1), org.other_rep.pk: (1, 1)}
    assert commitment_close_rates(coaches=[org.manager, org.other_manager]) == {
        org.manager.pk: (1, 3),
        org.other_manager.pk: (1, 1),
    }
    assert c.status == "open"


@pytest.mark.django_db
def test_coaching_quality_counts_a_coachs_window(org):
    held = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=10))
    promise(held, org.manager)
    session_mark_held(session=held, actor=org.manager)
    empty = session_mark_held(
        session=one_on_one(org.manager, org.peer, start=timezone.now() - timedelta(days=9)),
        actor=org.manager,
    )
    one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=3))  # overdue
    one_on_one(org.manager, org.rep)  # in the future: not due yet
    q = coaching_quality(
        coach=org.manager,
        since=timezone.now() - timedelta(weeks=8),
        until=timezone.now() + timedelta(days=30),
    )
    assert (q.due, q.held, q.held_but_empty, q.commitments_made) == (3, 2, 1, 1)
    assert q.adherence == pytest.approx(2 / 3)
    assert empty.held_but_empty
