"""Programme → Plans (`/programme/plans/`), for programme admins: every plan of the
programme, running by default with tabs for paused, ended and all (each with its
count), found by the coach's, the coachee's or the team's name or an email and by kind,
25 a page at the same cost whatever the numbers; bad input a 400 that says why. A
plan's page names who runs it, with whom, which team, whether a policy or a person made
it and, once ended, who ended it and why; its next session is shown, never linked.
Its forms change, pause and end the plan through My cadence's views and come back to
it — for a programme admin outside the coach's reporting line too, audited as theirs —
while a refusal shows the plan's page again as a 400 with nothing saved. A coach or
someone above them sending `back=programme` is answered as on My cadence; everyone
else gets 404 on both pages."""

import re
from datetime import time
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence.models import CadencePlan, CadencePolicy, PolicyItem
from cadence.services import policy_apply
from coaching.models import CoachingSession
from people.models import AuditEvent
from people.selectors import people_below
from people.services_teams import team_create
from tests.support.cadence_plans import one_on_one, plans_of_every_shape
from tests.support.factories import TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
LIST = "/programme/plans/"
BACK = '<input type="hidden" name="back" value="programme">'
PAGE_ERROR = "Give a page number: a whole number from 1."


def page_of(plan) -> str:
    return f"{LIST}{plan.pk}/"


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


def listed(response) -> list[int]:
    """The plans the list's table links, in order."""
    body = response.content.decode()
    if "<tbody>" not in body:
        return []
    table = body[body.index("<tbody>") : body.index("</tbody>")]
    return [
        int(pk) for pk in re.findall(r'<th scope="row"><a href="/programme/plans/(\d+)/"', table)
    ]


def tabs(response) -> dict[str, int]:
    nav = re.search(
        r'<nav aria-label="Which plans" class="tabs">.*?</nav>', response.content.decode(), re.S
    )
    return {
        label: int(n) for label, n in re.findall(r'>(\w+) <span class="count">(\d+)<', nav.group(0))
    }


def current_tab(response) -> str:
    return re.search(r'aria-current="page">(\w+) <', response.content.decode()).group(1)


def pks(*plans) -> list[int]:
    return [plan.pk for plan in plans]


def state(plan):
    plan.refresh_from_db()
    rule = (plan.weekday, plan.local_time, plan.duration_minutes, plan.interval_weeks)
    sessions = CoachingSession.objects.filter(occurrence__plan=plan).values_list(
        "pk", "scheduled_start"
    )
    return rule, plan.paused, plan.ended_at, plan.end_reason, sorted(sessions)


def plan_events(**filters) -> list[tuple]:
    events = AuditEvent.objects.filter(verb__startswith="plan.", **filters).order_by("pk")
    return list(events.values_list("verb", "actor_id", "target_id"))


# --- The list ----------------------------------------------------------------------------


def test_the_list_shows_running_plans_by_coach_with_the_tabs_counts(admin, plans_world):
    response = admin.get(LIST)
    assert response.status_code == 200
    # By coach: Hana, Mia, Omar; paused and ended plans are on their own tabs.
    assert listed(response) == pks(plans_world.boss, plans_world.rita, plans_world.review)
    assert tabs(response) == {"Running": 3, "Paused": 1, "Ended": 2, "All": 6}
    assert current_tab(response) == "Running"
    body = response.content.decode()
    assert 'Plans <span class="count">3</span>' in body
    row = re.search(rf'href="{page_of(plans_world.rita)}">.*?</tr>', body, re.S).group(0)
    assert "1:1 · Rita Rep" in row and "Mia Manager" in row
    assert "Tuesdays 10:00 Europe/Berlin, weekly" in row and "<time datetime=" in row
    assert "Team call review · Westward" in body
    assert f'href="{LIST}">Plans</a>' in admin.get("/programme/").content.decode()


