"""Team cadence (`/programme/cadence/`): programme admins see each policy in words and
every team with the policy it keeps, a page at a time; applying one makes the team's
plans (never twice; another policy ends first; the one it keeps is not offered, and is
refused if sent), ending one ends its plans — both audited, and the page comes back as
it was. A team without a lead, an unknown policy,
a wrong state or page is a 400 with the reason and changes nothing. Everyone else
gets 404 (the authorization matrix)."""

from datetime import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence.models import CadencePlan, PolicyAssignment
from cadence.services import plan_update, policy_apply
from people.models import AuditEvent
from tests.support.cadence_policies import PAGE, east_and_west, make_policy, row
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(org):
    """Mia's team (Rita, Pavel) keeps nothing yet; Omar's team keeps the standard."""
    standard, light = make_policy(), make_policy("Light touch")
    east, west = east_and_west(org)
    policy_apply(policy=standard, team=west, actor=org.admin)
    leaderless = TeamFactory(name="Zeta", lead=None)
    return type(
        "World",
        (),
        {
            "standard": standard,
            "light": light,
            "east": east,
            "west": west,
            "leaderless": leaderless,
        },
    )


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


def test_it_shows_each_policy_in_words_and_each_team_with_what_it_keeps(admin, world):
    body = admin.get(PAGE).content.decode()
    assert "Sales team standard" in body and "1 team" in body
    assert "1:1</strong>: Tuesdays 10:00, weekly, 30 min" in body
    assert "Team call review</strong>: Thursdays 15:00, weekly, 45 min" in body
    east, west = body.index('<th scope="row">East'), body.index('<th scope="row">West')
    assert "no policy" in body[east:west] and "Sales team standard" in body[west:]
    zeta = world.leaderless  # no lead: the link goes to where one is named
    assert f'<a href="/programme/teams/{zeta.pk}/" class="small">needs a lead first</a>' in body


def test_each_team_says_how_many_of_its_plans_no_longer_keep_the_policys_slot(admin, org, world):
    """A policy sets the slot a plan starts with; its coach may move it later. The team
    keeps the policy either way, and the list says how many of its plans differ."""

    def keeps(body):
        west = body.index('<th scope="row">West')
        return body[west : body.index("</tr>", west)]

    assert "its 2 plans as the policy sets them" in keeps(admin.get(PAGE).content.decode())
    olga = CadencePlan.objects.get(coachee=org.other_rep, kind="one_on_one")
    plan_update(plan=olga, actor=org.other_manager, weekday=0, local_time=time(9, 0))
    body = admin.get(PAGE).content.decode()
    assert "1 of its 2 plans now on another day, time, rhythm or length" in keeps(body)
    assert "Each coach may then move or change their own on My cadence" in body


def test_the_tabs_count_and_filter_teams(admin, world):
    body = admin.get(PAGE, {"show": "without"}).content.decode()
    assert 'Without a policy <span class="count">2</span>' in body
    assert 'With a policy <span class="count">1</span>' in body
    assert '<th scope="row">East' in body and '<th scope="row">West' not in body


def test_applying_a_policy_makes_the_plans_and_comes_back_to_the_same_list(admin, org, world):
    page = admin.get(PAGE, {"show": "without"}).content.decode()
    # The row opens the preview, carrying the list's state; the preview's confirmation
    # comes back to it.
    assert f'<form method="get" action="{PAGE}teams/{world.east.pk}/apply/"' in page
    assert '<input type="hidden" name="show" value="without">' in page
    preview = admin.get(
        f"{PAGE}teams/{world.east.pk}/apply/",
        {"show": "without", "page": "1", "policy": world.standard.pk},
    ).content.decode()
    assert f'action="{PAGE}teams/{world.east.pk}/apply/?show=without&amp;page=1"' in preview
    response = admin.post(
        f"{PAGE}teams/{world.east.pk}/apply/?show=without&page=1", {"policy": world.standard.pk}
    )
    assert response.status_code == 302
    assert response["Location"] == f"{PAGE}?show=without&page=1"
    plans = CadencePlan.objects.live().filter(assignment__team=world.east)
    assert sorted(plans.values_list("kind", flat=True)) == [
        "one_on_one", "one_on_one", "team_call_review",
    ]  # fmt: skip
    event = AuditEvent.objects.filter(verb="policy.applied", target_id=str(world.east.pk)).get()
    assert event.actor == org.admin


def test_the_policy_a_team_keeps_is_not_offered_again(admin, world):
    """West keeps the standard: its picker offers only the other policy, "instead";
    East keeps none: both, with nothing picked for it."""
    body = admin.get(PAGE).content.decode()
    west, east = row(body, "West"), row(body, "East")
    assert f'<option value="{world.standard.pk}"' not in west
    assert f'<option value="{world.light.pk}">Light touch</option>' in west
    assert "Another policy for West, instead of Sales team standard" in west
    assert ">Apply instead…</button>" in west
    assert f'<option value="{world.standard.pk}">Sales team standard</option>' in east
    assert f'<option value="{world.light.pk}">Light touch</option>' in east
    assert " selected" not in east and ">Apply…</button>" in east
    world.light.delete()  # the standard is the only policy: West has nothing to apply
    west = row(admin.get(PAGE).content.decode(), "West")
    assert "<select" not in west and "End Sales team standard for West" in west


