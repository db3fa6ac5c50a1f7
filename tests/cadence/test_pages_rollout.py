"""Install-plan pages: a team's checklist for its lead, the people above the lead, HR
and programme admins (others 404); starting it (the lead, above the lead, programme
admins); the lead's ticks with htmx or plain forms; the overview for HR, programme
admins and managers of managers. Bad input is a 400 with the reason and nothing
saved; the pages cost the same queries for 2 teams as for 20."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cadence.models import Rollout, RolloutTick
from cadence.services_rollout import rollout_start
from people.services_teams import team_create, team_member_add
from tests.support.cadence_rollout import (
    calibration,
    call_review,
    focus_with_criteria,
    manager_review,
    pair,
    role_play,
    rollout_fixture,  # noqa: F401 - the `rollout` fixture
    team_fixture,  # noqa: F401 - the `team` fixture
    weekly,
)
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
SEE = ["manager", "head", "hr", "admin"]  # the lead, above the lead, HR, programme admin
OUTSIDERS = ["rep", "peer", "other_manager", "other_rep"]


def page(team):
    return f"/teams/{team.pk}/rollout/"


def text(response):
    return response.content.decode()


# --- The team's page --------------------------------------------------------------------------


@pytest.mark.parametrize("who", SEE)
def test_the_lead_above_the_lead_hr_and_admins_see_the_checklist(client, org, team, rollout, who):
    client.force_login(getattr(org, who))
    body = text(client.get(page(team)))
    assert "Enterprise East" in body and "First team call review held" in body
    assert "By day 30" in body and "By day 60" in body and "By day 90" in body
    assert "0 of 10" in body
    ticks = f'action="/teams/{team.pk}/rollout/tick/"'
    assert (ticks in body) == (who == "manager")  # only the lead ticks


@pytest.mark.parametrize("who", SEE)
def test_the_page_leads_back_to_the_overview_for_those_who_may_open_it(
    client, org, team, rollout, who
):
    client.force_login(getattr(org, who))
    body = text(client.get(page(team)))
    back = '<p class="eyebrow"><a href="/rollout/">Install plans</a></p>'
    assert (back in body) == (who != "manager")  # the lead of one team has no overview


@pytest.mark.parametrize("who", OUTSIDERS)
def test_everyone_else_gets_404_everywhere_and_changes_nothing(client, org, team, rollout, who):
    client.force_login(getattr(org, who))
    assert client.get(page(team)).status_code == 404
    assert client.post(page(team), {"starts_on": "2026-01-01"}).status_code == 404
    for action in ("tick", "untick"):
        response = client.post(f"{page(team)}{action}/", {"item": "recordings_on"})
        assert response.status_code == 404
    assert not RolloutTick.objects.exists() and Rollout.objects.count() == 1


def test_anonymous_visitors_are_sent_to_sign_in(client, team, rollout):
    for response in (
        client.get(page(team)),
        client.get("/rollout/"),
        client.post(f"{page(team)}tick/", {"item": "recordings_on"}),
    ):
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not RolloutTick.objects.exists()


def test_a_missing_team_is_404(client, org):
    client.force_login(org.hr)
    assert client.get("/teams/999999/rollout/").status_code == 404


def test_the_page_shows_what_is_done_with_its_day_and_what_is_overdue(client, org, team):
    # The page counts days in the viewer's time zone: near midnight it is another day than UTC's.
    today = timezone.localdate(timezone=org.manager.tzinfo)
    started = rollout_start(team=team, actor=org.manager, starts_on=today - timedelta(days=40))
    held = call_review(org, team)
    client.force_login(org.manager)
    body = text(client.get(page(team)))
    assert f"Done {timezone.localtime(held.held_at, org.manager.tzinfo):%-d %b}" in body
    assert "overdue" in body and "Overdue" in body
    assert f"day {(today - started.starts_on).days}" in body
    # The overdue count sits apart from "done of all", never as "1 of 10 9 overdue".
    assert re.search(r'\d+ of \d+</span> <span class="overdue-label">\(\d+ overdue\)', body)


# --- Starting ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["manager", "head", "admin"])
def test_the_lead_someone_above_or_a_programme_admin_starts_it(client, org, team, who):
    client.force_login(getattr(org, who))
    assert "Start the rollout" in text(client.get(page(team)))
    today = timezone.localdate()
    response = client.post(page(team), {"starts_on": today.isoformat()})
    assert response.status_code == 302 and response["Location"] == page(team)
    started = Rollout.objects.get()
    assert (started.team, started.starts_on, started.created_by) == (team, today, getattr(org, who))


def test_the_start_day_is_today_unless_changed(client, org, team):
    client.force_login(org.admin)
    body = text(client.get(page(team)))
    today = timezone.localdate().isoformat()
    assert re.search(rf'<input type="date" name="starts_on" value="{today}"', body)


def test_hr_sees_a_team_not_started_but_does_not_start_it(client, org, team):
    client.force_login(org.hr)
    body = text(client.get(page(team)))
    assert "has not started its rollout yet" in body and "Start the rollout" not in body
    assert client.post(page(team), {"starts_on": "2026-01-01"}).status_code == 404
    assert not Rollout.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Give the day the rollout starts."),
        ({"starts_on": "soon"}, "Enter a valid date."),
        ({"starts_on": "FAR"}, "within the next 90 days"),
        ({"starts_on": "LONG_AGO"}, "at most a year ago"),
    ],
)
def test_a_bad_start_is_a_400_with_the_reason_and_nothing_saved(client, org, team, data, message):
    days = {"FAR": 91, "LONG_AGO": -366}
    if data.get("starts_on") in days:
        data = {"starts_on": (timezone.localdate() + timedelta(days=days[data["starts_on"]]))}
    client.force_login(org.manager)
    response = client.post(page(team), data)
    assert response.status_code == 400 and message in text(response)
    assert not Rollout.objects.exists()


def test_starting_twice_is_a_400_with_the_reason(client, org, team, rollout):
    client.force_login(org.head)
    response = client.post(page(team), {"starts_on": timezone.localdate().isoformat()})
    assert response.status_code == 400
    assert "rollout already started on" in text(response)
    assert Rollout.objects.count() == 1


# --- Ticking ----------------------------------------------------------------------------------


def test_the_lead_ticks_and_unticks_with_plain_forms(client, org, team, rollout):
    client.force_login(org.manager)
    response = client.post(f"{page(team)}tick/", {"item": "recordings_on"})
    assert response.status_code == 302
    assert response["Location"] == f"{page(team)}#item-recordings_on"
    assert RolloutTick.objects.get().item == "recordings_on"
    body = text(client.get(response["Location"]))
    assert "Ticked: Recordings turned on." in body and "1 of 10" in body
    assert client.post(f"{page(team)}untick/", {"item": "recordings_on"}).status_code == 302
    assert not RolloutTick.objects.exists()


def test_the_lead_ticks_with_htmx_and_gets_the_checklist_back(client, org, team, rollout):
    client.force_login(org.manager)
    response = client.post(f"{page(team)}tick/", {"item": "scorecard_agreed"}, **HTMX)
    body = text(response)
    assert response.status_code == 200 and 'id="checklist"' in body and "<html" not in body
    assert "1 of 10" in body and "Not done after all" in body


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("item", ["first_call_review", "nonsense", ""])
def test_a_bad_tick_is_a_400_with_the_reason(client, org, team, rollout, item, htmx):
    client.force_login(org.manager)
    response = client.post(f"{page(team)}tick/", {"item": item}, **(HTMX if htmx else {}))
    assert response.status_code == 400
    assert "ticked by hand" in text(response) or "Say which item." in text(response)
    assert not RolloutTick.objects.exists()


@pytest.mark.parametrize("who", ["head", "hr", "admin"])
def test_only_the_lead_ticks_others_who_see_it_get_404(client, org, team, rollout, who):
    client.force_login(getattr(org, who))
    assert client.post(f"{page(team)}tick/", {"item": "recordings_on"}).status_code == 404
    assert not RolloutTick.objects.exists()


def test_ticking_before_the_rollout_started_is_404(client, org, team):
    client.force_login(org.manager)
    assert client.post(f"{page(team)}tick/", {"item": "recordings_on"}).status_code == 404


# --- The overview ---------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["hr", "admin", "head"])
def test_hr_admins_and_managers_of_managers_see_the_overview(client, org, team, rollout, who):
    team_create(name="Not yet", lead=org.other_manager)
    client.force_login(getattr(org, who))
    body = text(client.get("/rollout/"))
    assert "Enterprise East" in body and "Not yet" in body and "not started" in body
    assert f'href="{page(team)}"' in body and "0 of 10" in body


@pytest.mark.parametrize("who", ["manager", "rep", "other_manager", "peer"])
def test_the_overview_is_404_to_everyone_else(client, org, team, rollout, who):
    client.force_login(getattr(org, who))
    assert client.get("/rollout/").status_code == 404


def test_a_manager_of_managers_sees_only_the_teams_below_them(client, org, team, rollout):
    boss = UserFactory(display_name="Bea Boss")
    lead = UserFactory(display_name="Lou Lead", manager=boss)
    UserFactory(manager=lead)
    team_create(name="Central", lead=lead)
    client.force_login(boss)
    body = text(client.get("/rollout/"))
    assert "Central" in body and "Enterprise East" not in body
    assert client.get(page(team)).status_code == 404
    client.force_login(org.head)
    assert "Central" not in text(client.get("/rollout/"))


def test_the_overview_narrows_to_one_state_with_counts_on_each_choice(client, org, team, rollout):
    """Enterprise East started today (under way, nothing overdue yet); a team started
    long ago with nothing logged is behind; a third has not started."""
    late = team_create(name="Late Starters", lead=UserFactory(manager=org.head))
    rollout_start(team=late, actor=org.admin, starts_on=timezone.localdate() - timedelta(days=45))
    team_create(name="Not yet", lead=org.other_manager)
    client.force_login(org.hr)
    body = text(client.get("/rollout/"))
    for label, count in (("All", 3), ("Something overdue", 1), ("Under way", 2),
                         ("Everything in place", 0), ("Not started", 1)):  # fmt: skip
        assert f'{label} <span class="count">{count}</span>' in body
    assert '<a href="?show=" aria-current="page">All' in body
    behind = text(client.get("/rollout/", {"show": "behind"}))
    assert "Late Starters" in behind and "Enterprise East" not in behind
    assert re.search(r'\d+ of \d+ <span class="overdue-label">\(\d+ overdue\)', behind)
    assert "Not yet" not in behind
    assert '<a href="?show=behind" aria-current="page">' in behind
    waiting = text(client.get("/rollout/", {"show": "not_started"}))
    assert "Not yet" in waiting and "Late Starters" not in waiting
    assert "No team is in this state." in text(client.get("/rollout/", {"show": "in_place"}))


def test_a_team_not_started_says_where_to_start_it_to_those_who_may(client, org, team):
    start_it = f'<a href="{page(team)}">start it</a>'
    for who, offered in (("admin", True), ("head", True), ("hr", False)):
        client.force_login(getattr(org, who))
        body = text(client.get("/rollout/", {"show": "not_started"}))
        assert "Enterprise East" in body and (start_it in body) == offered, who


def test_hr_who_also_manages_managers_may_start_only_the_teams_in_their_line(client, org, team):
    """HR sees every team; "start it" follows who may start each one (the lead or
    someone above the lead), not the reader's roles."""
    mine = team_create(name="Own line", lead=UserFactory(manager=org.hr))
    UserFactory(manager=mine.lead)  # the lead manages someone: HR now manages managers
    client.force_login(org.hr)
    body = text(client.get("/rollout/", {"show": "not_started"}))
    assert f'<a href="{page(mine)}">start it</a>' in body
    assert f'<a href="{page(team)}">start it</a>' not in body  # Mia's: not below HR