def test_the_next_session_is_labelled_with_the_viewers_zone_beside_the_plans_own(
    admin, org, plans_world
):
    """The "When" is in the plan's zone (it says which), "Next" in the reader's, so the
    header says whose."""
    org.admin.time_zone = "America/New_York"
    org.admin.save(update_fields=["time_zone"])
    nxt = CoachingSession.objects.filter(occurrence__plan=plans_world.rita).earliest(
        "scheduled_start"
    )
    body = admin.get(LIST).content.decode()
    header = '<th scope="col">Next <span class="muted small">your time, America/New_York</span>'
    assert header in body
    row = re.search(rf'href="{page_of(plans_world.rita)}">.*?</tr>', body, re.S).group(0)
    in_new_york = nxt.scheduled_start.astimezone(ZoneInfo("America/New_York"))
    assert "Tuesdays 10:00 Europe/Berlin" in row and in_new_york.strftime(", %H:%M</time>") in row
    # The plan's page says it too, as the plan's zone is not the reader's.
    page = admin.get(page_of(plans_world.rita)).content.decode()
    next_fact = re.search(r"<dt>Next</dt>\s*<dd>(.*?)</dd>", page, re.S).group(1)
    assert "your time, America/New_York" in next_fact


def test_the_next_session_needs_no_label_in_the_plans_own_zone(admin, plans_world):
    page = admin.get(page_of(plans_world.rita)).content.decode()
    next_fact = re.search(r"<dt>Next</dt>\s*<dd>(.*?)</dd>", page, re.S).group(1)
    assert "<time datetime=" in next_fact and "your time" not in next_fact


@pytest.mark.parametrize(
    ("show", "expected", "label"),
    [
        ("paused", ["olga"], "Paused"),
        ("ended", ["pavel", "omar"], "Ended"),  # the latest ended first
        ("all", ["boss", "omar", "rita", "pavel", "olga", "review"], "All"),
    ],
)
def test_each_tab_lists_its_plans(admin, plans_world, show, expected, label):
    response = admin.get(LIST, {"show": show})
    assert response.status_code == 200
    assert listed(response) == [getattr(plans_world, name).pk for name in expected]
    assert current_tab(response) == label
    assert tabs(response) == {"Running": 3, "Paused": 1, "Ended": 2, "All": 6}


def test_the_ended_tab_says_when_and_why_each_plan_ended(admin, plans_world):
    body = admin.get(LIST, {"show": "ended"}).content.decode()
    assert '<th scope="col">Ended</th>' in body
    pavel = re.search(rf'href="{page_of(plans_world.pavel)}">.*?</tr>', body, re.S).group(0)
    assert "2 Mar 2026 · Long leave" in pavel
    omar = re.search(rf'href="{page_of(plans_world.omar)}">.*?</tr>', body, re.S).group(0)
    assert "10 Feb 2026 · Role changed" in omar


def test_the_all_tab_says_each_plans_state(admin, plans_world):
    body = admin.get(LIST, {"show": "all"}).content.decode()
    for plan, words in [
        (plans_world.rita, "Running"),
        (plans_world.olga, "Paused"),
        (plans_world.pavel, "Ended"),
    ]:
        row = re.search(rf'href="{page_of(plan)}">.*?</tr>', body, re.S).group(0)
        assert f'<td data-label="State">{words}</td>' in row


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"q": "omar"}, {"review"}),  # coach's name; his paused 1:1 is not running
        ({"q": "omar", "show": "all"}, {"review", "olga", "omar"}),  # coach and coachee
        ({"q": "RITA"}, {"rita"}),  # coachee's name, any case
        ({"q": "mia"}, {"rita", "boss"}),  # Mia runs one and is coached in the other
        ({"q": "westward"}, {"review"}),  # the team's name
        ({"q": "other.rep@", "show": "paused"}, {"olga"}),  # an email
        ({"q": "head@example", "show": "ended"}, {"omar"}),
        ({"q": "  rita  "}, {"rita"}),  # spaces around are dropped
        ({"kind": "team_call_review"}, {"review"}),
        ({"kind": "manager_review", "show": "all"}, {"boss", "omar"}),
        ({"kind": "one_on_one", "q": "pavel", "show": "ended"}, {"pavel"}),
        ({"kind": "peer"}, set()),
    ],
)
def test_search_finds_plans_by_coach_coachee_team_or_email_and_by_kind(
    admin, plans_world, query, expected
):
    response = admin.get(LIST, query)
    assert response.status_code == 200
    assert set(listed(response)) == {getattr(plans_world, name).pk for name in expected}
    if not expected:
        assert "No plan here matches." in response.content.decode()


