"""Occurrences are materialised for the weeks ahead, once per slot, whatever happens."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.utils import timezone

from cadence.engine import occurrences_generate
from cadence.models import Occurrence
from cadence.services import plan_end, plan_update
from coaching.models import CoachingSession, SessionStatus
from coaching.services import notes_save, session_cancel, session_mark_held, session_reschedule
from people.models import Team, TeamMembership
from tests.support.factories import UserFactory

MONDAY = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


@pytest.mark.django_db
def test_it_creates_six_weeks_of_sessions_with_both_people(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan(starts_on=date(2026, 3, 1))
        assert occurrences_generate() == 6
    sessions = CoachingSession.objects.filter(occurrence__plan=plan).order_by("scheduled_start")
    assert [s.scheduled_start.date().isoformat() for s in sessions] == [
        "2026-03-03",
        "2026-03-10",
        "2026-03-17",
        "2026-03-24",
        "2026-03-31",
        "2026-04-07",
    ]
    first = sessions[0]
    assert (first.coach, first.coachee, first.status) == (org.manager, org.rep, "scheduled")
    assert first.notes is not None


@pytest.mark.django_db
def test_running_twice_creates_nothing_twice(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        weekly_plan()
        assert occurrences_generate() == 6
        assert occurrences_generate() == 0
    with time_machine.travel(MONDAY + timedelta(days=7), tick=False):
        assert occurrences_generate() == 1  # the window rolled forward one week
    assert Occurrence.objects.count() == CoachingSession.objects.count() == 7


@pytest.mark.django_db
def test_a_plan_is_due_again_only_when_its_next_slot_comes_within_the_horizon(
    org, weekly_plan, django_assert_num_queries
):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan()
        assert occurrences_generate() == 6
    plan.refresh_from_db()
    # Six Tuesdays made up to the horizon (Monday 13 April); the seventh is next.
    assert plan.generated_until == datetime(2026, 4, 14, 8, 0, tzinfo=UTC)  # 10:00 CEST
    for hours in (1, 12, 23):  # beat's hourly runs that day: one query, no plan touched
        later = MONDAY + timedelta(hours=hours)
        with time_machine.travel(later, tick=False), django_assert_num_queries(1):
            assert occurrences_generate() == 0
    with time_machine.travel(MONDAY + timedelta(days=1, minutes=1), tick=False):
        assert occurrences_generate() == 1  # the seventh Tuesday is now within six weeks
    plan.refresh_from_db()
    assert plan.generated_until == datetime(2026, 4, 21, 8, 0, tzinfo=UTC)


@pytest.mark.django_db
def test_a_plan_without_a_next_slot_is_looked_at_again_nine_weeks_on(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        ending = weekly_plan(ends_on=date(2026, 3, 20))
        later = weekly_plan(coachee=org.peer, starts_on=date(2026, 9, 1))
        assert occurrences_generate() == 3  # the ending plan's three Tuesdays
    horizon = MONDAY + timedelta(weeks=6)
    for plan in (ending, later):
        plan.refresh_from_db()
        assert plan.generated_until == horizon + timedelta(weeks=9)
    with time_machine.travel(MONDAY + timedelta(weeks=9), tick=False):
        assert occurrences_generate() == 0  # not due yet
    # Nine weeks on, the plan starting on 1 September is due and makes its first week.
    with time_machine.travel(MONDAY + timedelta(weeks=9, minutes=1), tick=False):
        assert occurrences_generate() == 0
        later.refresh_from_db()
        assert later.generated_until == horizon + timedelta(weeks=18, minutes=1)
    with time_machine.travel(datetime(2026, 7, 22, 8, 0, tzinfo=UTC), tick=False):
        assert occurrences_generate() == 1  # Tuesday 1 September, six weeks ahead


@pytest.mark.django_db
def test_a_moved_occurrence_keeps_its_slot_and_is_not_recreated(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan()
        occurrences_generate()
        first = CoachingSession.objects.filter(occurrence__plan=plan).earliest("scheduled_start")
        session_reschedule(
            session=first, actor=org.manager, start=first.scheduled_start + timedelta(days=1)
        )
        plan.generated_until = None
        plan.save()
        assert occurrences_generate() == 0
    first.refresh_from_db()
    assert first.occurrence.slot_start == first.original_start != first.scheduled_start


@pytest.mark.django_db
def test_editing_the_plan_replaces_only_untouched_future_sessions(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan()
        occurrences_generate()
        s1, s2, s3, s4, *_ = CoachingSession.objects.filter(occurrence__plan=plan).order_by(
            "scheduled_start"
        )
        notes_save(session=s2, actor=org.rep, base_version=0, changes={"reality": "prepared"})
        session_cancel(session=s3, actor=org.manager, reason="out_of_office")
        session_reschedule(
            session=s4, actor=org.manager, start=s4.scheduled_start + timedelta(hours=2)
        )
    with time_machine.travel(s1.scheduled_end + timedelta(minutes=5), tick=False):
        session_mark_held(session=s1, actor=org.manager)
        plan_update(plan=plan, actor=org.manager, weekday=3, local_time=time(15, 0))
        occurrences_generate()
    kept = {s1.pk, s2.pk, s3.pk, s4.pk}
    assert kept <= set(CoachingSession.objects.values_list("pk", flat=True))
    new = CoachingSession.objects.filter(occurrence__plan=plan).exclude(pk__in=kept)
    berlin = org.manager.tzinfo
    assert {
        (
            timezone.localtime(s.scheduled_start, berlin).weekday(),
            timezone.localtime(s.scheduled_start, berlin).hour,
        )
        for s in new
    } == {(3, 15)}
    s1.refresh_from_db()
    assert s1.status == SessionStatus.HELD


@pytest.mark.django_db
def test_an_ended_or_paused_plan_generates_nothing_and_ending_keeps_history(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan()
        occurrences_generate()
        first = CoachingSession.objects.filter(occurrence__plan=plan).earliest("scheduled_start")
        notes_save(session=first, actor=org.rep, base_version=0, changes={"goal": "Pricing"})
        plan_end(plan=plan, actor=org.manager, reason="new_manager")
    assert list(CoachingSession.objects.filter(occurrence__plan=plan)) == [first]
    with time_machine.travel(MONDAY + timedelta(days=14), tick=False):
        assert occurrences_generate() == 0


@pytest.mark.django_db
def test_ending_a_plan_needs_a_reason_and_another_manager_cannot(org, weekly_plan):
    from django.core.exceptions import ValidationError
    from django.http import Http404

    plan = weekly_plan()
    with pytest.raises(ValidationError):
        plan_end(plan=plan, actor=org.manager, reason="other")
    with pytest.raises(Http404):
        plan_end(plan=plan, actor=org.other_manager, reason="leave")
    plan_end(plan=plan, actor=org.head, reason="leave")  # the coach's manager may
    plan.refresh_from_db()
    assert plan.end_reason == "leave"


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_two_generators_at_once_create_each_slot_once(org, weekly_plan):
    """Real PostgreSQL, two threads: the plan lock makes the second see the first."""
    import threading

    from django.db import connection

    for other in (org.peer,):
        weekly_plan(coachee=other)
    weekly_plan()
    barrier, results = threading.Barrier(2), []

    def run():
        try:
            barrier.wait()
            results.append(occurrences_generate())
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(results) == Occurrence.objects.count() == 12
    assert CoachingSession.objects.count() == 12


@pytest.mark.django_db
def test_the_call_review_host_rotates_and_carries_on_after_the_last_one(org, weekly_plan):
    """Everyone on the team but its manager hosts in turn, by name; a later run starts
    after whoever hosted the latest review, as does a second team's plan beside it."""
    zoe = UserFactory(display_name="Zoe Zimmer", manager=org.manager)
    team = Team.objects.create(name="Closers", lead=org.manager)
    other = Team.objects.create(name="Openers", lead=org.other_manager)
    for person in (org.manager, org.rep, org.peer, zoe):
        TeamMembership.objects.create(team=team, person=person)
    for person in (org.other_manager, org.other_rep):
        TeamMembership.objects.create(team=other, person=person)

    def hosts(of):
        return list(
            CoachingSession.objects.filter(team=of, participants__role="host")
            .order_by("scheduled_start")
            .values_list("participants__person__display_name", flat=True)
        )

    with time_machine.travel(MONDAY, tick=False):
        weekly_plan(kind="team_call_review", coachee=None, team=team, weekday=3)
        weekly_plan(
            kind="team_call_review", coach=org.other_manager, coachee=None, team=other, weekday=3
        )
        assert occurrences_generate() == 12
    assert hosts(team) == ["Pavel Peer", "Rita Rep", "Zoe Zimmer"] * 2
    assert hosts(other) == ["Olga Outsider"] * 6
    with time_machine.travel(MONDAY + timedelta(days=14), tick=False):
        assert occurrences_generate() == 4
    assert hosts(team) == ["Pavel Peer", "Rita Rep", "Zoe Zimmer"] * 2 + ["Pavel Peer", "Rita Rep"]


