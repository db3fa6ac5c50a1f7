"""On PostgreSQL the generator writes its rows with COPY (cadence/engine.py,
`_insert_copy`); everywhere else with the ORM. Both must write exactly the same rows:
every kind of plan, time zones across a daylight-saving change, host rotation, focus
areas, pairs."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.db import IntegrityError, connection, transaction
from django.forms.models import model_to_dict

from cadence import engine
from cadence.engine import _copy_text, _Draft, occurrences_generate
from cadence.models import CadencePlan, Occurrence, Recurrence
from cadence.services import plan_create
from coaching.models import CoachingSession, FocusArea, SharedNotes
from people.models import Team, TeamMembership
from tests.support.factories import UserFactory
from tests.support.peers_pairs import active_pair

MONDAY = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)  # US clocks change on 8 March, Berlin's on 29


def every_kind_of_plan(org) -> None:
    FocusArea.objects.create(
        name="Discovery questions",
        behaviours="Open questions before the demo",
        starts_on=date(2026, 2, 1),
    )
    team = Team.objects.create(name="Closers", lead=org.manager)
    for person in (org.manager, org.rep, org.peer):
        TeamMembership.objects.create(team=team, person=person)
    plans = [
        dict(kind="one_on_one", coach=org.manager, coachee=org.rep, weekday=1),
        dict(
            kind="one_on_one",
            coach=org.manager,
            coachee=org.peer,
            weekday=0,
            local_time=time(9, 30),
            time_zone="America/New_York",
            duration_minutes=45,
        ),
        dict(kind="team_call_review", coach=org.manager, team=team, weekday=3),
        dict(
            kind="role_play",
            coach=org.manager,
            team=team,
            recurrence=Recurrence.MONTHLY_NTH,
            weekday=2,
            week_of_month=2,
        ),
        dict(
            kind="manager_review",
            coach=org.head,
            coachee=org.manager,
            recurrence=Recurrence.MONTHLY_LAST,
            weekday=4,
            time_zone="Asia/Kathmandu",
        ),
        dict(kind="peer", coach=org.other_rep, coachee=org.rep, weekday=4),
    ]
    for fields in plans:
        plan_create(**{"local_time": time(10, 0), "generate": False, **fields})
    active_pair(org.manager, org.rep, org.peer, interval_weeks=1)


def rows() -> list:
    """Everything generated, without ids: per occurrence in session-id order, the
    session, its participants in speaking order and its shared notes."""
    made = []
    for occurrence in Occurrence.objects.select_related("session").order_by("session_id"):
        session = occurrence.session
        made.append(
            (
                occurrence.plan_id,
                occurrence.slot_start,
                model_to_dict(session, exclude=["id"]),
                list(
                    session.participants.order_by("speaking_order").values_list(
                        "person_id", "role", "speaking_order"
                    )
                ),
                model_to_dict(SharedNotes.objects.get(session=session), exclude=["id", "session"]),
            )
        )
    return made


@pytest.mark.django_db
@pytest.mark.postgres
@pytest.mark.parametrize("without_triggers", [True, False])
def test_copy_writes_exactly_the_rows_the_orm_writes(org, monkeypatch, without_triggers):
    copies, skipped = [], []
    real_copy, real_locked = engine._insert_copy, engine._references_locked
    monkeypatch.setattr(engine, "_insert_copy", lambda drafts: copies.append(real_copy(drafts)))
    monkeypatch.setattr(
        engine, "_references_locked", lambda *a: skipped.append(real_locked(*a)) or skipped[-1]
    )
    monkeypatch.setattr(engine, "COPY_WITHOUT_FK_TRIGGERS", without_triggers)
    with time_machine.travel(MONDAY, tick=False):  # created_at and updated_at: now
        every_kind_of_plan(org)
        monkeypatch.setattr(engine, "COPY_ROWS", False)
        made = occurrences_generate()
        by_orm = rows()
        assert not copies
        CoachingSession.objects.all().delete()
        CadencePlan.objects.update(generated_until=None)

        monkeypatch.setattr(engine, "COPY_ROWS", True)
        assert occurrences_generate() == made
        assert copies
        by_copy = rows()
        assert occurrences_generate() == 0  # and it is idempotent as before
    assert made == len(by_orm) > 30
    assert {session["kind"] for _, _, session, _, _ in by_orm} == {
        "one_on_one",
        "team_call_review",
        "role_play",
        "manager_review",
        "peer",
    }
    assert by_copy == by_orm
    assert skipped and set(skipped) == {without_triggers}  # the test role is a superuser
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # every reference holds
        cursor.execute("SHOW session_replication_role")
        assert cursor.fetchone()[0] == "origin"  # set back after the COPYs
    horizon = MONDAY + timedelta(weeks=6)
    assert min(CadencePlan.objects.values_list("generated_until", flat=True)) >= horizon


@pytest.mark.django_db
@pytest.mark.postgres
def test_a_second_generation_by_copy_adds_only_the_new_week(org):
    with time_machine.travel(MONDAY, tick=False):
        every_kind_of_plan(org)
        first = occurrences_generate()
        ids = set(CoachingSession.objects.values_list("pk", flat=True))
    with time_machine.travel(MONDAY + timedelta(days=7), tick=False):
        more = occurrences_generate()
    assert 0 < more < first
    assert Occurrence.objects.count() == CoachingSession.objects.count() == first + more
    assert SharedNotes.objects.count() == first + more
    new = CoachingSession.objects.exclude(pk__in=ids)
    assert min(new.values_list("pk", flat=True)) > max(ids)  # from the same sequence
    assert all(s.participants.count() >= 2 for s in new)


def test_copy_text_escapes_what_copy_would_misread():
    assert _copy_text(None) == "\\N"
    assert _copy_text(True) == "t" and _copy_text(False) == "f"
    assert _copy_text(42) == "42"
    assert _copy_text("a\tb\\c\nd\re") == "a\\tb\\\\c\\nd\\re"
    assert _copy_text(MONDAY) == "2026-03-02T08:00:00+00:00"


def draft(*people, plan) -> _Draft:
    return _Draft(
        plan_id=plan.pk,
        slot=MONDAY,
        kind="one_on_one",
        end=MONDAY + timedelta(minutes=30),
        duration_minutes=30,
        team_id=None,
        focus_area_id=None,
        people=[(people[0], "coach"), *((p, "coachee") for p in people[1:])],
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_without_triggers_the_people_referenced_are_locked_until_commit(org):
    """The lock the triggers would take (FOR KEY SHARE) is taken for all of a batch's
    people at once: until the batch commits, another transaction cannot delete one
    (its FOR UPDATE fails); afterwards it can."""
    import threading

    from django.db import connections

    plan = plan_create(kind="one_on_one", coach=org.manager, coachee=org.rep, weekday=1,
                       local_time=time(10, 0), generate=False)  # fmt: skip

    def lock_the_rep_elsewhere() -> str:
        outcome = []

        def lock():
            other = connections.create_connection("default")
            try:
                with other.cursor() as cursor:
                    cursor.execute("SELECT id FROM people_user WHERE id = %s FOR UPDATE NOWAIT",
                                   [org.rep.pk])  # fmt: skip
                    outcome.append(f"locked {len(cursor.fetchall())}")
            except Exception as exc:  # noqa: BLE001 — the lock error is what we look for
                outcome.append(str(exc))
            finally:
                other.close()

        thread = threading.Thread(target=lock)
        thread.start()
        thread.join()
        return outcome[0]

    with transaction.atomic(), connection.cursor() as cursor:
        assert engine._references_locked(cursor, [draft(org.manager.pk, org.rep.pk, plan=plan)])
        assert "could not obtain lock" in lock_the_rep_elsewhere()
    assert lock_the_rep_elsewhere() == "locked 1"


@pytest.mark.django_db
@pytest.mark.postgres
def test_a_reference_already_gone_keeps_the_triggers_and_they_refuse_the_batch(org):
    plan = plan_create(kind="one_on_one", coach=org.manager, coachee=org.rep, weekday=1,
                       local_time=time(10, 0), generate=False)  # fmt: skip
    gone = UserFactory()
    gone_pk = gone.pk
    gone.delete()
    batch = [draft(org.manager.pk, gone_pk, plan=plan)]
    with connection.cursor() as cursor:
        assert not engine._references_locked(cursor, batch)
    with pytest.raises(IntegrityError), transaction.atomic():
        engine._insert_copy(batch)
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert not Occurrence.objects.filter(plan=plan).exists()


@pytest.mark.django_db
@pytest.mark.postgres
def test_a_role_that_may_not_set_the_replication_role_keeps_the_triggers(org):
    import uuid

    plan = plan_create(kind="one_on_one", coach=org.manager, coachee=org.rep, weekday=1,
                       local_time=time(10, 0), generate=False)  # fmt: skip
    role = f"tandem_plain_{uuid.uuid4().hex[:12]}"  # rolled back with the test
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {role} NOLOGIN")
        cursor.execute(f"GRANT SELECT ON people_user TO {role}")
        cursor.execute(f"SET LOCAL ROLE {role}")
        assert not engine._may_skip_triggers(cursor)
        assert not engine._references_locked(cursor, [draft(org.manager.pk, plan=plan)])
        cursor.execute("RESET ROLE")
        assert engine._may_skip_triggers(cursor)
