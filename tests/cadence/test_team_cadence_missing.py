"""Team cadence says which plans a team's policy makes that the team lacks — a member
without their 1:1, a kind the policy gained since, a plan someone ended — and "Make
the missing plans" applies the kept policy again (`policy_apply`), which makes them;
a team missing nothing shows nothing more. The list works it out for the whole page
at once (`selectors_policies.plans_missing`), and agrees with what the service,
one team at a time, would make (`policy_plans._plans_missing`)."""

from datetime import time

import pytest
from rest_framework.test import APIClient

from cadence.models import CadencePlan, PolicyAssignment, PolicyItem
from cadence.policy_plans import _members, _plans_missing
from cadence.selectors_policies import plans_missing, teams_with_policy
from cadence.services import plan_end, policy_apply
from people.models import AuditEvent
from people.services import account_deactivate
from tests.support.cadence_policies import PAGE, east_and_west, make_policy, row
from tests.support.factories import TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(org):
    """East (Mia; Rita, Pavel) and West (Omar; Olga) keep the standard: a weekly 1:1
    and a call review, every plan made."""
    standard = make_policy()
    east, west = east_and_west(org)
    for team in (east, west):
        policy_apply(policy=standard, team=team, actor=org.admin)
    return type("World", (), {"standard": standard, "east": east, "west": west})


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


def rita_ends_and_the_call_review_ends(org, world):
    for plan in (
        CadencePlan.objects.live().filter(assignment__team=world.east).exclude(coachee=org.peer)
    ):
        plan_end(plan=plan, actor=org.manager, reason="other", note="Trying without")


def test_a_team_lacking_plans_says_which_and_offers_to_make_them(admin, org, world):
    rita_ends_and_the_call_review_ends(org, world)
    east = row(admin.get(PAGE).content.decode(), "East")
    assert "2 plans missing: Rita Rep&#x27;s 1:1, the team&#x27;s call review" in east
    assert f'<input type="hidden" name="policy" value="{world.standard.pk}">' in east
    assert 'aria-label="Make the missing plans for East">Make the missing plans…</button>' in east


def test_making_the_missing_plans_makes_them_and_the_note_goes(admin, org, world):
    rita_ends_and_the_call_review_ends(org, world)
    kept = set(CadencePlan.objects.live().values_list("pk", flat=True))
    response = admin.post(
        f"{PAGE}teams/{world.east.pk}/apply/?show=with&page=1", {"policy": world.standard.pk}
    )
    assert response.status_code == 302 and response["Location"] == f"{PAGE}?show=with&page=1"
    said = admin.get(response["Location"]).content.decode()
    assert "East keeps “Sales team standard”: 2 missing plans made; 3 plans live." in said
    made = CadencePlan.objects.live().exclude(pk__in=kept)
    assert sorted(made.values_list("kind", "coachee_id", "team_id")) == [
        ("one_on_one", org.rep.pk, None),
        ("team_call_review", None, world.east.pk),
    ]
    assert all(plan.assignment.team_id == world.east.pk for plan in made)
    assert PolicyAssignment.objects.filter(team=world.east).count() == 1  # the same one kept
    applied = AuditEvent.objects.filter(verb="policy.applied", target_id=str(world.east.pk))
    assert applied.count() == 2
    east = row(admin.get(PAGE).content.decode(), "East")
    assert "missing" not in east and "Make the missing plans" not in east


def test_a_team_missing_nothing_shows_nothing_more(admin, world):
    body = admin.get(PAGE).content.decode()
    for name in ("East", "West"):
        assert "missing" not in row(body, name)
    assert "Make the missing plans…</button>" not in body


def test_a_kind_the_policy_gained_and_a_new_member_are_missing(admin, org, world):
    """The policy gained a role-play and a manager review after West took it, and Sam
    joined West without a 1:1 (the admin site, an import)."""
    PolicyItem.objects.create(
        policy=world.standard, kind="role_play", weekday=2, local_time=time(9, 0)
    )
    PolicyItem.objects.create(
        policy=world.standard, kind="manager_review", weekday=4, local_time=time(11, 0)
    )
    TeamMembershipFactory(team=world.west, person=UserFactory(display_name="Sam Carter"))
    body = admin.get(PAGE).content.decode()
    assert (
        "3 plans missing: Sam Carter&#x27;s 1:1, the team&#x27;s role-play, Omar Other&#x27;s "
        "review with their manager" in row(body, "West")
    )
    assert "2 plans missing: the team&#x27;s role-play, Mia Manager&#x27;s review" in body


def test_many_missing_are_counted_and_the_first_few_named(admin, org, world):
    for n in range(6):
        TeamMembershipFactory(team=world.west, person=UserFactory(display_name=f"Rep {n}"))
    west = row(admin.get(PAGE).content.decode(), "West")
    assert (
        "6 plans missing: Rep 0&#x27;s 1:1, Rep 1&#x27;s 1:1, Rep 2&#x27;s 1:1, "
        "Rep 3&#x27;s 1:1 and 2 more" in west
    )


