"""Who opens cadence health: HR and programme admins, everywhere (pages, exports, API);
everyone else gets 404 — reps, managers, the manager of managers — and the anonymous
are sent to sign in (pages) or refused (API). Bad input is a 400 that says why; an
unknown team or table is a 404. Every export is audited, with counts and never words."""

import pytest
import time_machine
from rest_framework.pagination import PageNumberPagination

from people.models import AuditEvent
from tests.support.dashboards_hr import NOW, build

pytestmark = pytest.mark.django_db
SEE = ["hr", "admin"]
OUTSIDERS = ["rep", "peer", "manager", "other_manager", "other_rep", "head"]


@pytest.fixture
def world(org):
    return build(org)


def paths(world):
    team = world.team_a.pk
    return [
        "/hr/",
        f"/hr/teams/{team}/",
        "/hr/export/metrics.csv",
        "/hr/export/cancellations.csv",
        "/hr/export/weeks.csv",
        "/hr/export/heatmap.csv",
        "/hr/export/attention.csv",
        "/hr/export/rollout.csv",
        f"/hr/teams/{team}/export/metrics.csv",
        f"/hr/teams/{team}/export/cancellations.csv",
        f"/hr/teams/{team}/export/weeks.csv",
        "/api/v1/health/organisation/",
        "/api/v1/health/teams/",
        f"/api/v1/health/teams/{team}/",
        "/api/v1/health/attention/",
    ]


@pytest.mark.parametrize("who", SEE)
def test_hr_and_programme_admins_open_every_page_export_and_endpoint(client, world, who):
    client.force_login(getattr(world.org, who))
    for path in paths(world):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize("who", OUTSIDERS)
def test_everyone_else_gets_404_and_nothing_is_audited(client, world, who):
    client.force_login(getattr(world.org, who))
    for path in paths(world):
        assert client.get(path).status_code == 404, path
    assert not AuditEvent.objects.filter(verb="dashboards.export").exists()


def test_the_anonymous_are_sent_to_sign_in_or_refused(client, world):
    for path in paths(world):
        response = client.get(path)
        if path.startswith("/api/"):
            assert response.status_code in (401, 403), path
        else:
            assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_deactivated_hr_person_opens_nothing(client, world):
    hr = world.org.hr
    client.force_login(hr)
    hr.is_active = False
    hr.save(update_fields=["is_active"])
    for path in ("/hr/", "/api/v1/health/organisation/"):
        assert client.get(path).status_code in (302, 401, 403, 404), path


def test_hr_reach_it_from_the_navigation_and_admins_from_the_programme_page(client, world):
    for who, shown in [("hr", True), ("admin", False), ("manager", False), ("rep", False)]:
        client.force_login(getattr(world.org, who))
        body = client.get("/me/").content.decode()
        assert ('href="/hr/"' in body) == shown, who
    client.force_login(world.org.admin)
    assert 'href="/hr/"' in client.get("/programme/").content.decode()


@pytest.mark.parametrize("weeks", ["5", "abc", "-8", "8.5", "99999999999999999999"])
def test_a_wrong_window_is_a_400_that_says_which_windows_there_are(client, world, weeks):
    client.force_login(world.org.hr)
    message = "Choose a window of 4, 8, 13 or 26 weeks."
    for path in ("/hr/", f"/hr/teams/{world.team_a.pk}/"):
        response = client.get(path, {"weeks": weeks})
        assert response.status_code == 400
        assert message in response.content.decode()
    for path in ("/hr/export/metrics.csv", f"/hr/teams/{world.team_a.pk}/export/weeks.csv"):
        response = client.get(path, {"weeks": weeks})
        assert response.status_code == 400 and message in response.content.decode()
    response = client.get("/api/v1/health/teams/", {"weeks": weeks})
    assert response.status_code == 400 and message in str(response.json())
    assert not AuditEvent.objects.filter(verb="dashboards.export").exists()


def test_an_unknown_team_or_table_is_a_404(client, world):
    client.force_login(world.org.hr)
    missing = world.team_b.pk + 100
    for path in (
        f"/hr/teams/{missing}/",
        f"/hr/teams/{missing}/export/weeks.csv",
        f"/hr/teams/{world.team_a.pk}/export/heatmap.csv",  # an organisation table
        "/hr/export/people.csv",
        f"/api/v1/health/teams/{missing}/",
    ):
        assert client.get(path).status_code == 404, path


def test_each_export_writes_one_audit_event_with_counts_only(client, world):
    client.force_login(world.org.hr)
    client.get("/hr/export/heatmap.csv", {"weeks": 4})
    client.get(f"/hr/teams/{world.team_a.pk}/export/weeks.csv")
    events = list(AuditEvent.objects.filter(verb="dashboards.export").order_by("pk"))
    assert [(e.actor_id, e.data) for e in events] == [
        (world.org.hr.pk, {"table": "heatmap", "weeks": 4, "rows": 2}),
        (world.org.hr.pk, {"table": "weeks", "weeks": 8, "rows": 8}),
    ]
    assert events[1].target_repr == "Team A"


def test_the_pages_are_read_only(client, world):
    client.force_login(world.org.hr)
    assert client.post("/hr/").status_code == 405
    assert client.post("/api/v1/health/organisation/").status_code == 405


def test_the_window_defaults_to_eight_weeks(client, world):
    client.force_login(world.org.hr)
    with time_machine.travel(NOW, tick=False):
        body = client.get("/hr/").content.decode()
        data = client.get("/api/v1/health/organisation/").json()
    assert "The last 8 weeks, against the 8 before" in body
    assert '<option value="8" selected>' in body
    assert data["window"]["weeks"] == 8 and len(data["weeks"]) == 8


def test_the_teams_endpoint_is_paged_in_the_heatmaps_order(client, world, monkeypatch):
    monkeypatch.setattr(PageNumberPagination, "page_size", 1)
    client.force_login(world.org.hr)
    with time_machine.travel(NOW, tick=False):
        first = client.get("/api/v1/health/teams/").json()
        second = client.get(first["next"]).json()
        beyond = client.get("/api/v1/health/teams/", {"page": 3})
        not_a_page = client.get("/api/v1/health/teams/", {"page": "x"})
    assert first["count"] == second["count"] == 2 and second["next"] is None
    names = [row["team"]["name"] for page in (first, second) for row in page["results"]]
    assert sorted(names) == ["Team A", "Team B"]
    assert beyond.status_code == not_a_page.status_code == 404
    assert "Invalid page." in str(not_a_page.json())
