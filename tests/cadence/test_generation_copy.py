"""On PostgreSQL the generator writes its rows with COPY (cadence/engine.py,
`_insert_copy`); everywhere else with the ORM. Both must write exactly the same rows:
every kind of plan, time zones across a daylight-saving change, host rotation, focus
areas, pairs."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.forms.models import model_to_dict

from cadence import engine
from cadence.engine import _copy_text, occurrences_generate
from cadence.models import CadencePlan, Occurrence, Recurrence
from cadence.services import plan_create
from coaching.models import CoachingSession, FocusArea, SharedNotes
from people.models import Team, TeamMembership
from tests.coaching.pairs_support import active_pair

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
def test_copy_writes_exactly_the_rows_the_orm_writes(org, monkeypatch):
    copies = []
    real_copy = engine._insert_copy
    monkeypatch.setattr(engine, "_insert_copy", lambda drafts: copies.append(real_copy(drafts)))
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