@pytest.mark.parametrize("show", ["late", "ALL", "behind\x00"])
def test_an_unknown_state_is_a_400_naming_the_choices(client, org, team, rollout, show):
    client.force_login(org.hr)
    response = client.get("/rollout/", {"show": show})
    assert response.status_code == 400
    assert "Show all teams, those with something overdue" in text(response)
    assert "Enterprise East</a>" not in text(response)


def test_the_overview_shows_fifty_teams_a_page_keeping_the_state(client, org):
    for n in range(55):
        team_create(name=f"Team {n:02}", lead=UserFactory(manager=org.head))
    client.force_login(org.hr)
    first = text(client.get("/rollout/", {"show": "not_started"}))
    assert "Team 00" in first and "Team 49" in first and "Team 50" not in first
    assert "Teams 1–50 of 55" in first and 'href="?show=not_started&amp;page=2">Next' in first
    second = text(client.get("/rollout/", {"show": "not_started", "page": "2"}))
    assert "Team 50" in second and "Team 54" in second and "Team 49" not in second
    assert "Teams 51–55 of 55" in second and 'page=1">Previous' in second
    for past_the_end in ("9", "x"):  # the last page; the first
        body = text(client.get("/rollout/", {"page": past_the_end}))
        assert ("Team 54" in body) == (past_the_end == "9")


