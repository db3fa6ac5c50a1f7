"""With many plans due, beat's generation hands them out in id ranges, one task each,
for workers to write side by side; what gets made is exactly what one run makes."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from cadence import tasks
from cadence.engine import occurrences_due_ranges, occurrences_generate
from cadence.models import CadencePlan, Occurrence
from coaching.models import CoachingSession

MONDAY = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


@pytest.fixture
def three_plans(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):  # starting that week
        return [
            weekly_plan(),
            weekly_plan(coachee=org.peer),
            weekly_plan(coach=org.other_manager, coachee=org.other_rep),
        ]


def made():
    return sorted(Occurrence.objects.values_list("plan_id", "slot_start"))


@pytest.mark.django_db
def test_due_plans_come_as_disjoint_ranges_in_id_order(three_plans):
    ids = sorted(p.pk for p in three_plans)
    with time_machine.travel(MONDAY, tick=False):
        assert occurrences_due_ranges(2) == [(ids[0], ids[1]), (ids[2], ids[2])]
        assert occurrences_due_ranges(5) == [(i, i) for i in ids]
        assert occurrences_due_ranges(2, split_from=4) == [(ids[0], ids[2])]
        occurrences_generate()
        assert occurrences_due_ranges(2) == []  # nothing due until the horizon moves


@pytest.mark.django_db
def test_one_range_generates_its_plans_only(three_plans):
    first, second, third = sorted(three_plans, key=lambda p: p.pk)
    with time_machine.travel(MONDAY, tick=False):
        assert tasks.generate_occurrences_for(first.pk, second.pk) == 12
        assert {plan_id for plan_id, _ in made()} == {first.pk, second.pk}
        assert tasks.generate_occurrences_for(first.pk, second.pk) == 0  # repeated message
        third.refresh_from_db()
        assert third.generated_until is None


@pytest.mark.django_db
def test_the_split_run_makes_what_one_run_makes(three_plans, settings):
    settings.CADENCE_GENERATORS, settings.CADENCE_GENERATE_SPLIT_FROM = 2, 1
    with time_machine.travel(MONDAY, tick=False):
        assert tasks.generate_occurrences() == 0  # handed on (run in-process: eager)
        split = made()
        CoachingSession.objects.all().delete()
        CadencePlan.objects.update(generated_until=None)
        assert occurrences_generate() == len(split) == 18
        assert made() == split
        assert tasks.generate_occurrences() == 0
        assert Occurrence.objects.count() == 18  # nothing twice
    with time_machine.travel(MONDAY + timedelta(days=7), tick=False):
        tasks.generate_occurrences()
        assert Occurrence.objects.count() == 21  # the window rolled on a week per plan
    horizon = MONDAY + timedelta(days=7, weeks=6)
    for plan in CadencePlan.objects.all():  # each plan is due again at its next slot
        latest = plan.occurrences.latest("slot_start").slot_start
        assert plan.generated_until == latest + timedelta(weeks=1) >= horizon


@pytest.mark.django_db
def test_below_the_threshold_it_generates_in_place(three_plans, settings):
    settings.CADENCE_GENERATORS, settings.CADENCE_GENERATE_SPLIT_FROM = 2, 4
    with time_machine.travel(MONDAY, tick=False):
        assert tasks.generate_occurrences() == 18


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_ranges_side_by_side_and_a_repeated_one_make_each_slot_once(three_plans):
    """Real PostgreSQL, three threads: two ranges and a repeat of the first."""
    import threading

    from django.db import connection

    ranges = occurrences_due_ranges(2, now=MONDAY)
    barrier, results = threading.Barrier(3), []

    def run(first, last):
        try:
            barrier.wait()
            results.append(occurrences_generate(now=MONDAY, id_range=(first, last)))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=r) for r in [*ranges, ranges[0]]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(results) == Occurrence.objects.count() == CoachingSession.objects.count() == 18