def test_nothing_found_says_so_and_offers_the_whole_list_again(admin, plans_world):
    body = admin.get(LIST, {"q": "zebra", "show": "paused"}).content.decode()
    assert "No plan here matches." in body and "<tbody>" not in body
    assert 'href="?show=paused">Show all</a>' in body


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"kind": "coffee"}, "Choose a kind from the list."),
        ({"show": "sleeping"}, "Select a valid choice."),
        ({"q": "x" * 101}, "Ensure this value has at most 100 characters"),
    ],
)
def test_a_bad_search_is_a_400_saying_why_with_the_running_plans_shown(
    admin, plans_world, query, message
):
    response = admin.get(LIST, query)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert listed(response) == pks(plans_world.boss, plans_world.rita, plans_world.review)


@pytest.mark.parametrize("page", ["abc", "0", "-1", "1.5"])
def test_a_bad_page_number_is_a_400_with_the_first_page_shown(admin, plans_world, page):
    response = admin.get(LIST, {"page": page})
    assert response.status_code == 400
    assert PAGE_ERROR in response.content.decode()
    assert listed(response) == pks(plans_world.boss, plans_world.rita, plans_world.review)


def test_plans_come_25_a_page_and_a_page_past_the_end_is_the_last(admin, org, plans_world):
    for i in range(27):  # 30 running
        one_on_one(org.manager, UserFactory(display_name=f"Report {i:02}"), weekday=i % 5)
    first = admin.get(LIST)
    assert len(listed(first)) == 25 and "Page 1 of 2" in first.content.decode()
    second = admin.get(LIST, {"page": "2"})
    assert second.status_code == 200 and len(listed(second)) == 5
    assert set(listed(first)).isdisjoint(listed(second))
    assert "Page 2 of 2" in second.content.decode()
    past = admin.get(LIST, {"page": "9"})
    assert past.status_code == 200 and listed(past) == listed(second)
    # The pager keeps the search.
    found = admin.get(LIST, {"kind": "one_on_one"}).content.decode()
    assert re.search(r'href="\?kind=one_on_one&(amp;)?page=2"', found)


def test_the_list_costs_the_same_at_two_sizes(admin, org):
    """Plans of every shape — 1:1s, team plans, paused, ended, with sessions planned —
    at 3 and at 40 (more than a page)."""

    def make(n, start):
        plans_of_every_shape(org, n, start)

    def queries():
        counts = []
        for query in ({}, {"show": "all"}, {"show": "ended", "q": "coach"}):
            with CaptureQueriesContext(connection) as captured:
                assert admin.get(LIST, query).status_code == 200
            counts.append(len(captured))
        return counts

    make(3, 0)
    few = queries()
    make(37, 3)
    assert CadencePlan.objects.count() == 40
    many = queries()
    # Session, user, roles, the header's unread count; the tabs' counts; the page's
    # count; the page's ids; those plans with their next sessions.
    assert few == many == [8, 8, 8]


# --- A plan's page -----------------------------------------------------------------------


def test_a_plans_page_names_who_runs_it_with_whom_and_who_made_it(admin, org, plans_world):
    response = admin.get(page_of(plans_world.rita))
    assert response.status_code == 200
    body = response.content.decode()
    assert "<h1>1:1 · Rita Rep</h1>" in body
    assert (
        f'<dt>Run by</dt><dd><a href="/programme/people/{org.manager.pk}/">Mia Manager</a>' in body
    )
    assert f'<dt>With</dt><dd><a href="/programme/people/{org.rep.pk}/">Rita Rep</a>' in body
    assert "<dt>Team</dt>" not in body and "<dt>Ended by</dt>" not in body
    assert "<dt>Made by</dt><dd>hand, " in body
    assert f"Tuesdays 10:00 Europe/Berlin, weekly · {plans_world.rita.duration_minutes} min" in body
    # Every form comes back here.
    for action in ("edit", "pause", "end"):
        assert f'action="/cadence/plans/{plans_world.rita.pk}/{action}/"' in body
    assert body.count(BACK) == 3


