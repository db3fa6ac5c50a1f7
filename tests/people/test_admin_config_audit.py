"""Programme configuration changed by hand in the admin site is audited as the
programme's pages audit it — focus areas, GROW questions, cadence policies and team
channels, created, changed (with the changed field names, inline rows included, never
a webhook address) and deleted, `via: "admin"` — and an unchanged save records
nothing; a team saved there goes through the services, so a new lead takes over the
plans."""

from datetime import date

import pytest

from cadence.models import CadencePolicy
from coaching.models import FocusArea, Prompt
from people.models import AuditEvent
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_user(db):
    return UserFactory(is_staff=True, is_superuser=True)


@pytest.fixture
def admin_client(client, admin_user):
    client.force_login(admin_user)
    return client


def events(prefix: str) -> list[tuple[str, dict]]:
    rows = AuditEvent.objects.filter(verb__startswith=prefix).order_by("pk")
    return [(e.verb, e.data) for e in rows]


def focus_area_form(area, **change):
    data = {
        "name": area.name,
        "behaviours": area.behaviours,
        "starts_on": area.starts_on.isoformat(),
        "ends_on": "",
    }
    return data | change


def test_a_focus_area_changed_and_deleted_in_the_admin_is_audited(admin_client, admin_user):
    area = FocusArea.objects.create(
        name="Discovery", behaviours="Asks two open questions.", starts_on=date(2026, 11, 2)
    )
    url = f"/admin/coaching/focusarea/{area.pk}/change/"
    assert admin_client.post(url, focus_area_form(area)).status_code == 302
    assert events("focus_area.") == []  # saved as it was: nothing changed

    assert admin_client.post(url, focus_area_form(area, name="Deep discovery")).status_code == 302
    delete = f"/admin/coaching/focusarea/{area.pk}/delete/"
    assert admin_client.post(delete, {"post": "yes"}).status_code == 302

    assert events("focus_area.") == [
        ("focus_area.changed", {"fields": ["name"], "via": "admin"}),
        ("focus_area.deleted", {"id": area.pk, "via": "admin"}),
    ]
    changed = AuditEvent.objects.get(verb="focus_area.changed")
    assert changed.actor == admin_user and changed.target_id == str(area.pk)


def test_a_policy_written_in_the_admin_with_its_rows_is_audited(admin_client):
    response = admin_client.post(
        "/admin/cadence/cadencepolicy/add/",
        {
            "name": "Inside sales",
            "description": "",
            "items-TOTAL_FORMS": "1",
            "items-INITIAL_FORMS": "0",
            "items-0-kind": "one_on_one",
            "items-0-recurrence": "weekly",
            "items-0-weekday": "2",
            "items-0-interval_weeks": "1",
            "items-0-week_of_month": "1",
            "items-0-local_time": "09:30",
            "items-0-duration_minutes": "30",
        },
    )
    assert response.status_code == 302
    policy = CadencePolicy.objects.get(name="Inside sales")
    assert events("policy.") == [
        ("policy.created", {"fields": ["name", "policyitem rows"], "via": "admin"})
    ]
    assert AuditEvent.objects.get(verb="policy.created").target_id == str(policy.pk)


def test_a_question_changed_from_the_admin_list_is_audited(admin_client):
    prompt = Prompt.objects.create(step="goal", text="What would make this week a win?")
    response = admin_client.post(
        "/admin/coaching/prompt/",
        {
            "form-TOTAL_FORMS": "1",
            "form-INITIAL_FORMS": "1",
            "form-0-id": str(prompt.pk),
            "form-0-position": "7",
            "form-0-is_active": "on",
            "_save": "Save",
        },
    )
    assert response.status_code == 302
    assert events("prompt.") == [("prompt.changed", {"fields": ["position"], "via": "admin"})]


def test_a_team_saved_in_the_admin_goes_through_the_services(admin_client, org):
    from cadence.models import CadencePlan
    from cadence.services import policy_apply
    from people.models import Team, TeamMembership
    from tests.support.cadence_policies import make_policy

    response = admin_client.post(
        "/admin/people/team/add/",
        {"name": "North", "lead": org.manager.pk, **_no_rows()},
    )
    assert response.status_code == 302
    team = Team.objects.get(name="North")
    TeamMembership.objects.create(team=team, person=org.rep)
    policy_apply(policy=make_policy(), team=team, actor=org.admin)
    response = admin_client.post(
        f"/admin/people/team/{team.pk}/change/",
        {"name": "North", "lead": org.other_manager.pk, **_no_rows(initial=1)},
    )
    assert response.status_code == 302
    assert CadencePlan.objects.live().get(coachee=org.rep).coach == org.other_manager
    assert events("team.") == [
        ("team.created", {}),
        ("team.lead_changed", {"from_lead_id": org.manager.pk, "to_lead_id": org.other_manager.pk}),
    ]


def _no_rows(initial=0):
    return {
        "memberships-TOTAL_FORMS": str(initial),
        "memberships-INITIAL_FORMS": str(initial),
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }


def test_a_team_channel_changed_in_the_admin_is_audited_without_its_address(admin_client):
    from notifications.models import TeamChannel
    from tests.support.factories import TeamFactory

    secret = "https://hooks.slack.com/services/T0/B0/very-secret-token"
    channel = TeamChannel.objects.create(team=TeamFactory(name="East"), webhook_url=secret)
    response = admin_client.post(
        f"/admin/notifications/teamchannel/{channel.pk}/change/",
        {"team": channel.team_id, "webhook_url": secret, "format": "teams", "is_active": "on"},
    )
    assert response.status_code == 302
    assert events("channel.") == [("channel.changed", {"fields": ["format"], "via": "admin"})]
    assert "very-secret-token" not in str(AuditEvent.objects.values_list("data", "target_repr"))
