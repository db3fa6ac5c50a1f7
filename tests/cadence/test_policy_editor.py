"""Writing a cadence policy in the app (`/programme/cadence/policies/new/`, `<id>/`):
a new one starts from the programme's rhythm; saving creates or changes the policy
and its kinds of session (audited, with kinds and field names only); plans already
made from it do not move. Bad input is a 400 with each reason on its field and
nothing saved; a kind left unticked is not read at all. Everyone but programme
admins gets 404 (also in the authorization matrix)."""

import re
from datetime import time

import pytest

from cadence.models import CadencePlan, CadencePolicy, PolicyItem
from cadence.services import policy_apply
from cadence.services_policies import policy_save
from people.models import AuditEvent
from tests.support.cadence_policies import make_policy
from tests.support.factories import TeamFactory, TeamMembershipFactory

pytestmark = pytest.mark.django_db
NEW = "/programme/cadence/policies/new/"


def edit_url(policy):
    return f"/programme/cadence/policies/{policy.pk}/"


def kind(prefix, *, keeps=True, recurrence="weekly", weekday=1, at="10:00", minutes=30, **more):
    data = {
        f"{prefix}-recurrence": recurrence,
        f"{prefix}-weekday": str(weekday),
        f"{prefix}-interval_weeks": str(more.get("interval_weeks", 1)),
        f"{prefix}-week_of_month": str(more.get("week_of_month", 1)),
        f"{prefix}-local_time": at,
        f"{prefix}-duration_minutes": str(minutes),
    }
    return data | ({f"{prefix}-keeps": "on"} if keeps else {})


def posted(name="Inside sales", description="Short, frequent calls.", **kinds):
    data = {"name": name, "description": description}
    for part in kinds.values():
        data |= part
    return data


def errors_in(response) -> list[str]:
    return re.findall(r'class="error" role="alert">([^<]+)<', response.content.decode())


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


def test_a_new_policy_starts_from_the_programmes_rhythm(admin):
    body = admin.get(NEW).content.decode()
    for prefix in ("one_on_one", "team_call_review", "role_play", "manager_review"):
        assert f'name="{prefix}-keeps" id="id_{prefix}-keeps" checked' in body
    assert 'name="one_on_one-local_time" value="10:00"' in body
    assert 'name="role_play-duration_minutes" value="60"' in body
    assert '<option value="monthly_nth" selected>' in body  # the role-play's


def test_saving_a_new_policy_creates_it_with_the_kinds_kept_and_audits_it(admin, org):
    data = posted(
        one=kind("one_on_one", weekday=2, at="09:30", minutes=25, interval_weeks=2),
        review=kind("team_call_review", keeps=False),
        play=kind("role_play", recurrence="monthly_nth", weekday=2, week_of_month=3, minutes=60),
    )
    response = admin.post(NEW, data)
    policy = CadencePolicy.objects.get(name="Inside sales")
    assert response.status_code == 302
    assert response["Location"] == f"/programme/cadence/#policy-{policy.pk}"
    rows = policy.items.order_by("kind").values_list(
        "kind", "recurrence", "weekday", "interval_weeks", "week_of_month", "local_time"
    )
    assert list(rows) == [
        ("one_on_one", "weekly", 2, 2, 1, time(9, 30)),
        ("role_play", "monthly_nth", 2, 1, 3, time(10, 0)),
    ]
    event = AuditEvent.objects.get(verb="policy.created")
    assert event.actor == org.admin and event.target_id == str(policy.pk)
    assert event.data == {"kinds": ["one_on_one", "role_play"]}
    listing = admin.get("/programme/cadence/").content.decode()
    assert "Wednesdays 09:30, every 2 weeks, 25 min" in listing
    assert f'href="{edit_url(policy)}"' in listing


def test_changing_a_policy_changes_what_teams_get_from_then_on_not_plans_made(admin, org):
    policy = make_policy()
    team = TeamFactory(name="East", lead=org.manager)
    TeamMembershipFactory(team=team, person=org.rep)
    policy_apply(policy=policy, team=team, actor=org.admin)
    body = admin.get(edit_url(policy)).content.decode()
    assert "1 team keeps this policy" in body
    assert 'name="role_play-keeps" id="id_role_play-keeps">' in body  # not in it: unticked

    data = posted(
        name=policy.name,
        description="What every sales team runs.",
        one=kind("one_on_one", weekday=4, at="08:00"),
        play=kind("role_play", recurrence="monthly_last", weekday=3, minutes=60),
    )
    response = admin.post(edit_url(policy), data, follow=True)

    assert "plans already made from it stay" in response.content.decode()
    assert sorted(policy.items.values_list("kind", "weekday")) == [
        ("one_on_one", 4),
        ("role_play", 3),
    ]
    plan = CadencePlan.objects.get(kind="one_on_one", coachee=org.rep)
    assert (plan.weekday, plan.local_time) == (1, time(10, 0))
    event = AuditEvent.objects.get(verb="policy.changed")
    assert event.data == {
        "kinds": ["one_on_one", "role_play"],
        "changed": ["one_on_one", "role_play", "team_call_review"],
    }