def test_nothing_is_missing_with_someone_who_left(admin, org, world):
    """Mia left: the plans she ran ended, and none is made with her — East waits for
    a new lead (`follow_lead`). Hana left: Omar's review with her is not missing."""
    kinds_gained(org, world)
    account_deactivate(actor=org.admin, person=org.manager, reason="departed")
    account_deactivate(actor=org.admin, person=org.head, reason="departed")
    body = admin.get(PAGE).content.decode()
    assert "missing" not in row(body, "East")
    assert "1 plan missing: the team&#x27;s role-play" in row(body, "West")
    kept = set(CadencePlan.objects.live().values_list("pk", flat=True))
    policy_apply(policy=world.standard, team=world.west, actor=org.admin)
    made = CadencePlan.objects.live().exclude(pk__in=kept)
    assert list(made.values_list("kind", "coach_id")) == [("role_play", org.other_manager.pk)]


def test_only_programme_admins_make_the_missing_plans(org, client_for, world):
    rita_ends_and_the_call_review_ends(org, world)
    before = set(CadencePlan.objects.live().values_list("pk", flat=True))
    for who in ("rep", "manager", "hr", "head"):
        response = client_for(getattr(org, who)).post(
            f"{PAGE}teams/{world.east.pk}/apply/", {"policy": world.standard.pk}
        )
        assert response.status_code == 404, who
    assert set(CadencePlan.objects.live().values_list("pk", flat=True)) == before


def test_the_api_counts_the_missing_plans_as_the_page(org, world):
    rita_ends_and_the_call_review_ends(org, world)
    client = APIClient()
    client.force_login(org.admin)
    rows = client.get("/api/v1/team-cadence/").json()["results"]
    assert {r["name"]: r["plans_missing"] for r in rows} == {"East": 2, "West": 0}
    assert client.get(f"/api/v1/team-cadence/{world.east.pk}/").json()["plans_missing"] == 2
    again = client.put(
        f"/api/v1/team-cadence/{world.east.pk}/", {"policy": world.standard.pk}, format="json"
    )
    assert again.status_code == 200 and again.json()["plans_missing"] == 0


# --- The page and the service agree ------------------------------------------------------


def the_services_answer() -> dict[int, int]:
    """How many plans `policy_apply` would make for each team keeping a policy."""
    answer = {}
    for assignment in PolicyAssignment.objects.filter(ended_at__isnull=True).select_related(
        "team__lead", "policy"
    ):
        team = assignment.team
        answer[team.pk] = len(_plans_missing(assignment, members=_members(team), team_plans=True))
    return answer


def the_pages_answer() -> dict[int, int]:
    teams = list(teams_with_policy("with"))
    missing = plans_missing(teams)
    return {team.pk: missing[team.pk].count if team.pk in missing else 0 for team in teams}


def nothing(org, world):
    pass


def member_added(org, world):
    TeamMembershipFactory(team=world.east, person=UserFactory(display_name="Sam Carter"))


def kinds_gained(org, world):
    PolicyItem.objects.create(
        policy=world.standard, kind="role_play", weekday=2, local_time=time(9, 0)
    )
    PolicyItem.objects.create(
        policy=world.standard, kind="manager_review", weekday=4, local_time=time(11, 0)
    )


def plan_ended(org, world):
    rita_ends_and_the_call_review_ends(org, world)


def member_left_and_lead_has_no_manager(org, world):
    """Olga left West (her 1:1 stays live: nobody told the cadence), Omar reports to
    nobody: a manager review would have no one to be with."""
    kinds_gained(org, world)
    membership = world.west.memberships.get(person=org.other_rep)
    membership.left_at = membership.joined_at
    membership.save()
    org.other_manager.reports_to = None
    org.other_manager.save()


def the_lead_is_a_member_and_a_member_is_deactivated(org, world):
    TeamMembershipFactory(team=world.east, person=org.manager)
    gone = UserFactory(display_name="Gone Person", is_active=False)
    TeamMembershipFactory(team=world.east, person=gone)
    member_added(org, world)


def people_left(org, world):
    kinds_gained(org, world)
    account_deactivate(actor=org.admin, person=org.manager, reason="departed")
    account_deactivate(actor=org.admin, person=org.head, reason="leave")


@pytest.mark.parametrize(
    "change",
    [
        nothing,
        member_added,
        kinds_gained,
        plan_ended,
        member_left_and_lead_has_no_manager,
        the_lead_is_a_member_and_a_member_is_deactivated,
        people_left,
    ],
)
def test_the_page_and_the_service_agree_on_what_is_missing(org, world, change):
    change(org, world)
    assert the_pages_answer() == the_services_answer()
