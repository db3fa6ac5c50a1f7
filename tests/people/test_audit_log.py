"""The audit log in the admin site is read-only for everyone — superusers included —
and can be filtered by verb, actor (a name's link) and date and searched; access
changes made by hand in the admin (groups, staff and superuser flags) are audited like
the services'."""

import datetime as dt
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from people.models import AuditEvent
from people.roles import GROUP_FOR_ROLE, Role
from tests.support.factories import AuditEventFactory

pytestmark = pytest.mark.django_db

LIST = "/admin/people/auditevent/"


@pytest.fixture
def events(org):
    old = timezone.now() - dt.timedelta(days=40)
    return [
        AuditEventFactory(actor=org.hr, verb="feedback.evaluative_read", target_repr="Feedback #7"),
        AuditEventFactory(actor=org.manager, verb="dashboards.export", target_repr="team-x"),
        AuditEventFactory(actor=org.rep, verb="mfa.added", at=old),
    ]


@pytest.mark.parametrize("who", ["admin", "root"])
def test_nobody_can_add_change_or_delete_an_event(client, org, root, events, who):
    client.force_login(root if who == "root" else org.admin)
    event = events[0]
    assert client.get(LIST).status_code == 200
    assert client.get(f"{LIST}add/").status_code == 403
    view = client.get(f"{LIST}{event.pk}/change/")
    assert view.status_code == 200
    assert b'name="verb"' not in view.content  # shown, not editable
    posted = client.post(f"{LIST}{event.pk}/change/", {"verb": "tampered"})
    assert posted.status_code == 403
    assert client.get(f"{LIST}{event.pk}/delete/").status_code == 403
    assert client.post(f"{LIST}{event.pk}/delete/", {"post": "yes"}).status_code == 403
    bulk = client.post(LIST, {"action": "delete_selected", "_selected_action": [event.pk]})
    assert bulk.status_code in (200, 302)
    event.refresh_from_db()
    assert event.verb == "feedback.evaluative_read"
    assert AuditEvent.objects.filter(pk__in=[e.pk for e in events]).count() == 3


def listed(client, query) -> set[str]:
    response = client.get(f"{LIST}?{query}")
    assert response.status_code == 200
    rows = response.context["cl"].result_list
    return {event.verb for event in rows}


def test_the_list_filters_by_verb_actor_and_date_and_searches(client, org, events):
    client.force_login(org.admin)
    assert listed(client, "verb=dashboards.export") == {"dashboards.export"}
    assert listed(client, f"actor__id__exact={org.hr.pk}") == {"feedback.evaluative_read"}
    # The date filter's "Past 7 days" (its own parameters).
    today = timezone.now().replace(hour=0, minute=0, second=0, microsecond=0)
    week = {"at__gte": today - dt.timedelta(days=7), "at__lt": today + dt.timedelta(days=1)}
    recent = listed(client, urlencode({k: str(v) for k, v in week.items()}))
    assert "dashboards.export" in recent and "mfa.added" not in recent
    assert "mfa.added" in listed(client, "")
    assert listed(client, "q=hr%40example.com") == {"feedback.evaluative_read"}
    assert listed(client, "q=team-x") == {"dashboards.export"}
    page = client.get(LIST).content.decode()
    assert "By verb" in page and "By at" in page
    assert "Evaluative feedback read" in page  # the catalogue's words for the verb
    # A name in the list links to that person's events.
    assert f'href="{LIST}?actor__id__exact={org.hr.pk}"' in page


def test_the_list_reads_no_column_of_the_whole_trail(
    client, org, events, django_assert_num_queries
):
    """At millions of events, every distinct verb, actor or year is a scan: the page is
    the session, the person, their permissions (two), one count and the page."""
    client.force_login(org.admin)
    client.get(LIST)
    with django_assert_num_queries(6) as captured:
        assert client.get(LIST).status_code == 200
    sql = " ".join(q["sql"] for q in captured.captured_queries)
    assert "DISTINCT" not in sql


def test_people_outside_the_admin_site_cannot_read_the_log(client, org, events):
    for who in ("rep", "manager", "hr", "head"):
        client.force_login(getattr(org, who))
        assert client.get(LIST).status_code == 404  # the admin site is invisible to them
    client.logout()
    assert client.get(LIST).status_code == 302