def test_the_next_session_is_shown_but_not_linked(admin, org, plans_world, client_for):
    nxt = (
        CoachingSession.objects.filter(occurrence__plan=plans_world.rita)
        .order_by("scheduled_start")
        .first()
    )
    assert nxt is not None
    body = admin.get(page_of(plans_world.rita)).content.decode()
    next_fact = re.search(r"<dt>Next</dt>\s*<dd>(.*?)</dd>", body, re.S).group(1)
    assert "<time datetime=" in next_fact and "<a " not in next_fact
    assert f"/sessions/{nxt.pk}/" not in body
    # On My cadence the coach opens it.
    assert (
        f'href="/sessions/{nxt.pk}/"' in client_for(org.manager).get("/cadence/").content.decode()
    )


def test_a_team_plan_a_policy_made_names_the_team_and_the_policy(admin, org):
    team = team_create(name="Eastside", lead=org.manager)
    TeamMembershipFactory(team=team, person=org.rep)
    policy = CadencePolicy.objects.create(name="Sales standard")
    PolicyItem.objects.create(
        policy=policy, kind="team_call_review", weekday=3, local_time=time(15, 0)
    )
    policy_apply(policy=policy, team=team, actor=org.admin)
    plan = CadencePlan.objects.get(team=team)
    body = admin.get(page_of(plan)).content.decode()
    assert "<h1>Team call review · Eastside</h1>" in body
    assert f'<dt>Team</dt><dd><a href="/programme/teams/{team.pk}/">Eastside</a>' in body
    assert "<dt>With</dt>" not in body
    assert (
        "<dt>Made by</dt><dd>the team's cadence policy, "
        f'<a href="/programme/cadence/policies/{policy.pk}/">Sales standard</a>, '
    ) in body


def test_an_ended_plans_page_says_who_ended_it_when_and_why_and_offers_no_change(
    admin, plans_world
):
    body = admin.get(page_of(plans_world.pavel)).content.decode()
    assert "<dt>Ended by</dt><dd>Hana Head · “Parental leave”</dd>" in body
    assert "<dt>Ended</dt><dd>2 Mar 2026 · Long leave</dd>" in body
    assert "<dt>Next</dt>" not in body
    # No change of an ended plan: only restarting it, with its times.
    pavel = plans_world.pavel.pk
    for change in ("edit", "pause", "end"):
        assert f"/cadence/plans/{pavel}/{change}/" not in body
    assert f'action="/cadence/plans/{pavel}/restart/"' in body
    assert "Restart with its times" in body
    by_nobody = admin.get(page_of(plans_world.omar)).content.decode()
    assert "<dt>Ended by</dt><dd>the system</dd>" in by_nobody
    assert "10 Feb 2026 · Role changed" in by_nobody


def test_a_plan_that_does_not_exist_is_404(admin, plans_world):
    assert admin.get(f"{LIST}999999/").status_code == 404


# --- Changing a plan from its page -------------------------------------------------------


def edit_form(plan, **over) -> dict:
    data = {"weekday": "3", "local_time": "15:00", "duration_minutes": "45", "interval_weeks": "1"}
    return {f"plan-{plan.pk}-{k}": v for k, v in {**data, **over}.items()} | {"back": "programme"}


def end_form(plan, **data) -> dict:
    return {f"end-{plan.pk}-{k}": v for k, v in data.items()} | {"back": "programme"}


def test_the_admin_is_outside_the_coachs_line(org, plans_world):
    """What the tests below rest on: Adam may change Mia's plan only as programme admin."""
    assert not people_below(person=org.admin).filter(pk=org.manager.pk).exists()
    assert plans_world.rita.coach == org.manager


def test_changing_day_time_and_length_comes_back_to_the_plans_page(
    admin, org, plans_world, django_capture_on_commit_callbacks
):
    plan = plans_world.rita
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(f"/cadence/plans/{plan.pk}/edit/", edit_form(plan))
    assert response.status_code == 302 and response["Location"] == page_of(plan)
    plan.refresh_from_db()
    assert (plan.weekday, plan.local_time, plan.duration_minutes) == (3, time(15, 0), 45)
    [event] = AuditEvent.objects.filter(verb="plan.changed")
    assert (event.actor, event.target_id) == (org.admin, str(plan.pk))
    assert event.data["fields"] == ["duration_minutes", "local_time", "weekday"]
    sessions = CoachingSession.objects.filter(occurrence__plan=plan)
    assert sessions and {
        s.scheduled_start.astimezone(ZoneInfo(plan.time_zone)).weekday() for s in sessions
    } == {3}
    body = admin.get(page_of(plan)).content.decode()
    assert "Plan changed." in body and "Thursdays 15:00 Europe/Berlin, weekly · 45 min" in body


