"""`people.below`: who is below someone, kept while the reporting lines stay as they
are. Every way the lines change — through the services, a bulk update, a deletion,
a rolled-back change, a seed that writes with the triggers off — gives the next
read the new answer, never one kept from before."""

import threading

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from people.below import Below, below_of, reporting_changed
from people.models import ReportingVersion, User
from people.selectors import people_below
from people.services import account_deactivate, reporting_line_change
from people.services_profile import profile_update
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(org):
    """A manager of three managers, each with a rep: Ana, Ben, Cleo by name."""
    boss = UserFactory(display_name="Bo Boss", manager=org.head)
    boss.managers = {}
    for name in ("Cleo", "Ana", "Ben"):
        manager = UserFactory(display_name=f"{name} Manager", manager=boss)
        manager.rep = UserFactory(display_name=f"{name}'s rep", manager=manager)
        boss.managers[name] = manager
    return boss


def names(summary: Below) -> list[str]:
    found = User.objects.in_bulk(summary.managers)
    return [found[pk].display_name for pk in summary.managers]


def queries(work) -> int:
    with CaptureQueriesContext(connection) as captured:
        work()
    return len(captured)


def test_it_counts_the_active_people_below_and_lists_the_managers_by_name(boss):
    """The same numbers as counting each list on its own: the inactive left out, and
    a manager whose only report left is no manager."""
    gone = UserFactory(manager=boss)
    account_deactivate(actor=None, person=gone)
    alone = UserFactory(display_name="Fay Manager", manager=boss)
    account_deactivate(actor=None, person=UserFactory(manager=alone))

    summary = below_of(boss)

    assert summary.everyone == people_below(person=boss).filter(is_active=True).count() == 7
    assert names(summary) == ["Ana Manager", "Ben Manager", "Cleo Manager"]
    assert below_of(boss.managers["Ana"]) == Below(1, ())


def test_a_second_read_costs_one_query_while_the_lines_stay_as_they_are(boss):
    first_cost = queries(lambda: below_of(boss))
    assert queries(lambda: below_of(boss)) == 1 < first_cost
    UserFactory(display_name="Someone else entirely")  # not below the boss: still new
    assert queries(lambda: below_of(boss)) == first_cost


def test_a_move_a_departure_a_rename_and_a_newcomer_are_each_seen_at_once(org, boss):
    ana, ben, cleo = (boss.managers[n] for n in ("Ana", "Ben", "Cleo"))
    below_of(boss)

    reporting_line_change(person=cleo, manager=org.head)  # moved away, with her rep
    assert below_of(boss).everyone == 4
    assert names(below_of(boss)) == ["Ana Manager", "Ben Manager"]

    account_deactivate(actor=None, person=ben.rep)  # Ben manages nobody now
    assert names(below_of(boss)) == ["Ana Manager"]

    profile_update(person=ana, display_name="Zoe Manager", time_zone=ana.time_zone)
    UserFactory(manager=ben)  # Ben manages again
    assert names(below_of(boss)) == ["Ben Manager", "Zoe Manager"]
    assert below_of(boss).everyone == 4  # Ana, her rep, Ben, his new rep


def test_a_bulk_update_and_a_deletion_without_signals_are_seen(boss):
    """`QuerySet.update` and `delete` send no model signals: the trigger is in the
    database, so they change the version all the same."""
    ana = boss.managers["Ana"]
    below_of(boss)
    User.objects.filter(pk=ana.rep.pk).update(is_active=False)
    assert names(below_of(boss)) == ["Ben Manager", "Cleo Manager"]
    User.objects.filter(pk=boss.managers["Ben"].rep.pk).delete()
    assert below_of(boss) == Below(4, (boss.managers["Cleo"].pk,))


def test_a_change_rolled_back_leaves_nothing_kept_behind(org, boss):
    """Read inside the changing transaction, the summary is kept under the change's
    version; the rollback takes that version back, so it is never read again."""
    before = below_of(boss)
    with pytest.raises(RuntimeError), transaction.atomic():
        reporting_line_change(person=boss.managers["Cleo"], manager=org.head)
        assert below_of(boss).everyone == 4
        raise RuntimeError("changed our mind")
    assert below_of(boss) == before


def test_writing_people_with_the_triggers_off_is_said_by_the_writer(boss):
    """The scale seed writes people with `COPY`, as a superuser without triggers;
    `reporting_changed` is how it says so."""
    version = ReportingVersion.objects.get(pk=1).value
    reporting_changed()
    assert ReportingVersion.objects.get(pk=1).value != version


def test_a_save_that_changes_nothing_below_keeps_the_summary(boss):
    below_of(boss)
    rep = boss.managers["Ana"].rep
    rep.time_zone, rep.last_login = "Asia/Tokyo", timezone.now()
    rep.save(update_fields=["time_zone", "last_login"])  # as signing in saves
    assert queries(lambda: below_of(boss)) == 1


def test_without_a_version_row_it_works_the_summary_out_each_time(boss):
    """After a flush empties the table, until someone is written again."""
    expected = below_of(boss)
    ReportingVersion.objects.all().delete()
    assert below_of(boss) == expected
    assert queries(lambda: below_of(boss)) > 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two connections: PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_a_change_another_connection_is_making_is_seen_once_it_commits(org, boss):
    """Read while another transaction moves Cleo (not yet committed), the summary is
    the old one, kept under the old version; the commit brings its new version with
    it, so the next read is the new summary, not the one kept."""
    before = below_of(boss)
    moved, commit = threading.Event(), threading.Event()

    def hr():  # on a connection of its own
        with transaction.atomic():
            reporting_line_change(person=boss.managers["Cleo"], manager=org.head)
            moved.set()
            commit.wait(timeout=30)
        connection.close()

    thread = threading.Thread(target=hr)
    thread.start()
    try:
        assert moved.wait(timeout=30)
        assert below_of(boss) == before
    finally:
        commit.set()
        thread.join()
    assert below_of(boss) == Below(4, (boss.managers["Ana"].pk, boss.managers["Ben"].pk))