def test_the_policy_a_team_keeps_sent_again_is_a_400_that_changes_nothing(admin, world):
    before = list(CadencePlan.objects.live().filter(assignment__team=world.west))
    response = admin.post(f"{PAGE}teams/{world.west.pk}/apply/", {"policy": world.standard.pk})
    assert response.status_code == 400
    assert (
        "West already keeps “Sales team standard”, with every plan it makes. Pick another "
        "policy to apply instead, or end this one." in response.content.decode()
    )
    assert PolicyAssignment.objects.filter(team=world.west).count() == 1
    assert list(CadencePlan.objects.live().filter(assignment__team=world.west)) == before
    applied = AuditEvent.objects.filter(verb="policy.applied", target_id=str(world.west.pk))
    assert applied.count() == 1


def test_applying_another_policy_ends_the_one_before(admin, world):
    admin.post(f"{PAGE}teams/{world.west.pk}/apply/", {"policy": world.light.pk})
    kept = PolicyAssignment.objects.filter(team=world.west).order_by("pk")
    assert [(a.policy_id, a.ended_at is None) for a in kept] == [
        (world.standard.pk, False),
        (world.light.pk, True),
    ]


def test_ending_a_policy_ends_its_plans_and_is_audited(admin, org, world):
    live = CadencePlan.objects.live().filter(assignment__team=world.west)
    assert live.exists()
    response = admin.post(f"{PAGE}teams/{world.west.pk}/end/?show=with&page=x&next=//evil")
    assert response.status_code == 302 and response["Location"] == f"{PAGE}?show=with"
    assert not live.exists()
    assert PolicyAssignment.objects.get(team=world.west).ended_at is not None
    assert AuditEvent.objects.filter(verb="policy.ended", target_id=str(world.west.pk)).exists()


@pytest.mark.parametrize(
    ("team", "data", "message"),
    [
        ("leaderless", {"policy": "standard"}, "needs a lead before it can keep a cadence"),
        ("east", {"policy": "999999"}, "Pick a policy from the list."),
        ("east", {}, "Pick the policy the team keeps."),
    ],
)
def test_what_cannot_be_applied_is_a_400_with_the_reason(admin, world, team, data, message):
    if data.get("policy") == "standard":
        data = {"policy": world.standard.pk}
    response = admin.post(f"{PAGE}teams/{getattr(world, team).pk}/apply/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not PolicyAssignment.objects.filter(team=getattr(world, team)).exists()


def test_ending_what_a_team_does_not_keep_is_a_400(admin, world):
    response = admin.post(f"{PAGE}teams/{world.east.pk}/end/")
    assert response.status_code == 400
    assert "East keeps no policy now." in response.content.decode()


def test_a_wrong_state_or_page_is_a_400_with_the_reason(admin, world):
    wrong = admin.get(PAGE, {"show": "sometimes"})
    assert wrong.status_code == 400
    assert "Show all teams, or those with or without a policy." in wrong.content.decode()
    assert admin.get(PAGE, {"page": "0"}).status_code == 400


def test_an_unknown_team_is_a_404(admin, world):
    assert (
        admin.post(f"{PAGE}teams/999999/apply/", {"policy": world.standard.pk}).status_code == 404
    )
    assert admin.post(f"{PAGE}teams/999999/end/").status_code == 404


def test_teams_come_25_a_page_at_the_same_cost(admin, org, world):
    """Plans missing too: West's new member lacks a 1:1; then half of 30 more teams
    keep a policy, each with a member who lacks one."""
    TeamMembershipFactory(team=world.west, person=UserFactory())
    with CaptureQueriesContext(connection) as few:
        assert "1 plan missing" in admin.get(PAGE).content.decode()
    for n in range(30):
        team = TeamFactory(name=f"Team {n:02}", lead=org.manager)
        if n % 2:
            policy_apply(policy=world.light, team=team, actor=org.admin)
            TeamMembershipFactory(team=team, person=UserFactory())
    make_policy("Third")
    with CaptureQueriesContext(connection) as many:
        first = admin.get(PAGE)
    assert len(few) == len(many)
    assert first.content.decode().count('<th scope="row">') == 25
    assert first.content.decode().count("1 plan missing") == 12
    assert "Page 1 of 2" in first.content.decode()
    second = admin.get(PAGE, {"page": 2}).content.decode()
    assert second.count('<th scope="row">') == 33 - 25


def test_the_programme_page_links_to_it(admin):
    assert f'href="{PAGE}"' in admin.get("/programme/").content.decode()