def test_the_pages_are_linked_from_the_homes(client, org, team):
    client.force_login(org.manager)
    assert f'href="{page(team)}"' in text(client.get("/team/"))
    for who in ("hr", "head"):
        client.force_login(getattr(org, who))
        home = "/hr/" if who == "hr" else "/team/"
        assert 'href="/rollout/"' in text(client.get(home))
    client.force_login(org.admin)
    assert 'href="/rollout/"' in text(client.get("/programme/"))


# --- Query counts -----------------------------------------------------------------------------


def _queries(client, path):
    client.get(path)
    return _queries_now(client, path)


def _busy_team(org, n):
    """A team with a lead, two members with plans, and every kind of evidence."""
    lead = UserFactory(display_name=f"Lead {n}", manager=org.head)
    members = [UserFactory(manager=lead) for _ in range(2)]
    team = team_create(name=f"Team {n}", lead=lead)
    for person in members:
        team_member_add(team=team, person=person)
        weekly(lead, person)
    rollout_start(team=team, actor=lead, starts_on=timezone.localdate() - timedelta(days=n))
    role_play(org, coach=lead, participants=members[:1], team=team)
    pair(org, members[0], org.other_rep)
    return team


# The checklist's evidence is read set-based (cadence.rollout): a membership query
# with each member's first live plan, two for focus areas, three for held sessions
# (call reviews, role-plays by team, role-plays by member), calibrations, manager
# reviews, playbooks, pairs and the ticks — eleven, for one team or many.
EVIDENCE = 11


