"""A pair's cadence, through the real cadence engine: nothing is planned until every
member accepted; then 30-minute sessions for the pair's members; leaving takes the
untouched future sessions off everyone's calendar and keeps the held ones as they
were; a trio that loses one keeps meeting with two; declining plans nothing."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from cadence.engine import occurrences_generate
from cadence.models import CadencePlan, EndReason
from coaching.models import CoachingSession, SessionStatus
from coaching.services import session_mark_held
from peers.services import pair_accept, pair_decline, pair_end, pair_leave
from tests.support.factories import UserFactory
from tests.support.peers_pairs import active_pair, form_pair

pytestmark = pytest.mark.django_db

MONDAY = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


def sessions_of(pair):
    return list(
        CoachingSession.objects.filter(occurrence__plan__pair=pair)
        .prefetch_related("participants")
        .order_by("scheduled_start")
    )


def people_in(session):
    return {p.person_id for p in session.participants.all()}


def test_nothing_is_planned_until_every_member_accepted(org):
    with time_machine.travel(MONDAY, tick=False):
        pair = form_pair(org.manager, org.rep, org.peer, interval_weeks=1)
        pair_accept(pair=pair, actor=org.rep)
        assert occurrences_generate() == 0 and not CadencePlan.objects.exists()
        pair_accept(pair=pair, actor=org.peer)
        assert occurrences_generate() == 6
    sessions = sessions_of(pair)
    assert [s.scheduled_start.isoformat() for s in sessions[:2]] == [
        "2026-03-03T09:00:00+00:00",  # Tuesday 10:00 in Berlin
        "2026-03-10T09:00:00+00:00",
    ]
    assert all(s.kind == "peer" and s.duration_minutes == 30 for s in sessions)
    assert all(people_in(s) == {org.rep.pk, org.peer.pk} for s in sessions)


def test_every_other_week_by_default(org):
    with time_machine.travel(MONDAY, tick=False):
        active_pair(org.manager, org.rep, org.peer)
        assert occurrences_generate() == 3  # six weeks ahead, every two weeks


def test_leaving_ends_the_future_sessions_and_keeps_the_held_one(org):
    with time_machine.travel(MONDAY, tick=False):
        pair = active_pair(org.manager, org.rep, org.peer, interval_weeks=1)
        occurrences_generate()
    first, *later = sessions_of(pair)
    with time_machine.travel(first.scheduled_end + timedelta(minutes=5), tick=False):
        session_mark_held(session=first, actor=org.peer)
        pair_leave(pair=pair, actor=org.peer, reason="Changing roles")
        assert occurrences_generate() == 0
    pair.refresh_from_db()
    assert pair.status == "ended"
    remaining = sessions_of(pair)
    assert [s.pk for s in remaining] == [first.pk]
    assert remaining[0].status == SessionStatus.HELD
    assert people_in(remaining[0]) == {org.rep.pk, org.peer.pk}  # history as it was
    assert not CoachingSession.objects.filter(pk__in=[s.pk for s in later]).exists()
    plan = CadencePlan.objects.get(pair=pair)
    assert plan.ended_at is not None and plan.end_reason == EndReason.PAIR_ENDED


def test_a_trio_losing_one_member_keeps_meeting_with_two(org):
    third = UserFactory(display_name="Theo Third", manager=org.manager)
    with time_machine.travel(MONDAY, tick=False):
        trio = active_pair(org.manager, org.rep, org.peer, third, interval_weeks=1)
        occurrences_generate()
    first, *later = sessions_of(trio)
    assert people_in(first) == {org.rep.pk, org.peer.pk, third.pk}
    with time_machine.travel(first.scheduled_end + timedelta(minutes=5), tick=False):
        session_mark_held(session=first, actor=third)
        pair_leave(pair=trio, actor=third)
        occurrences_generate()
    trio.refresh_from_db()
    assert trio.status == "active"
    held, *ahead = sessions_of(trio)
    assert held.pk == first.pk and people_in(held) == {org.rep.pk, org.peer.pk, third.pk}
    assert ahead and all(people_in(s) == {org.rep.pk, org.peer.pk} for s in ahead)
    assert not CoachingSession.objects.filter(pk__in=[s.pk for s in later]).exists()
    live = CadencePlan.objects.live().get(pair=trio)
    replaced = CadencePlan.objects.get(pair=trio, ended_at__isnull=False)
    assert replaced.end_reason == EndReason.REPLACED and live.pk != replaced.pk


def test_declining_plans_nothing_and_ends_a_pair_of_two(org):
    with time_machine.travel(MONDAY, tick=False):
        pair = form_pair(org.manager, org.rep, org.peer)
        pair_accept(pair=pair, actor=org.rep)
        pair_decline(pair=pair, actor=org.peer)
        assert occurrences_generate() == 0
    pair.refresh_from_db()
    assert pair.status == "ended" and not CadencePlan.objects.exists()


def test_ending_a_pair_keeps_its_held_sessions(org):
    with time_machine.travel(MONDAY, tick=False):
        pair = active_pair(org.admin, org.rep, org.other_rep, interval_weeks=1)
        occurrences_generate()
    first = sessions_of(pair)[0]
    with time_machine.travel(first.scheduled_end + timedelta(hours=1), tick=False):
        session_mark_held(session=first, actor=org.rep)
        pair_end(pair=pair, actor=org.admin)
    assert [s.pk for s in sessions_of(pair)] == [first.pk]
