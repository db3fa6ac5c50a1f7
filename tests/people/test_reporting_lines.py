import pytest
import time_machine
from django.core.exceptions import ValidationError

from people.models import AuditEvent, ReportingLine
from people.services import reporting_line_change
from tests.support.factories import UserFactory


@pytest.mark.django_db
def test_it_closes_the_old_line_and_opens_a_new_one_keeping_history():
    old_manager, new_manager = UserFactory(), UserFactory()
    with time_machine.travel("2026-01-05 09:00Z"):
        rep = UserFactory(manager=old_manager)
    with time_machine.travel("2026-03-02 09:00Z"):
        reporting_line_change(person=rep, manager=new_manager)

    rep.refresh_from_db()
    assert rep.reports_to == new_manager
    lines = list(ReportingLine.objects.filter(report=rep).order_by("started_at"))
    assert [
        (
            line.manager,
            line.started_at.date().isoformat(),
            line.ended_at and line.ended_at.date().isoformat(),
        )
        for line in lines
    ] == [
        (old_manager, "2026-01-05", "2026-03-02"),
        (new_manager, "2026-03-02", None),
    ]


@pytest.mark.django_db
def test_it_changes_nothing_when_the_manager_is_unchanged():
    manager = UserFactory()
    rep = UserFactory(manager=manager)
    reporting_line_change(person=rep, manager=manager)
    assert ReportingLine.objects.filter(report=rep).count() == 1


@pytest.mark.django_db
def test_it_refuses_a_loop_and_writes_nothing():
    top = UserFactory()
    middle = UserFactory(manager=top)
    bottom = UserFactory(manager=middle)
    with pytest.raises(ValidationError, match="loop"):
        reporting_line_change(person=top, manager=bottom)
    top.refresh_from_db()
    assert top.reports_to is None
    assert not ReportingLine.objects.filter(report=top).exists()


@pytest.mark.django_db
def test_it_refuses_reporting_to_oneself_or_a_deactivated_manager():
    person = UserFactory()
    gone = UserFactory(is_active=False)
    with pytest.raises(ValidationError, match="themselves"):
        reporting_line_change(person=person, manager=person)
    with pytest.raises(ValidationError, match="deactivated"):
        reporting_line_change(person=person, manager=gone)


@pytest.mark.django_db
def test_it_records_who_changed_the_line_in_the_audit_trail():
    actor, manager, rep = UserFactory(), UserFactory(), UserFactory()
    reporting_line_change(person=rep, manager=manager, actor=actor)
    event = AuditEvent.objects.get(verb="reporting_line.changed")
    assert event.actor == actor
    assert event.target_id == str(rep.pk)
    assert event.data == {"from_manager_id": None, "to_manager_id": manager.pk}


@pytest.mark.django_db
def test_it_takes_effect_on_the_very_next_request(client):
    first, second = UserFactory(), UserFactory()
    rep = UserFactory(manager=first)
    client.force_login(rep)
    assert client.get("/api/v1/me/").json()["manager"]["id"] == first.pk
    reporting_line_change(person=rep, manager=second)
    assert client.get("/api/v1/me/").json()["manager"]["id"] == second.pk