@pytest.mark.django_db
def test_a_call_review_is_for_the_teams_active_current_members_in_name_order(org, weekly_plan):
    """Members who left the team or whose account is switched off are not invited; the
    others speak, and host in turn, in the order of their names."""
    team = Team.objects.create(name="Closers", lead=org.manager)
    switched_off = UserFactory(display_name="Adam Away", manager=org.manager, is_active=False)
    left = UserFactory(display_name="Bea Before", manager=org.manager)
    zoe = UserFactory(display_name="Zoe Zimmer", manager=org.manager)
    able = UserFactory(display_name="Abe Able", manager=org.manager)
    for person in (org.manager, zoe, org.rep, switched_off, left, able):
        TeamMembership.objects.create(team=team, person=person)
    TeamMembership.objects.filter(person=left).update(
        joined_at=MONDAY - timedelta(days=30), left_at=MONDAY - timedelta(days=1)
    )

    with time_machine.travel(MONDAY, tick=False):
        weekly_plan(kind="team_call_review", coachee=None, team=team, weekday=3)
        occurrences_generate()
    sessions = CoachingSession.objects.filter(team=team).order_by("scheduled_start")
    invited = list(
        sessions[0]
        .participants.order_by("speaking_order")
        .values_list("person__display_name", "role")
    )
    assert invited == [
        ("Abe Able", "host"),
        ("Rita Rep", "participant"),
        ("Zoe Zimmer", "participant"),
        ("Mia Manager", "manager"),
    ]
    hosts = [s.participants.get(role="host").person.display_name for s in sessions]
    assert hosts == ["Abe Able", "Rita Rep", "Zoe Zimmer"] * 2