def test_nothing_to_change_comes_back_without_an_audit(admin, plans_world):
    plan = plans_world.rita
    same = edit_form(
        plan, weekday="1", local_time="10:00", duration_minutes=str(plan.duration_minutes)
    )
    response = admin.post(f"/cadence/plans/{plan.pk}/edit/", same)
    assert response.status_code == 302 and response["Location"] == page_of(plan)
    assert plan_events() == []
    assert "Nothing changed." in admin.get(page_of(plan)).content.decode()


def test_pausing_and_resuming_come_back_to_the_plans_page(admin, org, plans_world):
    plan = plans_world.rita
    response = admin.post(f"/cadence/plans/{plan.pk}/pause/", {"paused": "1", "back": "programme"})
    assert response.status_code == 302 and response["Location"] == page_of(plan)
    plan.refresh_from_db()
    assert plan.paused
    body = admin.get(page_of(plan)).content.decode()
    assert "Paused: no new sessions are planned." in body
    assert 'name="paused" value="0"' in body and "<strong>paused</strong>" in body
    response = admin.post(f"/cadence/plans/{plan.pk}/pause/", {"paused": "0", "back": "programme"})
    assert response.status_code == 302 and response["Location"] == page_of(plan)
    plan.refresh_from_db()
    assert not plan.paused
    changed = ("plan.changed", org.admin.pk, str(plan.pk))
    assert plan_events() == [changed, changed]


def test_ending_with_a_reason_comes_back_to_the_plans_page(admin, org, plans_world):
    plan = plans_world.rita
    data = end_form(plan, reason="role_change", note="Moves to partnerships")
    response = admin.post(f"/cadence/plans/{plan.pk}/end/", data)
    assert response.status_code == 302 and response["Location"] == page_of(plan)
    plan.refresh_from_db()
    assert (plan.ended_by, plan.end_reason, plan.end_note) == (
        org.admin,
        "role_change",
        "Moves to partnerships",
    )
    assert not CoachingSession.objects.filter(occurrence__plan=plan).exists()  # untouched: gone
    assert plan_events() == [("plan.ended", org.admin.pk, str(plan.pk))]
    body = admin.get(page_of(plan)).content.decode()
    assert "Plan ended." in body
    assert "<dt>Ended by</dt><dd>Adam Admin · “Moves to partnerships”</dd>" in body
    assert "Role changed" in body
    assert listed(admin.get(LIST)) == pks(plans_world.boss, plans_world.review)


REFUSALS = [
    ("edit", lambda p: edit_form(p, duration_minutes="3"), "greater than or equal to 5"),
    ("edit", lambda p: edit_form(p, local_time="25:99"), "Enter a valid time."),
    ("end", lambda p: end_form(p, reason=""), "This field is required."),
    ("end", lambda p: end_form(p, reason="other"), "Say briefly why"),
    ("end", lambda p: end_form(p, reason="policy_ended"), "Select a valid choice."),
    ("pause", lambda p: {"paused": "maybe", "back": "programme"}, "Choose pause or resume."),
]


@pytest.mark.parametrize(("action", "data", "message"), REFUSALS)
def test_a_refused_change_is_the_plans_page_again_as_a_400_with_nothing_saved(
    admin, plans_world, action, data, message
):
    plan = plans_world.rita
    before = state(plan)
    response = admin.post(f"/cadence/plans/{plan.pk}/{action}/", data(plan))
    assert response.status_code == 400
    assert "cadence/plan_detail.html" in [t.name for t in response.templates]
    body = response.content.decode()
    assert "<h1>1:1 · Rita Rep</h1>" in body and "Who and since when" in body
    assert message in body and body.count(BACK) == 3
    if action != "pause":
        assert "<details open>" in body  # the refused form is shown open
    assert state(plan) == before and plan_events() == []