def test_saving_what_is_already_there_changes_nothing_and_audits_nothing(admin):
    policy = make_policy()
    data = posted(
        name=policy.name,
        description=policy.description,
        one=kind("one_on_one", weekday=1, at="10:00", minutes=30),
        review=kind("team_call_review", weekday=3, at="15:00", minutes=45),
    )
    response = admin.post(edit_url(policy), data, follow=True)
    assert "Nothing changed in “Sales team standard”." in response.content.decode()
    assert not AuditEvent.objects.filter(verb__startswith="policy.").exists()


def test_a_kind_left_unticked_is_not_read(admin):
    data = posted(
        one=kind("one_on_one"),
        play={"role_play-recurrence": "fortnightly", "role_play-duration_minutes": "-3"},
    )
    assert admin.post(NEW, data).status_code == 302
    assert list(CadencePolicy.objects.get().items.values_list("kind", flat=True)) == ["one_on_one"]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"name": "  "}, "Name the policy, e.g. “Field sales standard”."),
        ({"name": "sales TEAM standard"}, "There is already a policy called"),
        ({"one_on_one-duration_minutes": "500"}, "Between 5 and 480 minutes."),
        ({"one_on_one-interval_weeks": "9"}, "Every 1 to 8 weeks."),
        ({"one_on_one-local_time": "25:99"}, "Enter a valid time."),
        ({"one_on_one-weekday": "9"}, "Select a valid choice. 9 is not one of the available"),
        ({"one_on_one-recurrence": "daily"}, "Select a valid choice. daily is not one of"),
        ({"one_on_one-keeps": ""}, "Pick at least one kind of session the team keeps."),
        ({"description": "x" * 2001}, "Ensure this value has at most 2000 characters"),
    ],
)
def test_bad_input_is_a_400_with_the_reason_and_nothing_saved(admin, change, message):
    existing = make_policy()
    before = list(PolicyItem.objects.values_list("pk", "kind", "weekday", "duration_minutes"))
    response = admin.post(NEW, posted(one=kind("one_on_one")) | change)
    assert response.status_code == 400
    shown = response.content.decode()
    assert message in shown.replace("&quot;", '"')
    assert list(CadencePolicy.objects.values_list("pk", flat=True)) == [existing.pk]
    assert list(PolicyItem.objects.values_list("pk", "kind", "weekday", "duration_minutes")) == (
        before
    )
    assert not AuditEvent.objects.filter(verb__startswith="policy.").exists()


def test_a_refusal_on_an_edit_keeps_the_policy_as_it_was(admin):
    policy = make_policy()
    data = posted(name="Renamed", one=kind("one_on_one", minutes=4))
    response = admin.post(edit_url(policy), data)
    assert response.status_code == 400
    assert errors_in(response) == ["Between 5 and 480 minutes."]
    policy.refresh_from_db()
    assert policy.name == "Sales team standard" and policy.items.count() == 2


def test_the_service_refuses_kinds_a_policy_cannot_hold_and_names_each_bad_field(org):
    with pytest.raises(Exception) as refused:
        policy_save(actor=org.admin, name="Peers", items={"peer": {}})
    assert refused.value.message_dict == {
        "items": ["A policy holds 1:1s, call reviews, role-plays and manager reviews, not peer."]
    }
    rule = {"recurrence": "weekly", "weekday": 8, "local_time": "10:00", "duration_minutes": 3}
    with pytest.raises(Exception) as refused:
        policy_save(actor=org.admin, name="Odd", items={"one_on_one": rule})
    assert set(refused.value.message_dict) == {
        "one_on_one.weekday",
        "one_on_one.local_time",
        "one_on_one.duration_minutes",
    }
    assert not CadencePolicy.objects.exists()


def test_an_unknown_policy_is_a_404_and_others_get_404(admin, org, client_for):
    assert admin.get("/programme/cadence/policies/999999/").status_code == 404
    policy = make_policy()
    for who in (org.hr, org.manager, org.rep):
        assert client_for(who).get(edit_url(policy)).status_code == 404
        assert client_for(who).post(NEW, posted(one=kind("one_on_one"))).status_code == 404
    assert CadencePolicy.objects.count() == 1
