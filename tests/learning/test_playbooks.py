"""Playbook modules: the core playbook and the department add-ons for everyone to
read; a team's lead (and the people above the lead) picks the modules the team
uses, everyone else gets 404; programme admins edit the modules in the admin and
through the API, others may only read."""

import pytest
from django.utils.html import escape

from coaching.programme_content import PLAYBOOK
from learning.models import PlaybookModule
from tests.support.learning_loop import api, make_teams

URL = "/api/v1/playbook-modules/"
PICKS = "/api/v1/team-playbooks/"
LEADS = ["manager", "head"]  # Mia's team's lead, and the person above the lead
NOT_LEADS = ["rep", "peer", "other_manager", "other_rep", "hr", "admin"]


@pytest.fixture
def teams(org):
    return make_teams(org)


@pytest.mark.django_db
def test_the_seeded_core_playbook_and_add_ons_are_shown_with_everything_they_hold(client, org):
    sales = PlaybookModule.objects.get(department="sales")
    client.force_login(org.rep)
    page = client.get("/playbooks/").content.decode()
    for name, (_dept, summary, goals, prompts, cadence, experiments) in PLAYBOOK.items():
        for text in (name, summary, goals[0], prompts[0], cadence, experiments[0]):
            assert escape(text) in page, text
    assert page.index("Core coaching playbook") < page.index("Sales: calls and deals")
    assert f"/experiments/?playbook={sales.pk}&amp;example=0" in page  # try this experiment
    assert "Pick the modules your team uses" not in page  # the rep leads no team