def test_the_team_page_costs_the_same_queries_whatever_the_data(client, org, team, rollout):
    client.force_login(org.manager)
    few = _queries(client, page(team))
    # session, user, the team with its lead and rollout, the evidence, the viewer's
    # roles, the header's unread count
    assert few == 3 + EVIDENCE + 2
    for person in (org.rep, org.peer):
        weekly(org.manager, person)
    focus_with_criteria(org, teams=[team])
    call_review(org, team)
    call_review(org, team)
    role_play(org, coach=org.manager, participants=[org.rep, org.peer], team=team)
    manager_review(org, manager=org.manager)
    calibration(org, submitters=[org.manager])
    pair(org, org.rep, org.peer)
    client.post(f"{page(team)}tick/", {"item": "recordings_on"})
    assert "8 of 10" in text(client.get(page(team)))
    assert _queries(client, page(team)) == few


def _first_of_slot(client, path):
    """Queries for `path` as a refresh slot's first reader: nothing kept."""
    client.get(path)
    cache.clear()
    return _queries_now(client, path)


def _queries_now(client, path):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


def test_the_overview_costs_the_same_queries_for_2_teams_as_for_20(client, org):
    client.force_login(org.hr)
    with time_machine.travel(timezone.now(), tick=False):  # one refresh slot
        for n in range(2):
            _busy_team(org, n)
        team_create(name="Nobody leads it")  # one not started, in both sizes
        # A slot's first reader: session, user, the viewer's roles, the teams with leads
        # and rollouts; every started team's evidence (the rollouts, then as a team's
        # page reads it), kept for the slot; the teams not started HR may start; the
        # header's unread count.
        assert _first_of_slot(client, "/rollout/") == 4 + 1 + EVIDENCE + 2
        # The rest of the slot: the ticks alone besides.
        assert _queries(client, "/rollout/") == 7
        for n in range(2, 20):
            _busy_team(org, n)
        body = text(client.get("/rollout/"))
        assert "Team 19" in body and "Nobody leads it" in body
        assert _first_of_slot(client, "/rollout/") == 4 + 1 + EVIDENCE + 2
        assert _queries(client, "/rollout/") == 7


def test_the_overview_is_as_of_the_refresh_slot_and_a_teams_own_page_is_live(
    client, org, team, rollout
):
    """What the data shows (a call review held) reaches the overview at the next slot;
    the team's own checklist and what the lead ticks show at once."""
    slot = timezone.now().replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    client.force_login(org.hr)
    with time_machine.travel(slot + timedelta(minutes=1), tick=False):
        assert "0 of 10" in text(client.get("/rollout/"))
        call_review(org, team)
        RolloutTick.objects.create(rollout=rollout, item="recordings_on", ticked_by=org.manager)
    with time_machine.travel(slot + timedelta(minutes=3), tick=False):
        body = text(client.get("/rollout/"))
        assert "1 of 10" in body  # the tick; the call review not yet
        assert "What the data shows as of" in body and "every 5 minutes" in body
        assert "2 of 10" in text(client.get(page(team)))
    with time_machine.travel(slot + timedelta(minutes=6), tick=False):
        assert "2 of 10" in text(client.get("/rollout/"))


@pytest.mark.parametrize("bad", ["0", "two"])
def test_a_bad_page_number_on_the_overview_is_a_400_saying_so(client, org, team, rollout, bad):
    client.force_login(org.hr)
    response = client.get("/rollout/", {"page": bad})
    assert response.status_code == 400
    body = text(response)
    assert "Give a page number: a whole number from 1." in body and "Enterprise East" in body
