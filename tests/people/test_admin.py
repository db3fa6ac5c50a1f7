"""Programme admins manage people in the admin site; reporting-line edits there keep
history and audit like every other change."""

import pytest

from people.models import AuditEvent, ReportingLine
from tests.support.people_admin import change_form_data


@pytest.mark.django_db
def test_changing_a_manager_in_the_admin_keeps_history_and_is_audited(client, org):
    client.force_login(org.admin)
    url = f"/admin/people/user/{org.rep.pk}/change/"
    response = client.post(url, change_form_data(org.rep, reports_to=org.other_manager.pk))
    assert response.status_code == 302, response.content.decode()[:2000]

    org.rep.refresh_from_db()
    assert org.rep.reports_to == org.other_manager
    lines = ReportingLine.objects.filter(report=org.rep).order_by("started_at")
    assert [line.manager for line in lines] == [org.manager, org.other_manager]
    assert lines[0].ended_at is not None
    event = AuditEvent.objects.filter(verb="reporting_line.changed").latest("at")
    assert event.actor == org.admin


@pytest.mark.django_db
def test_a_loop_is_refused_in_the_admin_with_a_message(client, org):
    client.force_login(org.admin)
    url = f"/admin/people/user/{org.head.pk}/change/"
    response = client.post(url, change_form_data(org.head, reports_to=org.rep.pk))
    assert response.status_code == 200
    assert b"that would make a loop" in response.content
    org.head.refresh_from_db()
    assert org.head.reports_to is None


@pytest.mark.django_db
def test_the_audit_log_is_read_only(client, org):
    client.force_login(org.admin)
    assert client.get("/admin/people/auditevent/").status_code == 200
    assert client.get("/admin/people/auditevent/add/").status_code == 403