@pytest.mark.django_db
def test_inactive_modules_are_not_shown(client, org):
    PlaybookModule.objects.filter(department="support").update(is_active=False)
    client.force_login(org.rep)
    assert "Customer support: conversations" not in client.get("/playbooks/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("who", LEADS)
def test_the_lead_and_the_people_above_pick_the_teams_modules(client, org, teams, who):
    core, sales = (PlaybookModule.objects.get(department=d) for d in ("core", "sales"))
    client.force_login(getattr(org, who))
    assert f'href="/teams/{teams.mine.pk}/playbooks/"' in client.get("/playbooks/").content.decode()
    assert client.get(f"/teams/{teams.mine.pk}/playbooks/").status_code == 200
    response = client.post(f"/teams/{teams.mine.pk}/playbooks/", {"modules": [core.pk, sales.pk]})
    assert response.status_code == 302
    assert set(teams.mine.playbook_modules.all()) == {core, sales}
    client.force_login(org.rep)
    page = client.get("/playbooks/").content.decode()
    assert page.count("your team uses it") == 2 and "Used by Mia&#x27;s team" in page


@pytest.mark.django_db
@pytest.mark.parametrize("who", NOT_LEADS)
def test_everyone_else_gets_404_on_a_teams_picks(client, org, teams, who):
    core = PlaybookModule.objects.get(department="core")
    client.force_login(getattr(org, who))
    assert client.get(f"/teams/{teams.mine.pk}/playbooks/").status_code == 404
    assert (
        client.post(f"/teams/{teams.mine.pk}/playbooks/", {"modules": [core.pk]}).status_code == 404
    )
    assert not teams.mine.playbook_modules.exists()


@pytest.mark.django_db
def test_an_inactive_or_unknown_module_is_a_400_and_an_inactive_pick_is_kept(client, org, teams):
    core, support = (PlaybookModule.objects.get(department=d) for d in ("core", "support"))
    teams.mine.playbook_modules.add(support)
    support.is_active = False
    support.save()
    client.force_login(org.manager)
    response = client.post(f"/teams/{teams.mine.pk}/playbooks/", {"modules": [support.pk]})
    assert (
        response.status_code == 400 and "Pick modules from the list." in response.content.decode()
    )
    response = client.post(f"/teams/{teams.mine.pk}/playbooks/", {"modules": ["abc"]})
    assert response.status_code == 400
    assert list(teams.mine.playbook_modules.all()) == [support]
    client.post(f"/teams/{teams.mine.pk}/playbooks/", {"modules": [core.pk]})
    assert set(teams.mine.playbook_modules.all()) == {core, support}  # kept for when it is back


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_sign_in(client, org, teams):
    response = client.get(f"/teams/{teams.mine.pk}/playbooks/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.django_db
def test_programme_admins_edit_modules_in_the_admin(client, org):
    client.force_login(org.admin)
    assert "Edit the modules" in client.get("/playbooks/").content.decode()
    assert client.get("/admin/learning/playbookmodule/").status_code == 200
    assert client.get("/admin/learning/learningtag/").status_code == 200
    response = client.post(
        "/admin/learning/playbookmodule/add/",
        {
            "name": "Leadership: running the team",
            "department": "core",
            "summary": "For managers of managers.",
            "goals": "Coach the coaches",
            "prompts": "What did you notice?",
            "cadence": "Monthly",
            "experiments": "Ask one manager for feedback on your coaching",
            "position": 9,
            "is_active": "on",
        },
    )
    assert response.status_code == 302
    assert PlaybookModule.objects.get(name="Leadership: running the team").goal_list == [
        "Coach the coaches"
    ]
    client.force_login(org.rep)
    assert client.get("/admin/learning/playbookmodule/").status_code == 404


# --- API -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_everyone_reads_the_modules_and_only_programme_admins_write(org):
    listed = api(org.rep).get(URL).json()["results"]
    assert [m["name"] for m in listed] == list(PLAYBOOK)
    assert listed[0]["goal_list"] == PLAYBOOK["Core coaching playbook"][2]
    sales = PlaybookModule.objects.get(department="sales")
    change = {"summary": "Calls, deals, and the numbers."}
    assert api(org.rep).patch(f"{URL}{sales.pk}/", change, format="json").status_code == 403
    assert api(org.manager).delete(f"{URL}{sales.pk}/").status_code == 403
    response = api(org.admin).patch(f"{URL}{sales.pk}/", change, format="json")
    assert response.status_code == 200 and response.json()["summary"] == change["summary"]
    response = api(org.admin).patch(f"{URL}{sales.pk}/", {"teams": [1]}, format="json")
    assert response.status_code == 400 and "pick their modules" in str(response.json())
    response = api(org.admin).post(URL, {"name": "X", "department": "legal"}, format="json")
    assert response.status_code == 400 and "department" in response.json()
    assert api().get(URL).status_code == 401


@pytest.mark.django_db
def test_inactive_modules_only_on_request_and_filtered_by_department(org):
    PlaybookModule.objects.filter(department="support").update(is_active=False)
    client = api(org.rep)
    assert len(client.get(URL).json()["results"]) == 3
    assert len(client.get(URL, {"all": "1"}).json()["results"]) == 4
    assert [
        m["department"] for m in client.get(URL, {"department": "sales"}).json()["results"]
    ] == ["sales"]
    assert client.get(URL, {"department": "legal"}).status_code == 400


@pytest.mark.django_db
def test_a_lead_reads_and_sets_the_teams_picks_through_the_api(org, teams):
    core, sales = (PlaybookModule.objects.get(department=d) for d in ("core", "sales"))
    client = api(org.head)
    assert [row["team"]["name"] for row in client.get(PICKS).json()["results"]] == [
        "Mia's team",
        "Omar's team",
    ]
    response = client.put(
        f"{PICKS}{teams.mine.pk}/", {"modules": [core.pk, sales.pk]}, format="json"
    )
    assert response.status_code == 200
    assert {m["id"] for m in response.json()["modules"]} == {core.pk, sales.pk}
    response = client.put(f"{PICKS}{teams.mine.pk}/", {"modules": [999999]}, format="json")
    assert response.status_code == 400 and "no active module" in str(response.json())
    assert set(teams.mine.playbook_modules.all()) == {core, sales}


@pytest.mark.django_db
@pytest.mark.parametrize("who", NOT_LEADS)
def test_others_get_404_on_a_teams_picks_through_the_api(org, teams, who):
    core = PlaybookModule.objects.get(department="core")
    client = api(getattr(org, who))
    assert client.get(f"{PICKS}{teams.mine.pk}/").status_code == 404
    assert (
        client.put(f"{PICKS}{teams.mine.pk}/", {"modules": [core.pk]}, format="json").status_code
        == 404
    )
    assert "Mia's team" not in str(client.get(PICKS).json())
    assert not teams.mine.playbook_modules.exists()
    assert api().get(f"{PICKS}{teams.mine.pk}/").status_code == 401