def change_form(person, **overrides):
    data = {
        "email": person.email,
        "display_name": person.display_name,
        "time_zone": person.time_zone,
        "reports_to": person.reports_to_id or "",
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "09:00:00",
        "groups": [g.pk for g in person.groups.all()],
    }
    # A superuser sees the reporting-line history inline (read only): its management form.
    lines = list(person.reporting_history.order_by("-started_at"))
    data["reporting_history-TOTAL_FORMS"] = data["reporting_history-INITIAL_FORMS"] = len(lines)
    for n, line in enumerate(lines):
        data[f"reporting_history-{n}-id"] = line.pk
        data[f"reporting_history-{n}-report"] = person.pk
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def test_group_edits_in_the_admin_are_audited_as_role_changes(client, org, root):
    client.force_login(root)
    hr = Group.objects.get(name=GROUP_FOR_ROLE[Role.HR])
    other = Group.objects.create(name="Readers")
    url = f"/admin/people/user/{org.rep.pk}/change/"
    response = client.post(url, change_form(org.rep, groups=[hr.pk, other.pk]))
    assert response.status_code == 302, response.content.decode()[:2000]
    granted = AuditEvent.objects.get(verb="role.granted")
    assert granted.actor == root and granted.target_id == str(org.rep.pk)
    assert granted.data == {"role": "hr", "via": "admin"}
    assert AuditEvent.objects.get(verb="group.added").data == {"group": "Readers", "via": "admin"}

    org.rep.refresh_from_db()
    client.post(url, change_form(org.rep, groups=[other.pk]))
    assert AuditEvent.objects.get(verb="role.revoked").data == {"role": "hr", "via": "admin"}
    client.post(url, change_form(org.rep, groups=[other.pk]))  # nothing changed: no event
    assert AuditEvent.objects.filter(verb__in=["role.granted", "role.revoked"]).count() == 2


def test_staff_and_superuser_flags_changed_in_the_admin_are_audited(client, org, root):
    client.force_login(root)
    url = f"/admin/people/user/{org.rep.pk}/change/"
    client.post(url, change_form(org.rep, is_staff="on", is_superuser="on"))
    event = AuditEvent.objects.get(verb="access.changed")
    assert event.actor == root
    assert event.data == {"is_staff": True, "is_superuser": True, "via": "admin"}
    org.rep.refresh_from_db()
    flags = {"is_staff": "on", "is_superuser": "on"}
    client.post(url, change_form(org.rep, display_name="Rita R.", **flags))  # flags as they are
    assert AuditEvent.objects.filter(verb="access.changed").count() == 1


def test_the_list_costs_the_same_queries_for_three_events_or_sixty(client, org, events):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(org.admin)
    client.get(LIST)  # warm the content-type and permission caches
    with CaptureQueriesContext(connection) as few:
        assert client.get(LIST).status_code == 200
    for n in range(57):
        AuditEventFactory(actor=[org.hr, org.rep, org.manager][n % 3], verb=f"test.verb{n % 5}")
    with CaptureQueriesContext(connection) as many:
        assert client.get(LIST).status_code == 200
    assert len(many) == len(few), [q["sql"] for q in many.captured_queries]


def test_many_events_in_one_statement_are_the_events_one_by_one(org):
    """`audit_record_many` (rows built by the database on PostgreSQL) writes what
    `audit_record` would for each target, in one query."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from people.services_audit import audit_record, audit_record_many

    targets = [org.rep, org.peer, org.manager]
    with CaptureQueriesContext(connection) as queries:
        written = audit_record_many(
            actor=org.hr, verb="test.many", targets=targets, data={"via": "list"}, ip="10.0.0.7"
        )
    assert written == 3
    assert len([q for q in queries if "INSERT" in q["sql"]]) == 1
    for target in targets:
        audit_record(
            actor=org.hr, verb="test.one", target=target, data={"via": "list"}, ip="10.0.0.7"
        )
    fields = ("actor", "target_type", "target_id", "target_repr", "data", "ip")
    many = list(AuditEvent.objects.filter(verb="test.many").order_by("id").values_list(*fields))
    one = list(AuditEvent.objects.filter(verb="test.one").order_by("id").values_list(*fields))
    assert many == one
    assert audit_record_many(actor=org.hr, verb="test.none", targets=[]) == 0
    assert not AuditEvent.objects.filter(verb="test.none").exists()