@pytest.mark.parametrize(("action", "data", "message"), REFUSALS)
def test_with_htmx_a_refusal_is_the_plans_fragment_still_coming_back_here(
    admin, plans_world, action, data, message
):
    plan = plans_world.rita
    before = state(plan)
    response = admin.post(
        f"/cadence/plans/{plan.pk}/{action}/", data(plan), headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert body.lstrip().startswith(f'<article class="panel" id="plan-{plan.pk}"')
    assert "<html" not in body and message in body and body.count(BACK) == 3
    assert state(plan) == before and plan_events() == []


def test_with_htmx_a_change_is_the_plans_fragment_still_coming_back_here(admin, plans_world):
    plan = plans_world.rita
    response = admin.post(
        f"/cadence/plans/{plan.pk}/pause/",
        {"paused": "1", "back": "programme"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith(f'<article class="panel" id="plan-{plan.pk}"')
    assert "<html" not in body and "Paused: no new sessions are planned." in body
    assert body.count(BACK) == 3 and "/sessions/" not in body
    assert f'<h2 id="plan-{plan.pk}-heading">Its rhythm</h2>' in body
    response = admin.post(
        f"/cadence/plans/{plan.pk}/end/",
        end_form(plan, reason="leave"),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "Plan ended." in body
    assert body.count("<form") == 1 and "Restart with its times" in body  # nothing else
    assert f'<h2 id="plan-{plan.pk}-heading">Ended</h2>' in body


def test_pausing_an_ended_plan_is_refused_on_its_page(admin, plans_world):
    plan = plans_world.pavel
    before = state(plan)
    response = admin.post(f"/cadence/plans/{plan.pk}/pause/", {"paused": "1", "back": "programme"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "This plan has ended." in body and "Who and since when" in body
    assert state(plan) == before


@pytest.mark.parametrize("htmx", [False, True])
def test_changing_an_ended_plan_is_refused_on_its_page_saying_why(admin, plans_world, htmx):
    """Sent from a page opened before someone else ended the plan (it once answered a
    400 without a word: an ended plan shows no form to carry the message)."""
    plan = plans_world.pavel
    before = state(plan)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = admin.post(f"/cadence/plans/{plan.pk}/edit/", edit_form(plan), **headers)
    assert response.status_code == 400 and state(plan) == before
    assert "This plan has ended." in response.content.decode()


# --- Who the programme page is for -------------------------------------------------------


@pytest.mark.parametrize("who", ["manager", "head"])
def test_the_coach_or_someone_above_them_sending_back_programme_is_answered_as_on_my_cadence(
    org, plans_world, client_for, who
):
    client = client_for(getattr(org, who))
    plan = plans_world.rita
    response = client.post(f"/cadence/plans/{plan.pk}/pause/", {"paused": "1", "back": "programme"})
    assert response.status_code == 302 and response["Location"] == f"/cadence/#plan-{plan.pk}"
    response = client.post(f"/cadence/plans/{plan.pk}/edit/", edit_form(plan))
    assert response.status_code == 302 and response["Location"] == f"/cadence/#plan-{plan.pk}"
    response = client.post(f"/cadence/plans/{plan.pk}/end/", end_form(plan, reason="other"))
    assert response.status_code == 400
    names = [t.name for t in response.templates]
    assert "cadence/my_cadence.html" in names and "cadence/plan_detail.html" not in names
    fragment = client.post(
        f"/cadence/plans/{plan.pk}/pause/",
        {"paused": "0", "back": "programme"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert BACK not in fragment and f'<h3 id="plan-{plan.pk}-heading">' in fragment


@pytest.mark.parametrize("who", ["rep", "manager", "head", "hr", "other_manager", "peer"])
def test_everyone_but_programme_admins_gets_404_on_both_pages(org, plans_world, client_for, who):
    client = client_for(getattr(org, who))
    assert client.get(LIST).status_code == 404
    assert client.get(LIST, {"show": "all"}).status_code == 404
    for plan in (plans_world.rita, plans_world.pavel):
        assert client.get(page_of(plan)).status_code == 404


def test_anonymous_visitors_are_sent_to_sign_in(client, plans_world):
    for path in (LIST, page_of(plans_world.rita)):
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")


def test_the_pages_take_no_post(admin, plans_world):
    assert admin.post(LIST).status_code == 405
    assert admin.post(page_of(plans_world.rita)).status_code == 405
