"""The cadence in the admin site, for programme admins: policies with their items,
applying one to a team (plans once, never twice; the policy it keeps is refused),
ending assignments, plans read mostly (rule edits through the service, never deleted),
team channels with their failures, the outbox read only — and nobody's words
anywhere."""

from datetime import time, timedelta

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cadence.models import CadencePlan, CadencePolicy, PolicyAssignment, PolicyItem
from cadence.placement import plan_words
from cadence.services import plan_create, policy_apply
from coaching.services import (
    agenda_item_add,
    commitment_create,
    notes_save,
    private_note_save,
)
from notifications.models import Notification, NotificationKind, TeamChannel
from people.models import AuditEvent
from people.roles import GROUP_FOR_ROLE, Role
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory, one_on_one

SECRET = "PRIVATE-MARKER-a1b2"
SHARED = "SHARED-NOTES-MARKER-c3d4"
AGENDA = "AGENDA-MARKER-e5f6"
COMMITMENT = "COMMITMENT-MARKER-0a0b"


@pytest.fixture
def team(org):
    """Mia's team: Rita and Pavel."""
    t = TeamFactory(name="Enterprise East", lead=org.manager)
    TeamMembershipFactory(team=t, person=org.rep)
    TeamMembershipFactory(team=t, person=org.peer)
    return t


@pytest.fixture
def policy(db):
    p = CadencePolicy.objects.create(name="Sales team standard")
    PolicyItem.objects.create(policy=p, kind="one_on_one", weekday=1, local_time=time(10, 0))
    PolicyItem.objects.create(
        policy=p, kind="team_call_review", weekday=3, local_time=time(15, 0), duration_minutes=45
    )
    PolicyItem.objects.create(
        policy=p,
        kind="manager_review",
        recurrence="monthly_last",
        weekday=4,
        local_time=time(11, 0),
        duration_minutes=45,
    )
    return p


@pytest.fixture
def admin_client(client, org):
    client.force_login(org.admin)
    return client


# --- Who ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_programme_admins_hold_the_cadence_permissions(org):
    group = Group.objects.get(name=GROUP_FOR_ROLE[Role.PROGRAMME_ADMIN])
    held = set(
        group.permissions.filter(
            content_type__app_label__in=["cadence", "notifications"]
        ).values_list("codename", flat=True)
    )
    assert {
        "add_cadencepolicy",
        "change_cadencepolicy",
        "add_policyassignment",
        "change_policyassignment",
        "view_cadenceplan",
        "change_cadenceplan",
        "change_teamchannel",
        "view_notification",
    } <= held
    assert not {"delete_cadenceplan", "delete_policyassignment", "change_notification"} & held
    assert not {"view_calendarfeed", "view_notificationpreference", "view_occurrence"} & held
    assert org.admin.has_perm("cadence.add_policyassignment")


PAGES = [
    "/admin/cadence/",
    "/admin/cadence/cadencepolicy/",
    "/admin/cadence/cadencepolicy/add/",
    "/admin/cadence/policyassignment/",
    "/admin/cadence/policyassignment/add/",
    "/admin/cadence/cadenceplan/",
    "/admin/notifications/teamchannel/",
    "/admin/notifications/teamchannel/add/",
    "/admin/notifications/notification/",
]


@pytest.mark.django_db
def test_programme_admins_reach_every_cadence_page(admin_client):
    for path in PAGES:
        assert admin_client.get(path).status_code == 200, path


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "rep", "hr", "head"])
def test_nobody_else_gets_into_the_cadence_admin(client, org, who):
    person = getattr(org, who)
    person.is_staff = who == "hr"  # staff without the group: still nothing
    person.save(update_fields=["is_staff"])
    client.force_login(person)
    for path in PAGES[1:]:
        response = client.get(path)
        # Staff without the group reach the admin site but not these pages; to the
        # rest the admin site is invisible.
        assert response.status_code == (403 if who == "hr" else 404), (who, path)


@pytest.mark.django_db
def test_the_admin_site_registers_nothing_that_holds_words_or_secrets():
    registered = {m._meta.label for m in admin.site._registry}
    for never in [
        "coaching.CoachingSession",
        "coaching.SharedNotes",
        "coaching.PrivateNote",
        "coaching.NotesRevision",
        "coaching.Commitment",
        "coaching.AgendaItem",
        "cadence.Occurrence",
        "cadence.CalendarFeed",  # the token is the credential
        "notifications.NotificationPreference",
    ]:
        assert never not in registered, never


# --- Policies and applying them -------------------------------------------------------


@pytest.mark.django_db
def test_a_policy_is_written_with_its_items_inline(admin_client):
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
    item = CadencePolicy.objects.get(name="Inside sales").items.get()
    assert (item.kind, item.weekday, item.local_time) == ("one_on_one", 2, time(9, 30))
    listing = admin_client.get("/admin/cadence/cadencepolicy/").content.decode()
    assert "1:1: Wednesdays 09:30, weekly, 30 min" in listing


def _apply(client, policy, team):
    return client.post(
        "/admin/cadence/policyassignment/add/", {"policy": policy.pk, "team": team.pk}
    )


@pytest.mark.django_db
def test_applying_a_policy_makes_the_teams_plans_once(admin_client, org, team, policy):
    response = _apply(admin_client, policy, team)
    assert response.status_code == 302
    plans = CadencePlan.objects.live()
    assert sorted(plans.values_list("kind", "coach__email", "coachee__email", "team__name")) == [
        ("manager_review", org.head.email, org.manager.email, None),
        ("one_on_one", org.manager.email, org.peer.email, None),
        ("one_on_one", org.manager.email, org.rep.email, None),
        ("team_call_review", org.manager.email, None, "Enterprise East"),
    ]
    assignment = PolicyAssignment.objects.get()
    assert assignment.applied_by == org.admin
    # Again: refused, as on the Team cadence page; nothing is made twice.
    response = _apply(admin_client, policy, team)
    assert response.status_code == 200
    assert f"{team} already keeps “{policy}”, with every plan it makes." in (
        response.content.decode()
    )
    assert PolicyAssignment.objects.count() == 1
    assert CadencePlan.objects.count() == 4
    listing = admin_client.get("/admin/cadence/policyassignment/").content.decode()
    assert f"?assignment__id__exact={assignment.pk}" in listing
    assert (
        admin_client.get(
            f"/admin/cadence/cadenceplan/?assignment__id__exact={assignment.pk}"
        ).status_code
        == 200
    )


@pytest.mark.django_db
def test_applying_another_policy_replaces_the_first(admin_client, org, team, policy):
    _apply(admin_client, policy, team)
    lighter = CadencePolicy.objects.create(name="Lighter")
    PolicyItem.objects.create(
        policy=lighter, kind="one_on_one", weekday=0, local_time=time(9, 0), interval_weeks=2
    )
    assert _apply(admin_client, lighter, team).status_code == 302
    live = PolicyAssignment.objects.filter(ended_at__isnull=True).get()
    assert live.policy == lighter
    assert set(CadencePlan.objects.live().values_list("interval_weeks", flat=True)) == {2}
    assert CadencePlan.objects.filter(end_reason="policy_ended").count() == 4


@pytest.mark.django_db
def test_a_team_without_a_lead_is_refused_with_a_reason(admin_client, policy):
    team = TeamFactory(lead=None, name="Leaderless")
    response = _apply(admin_client, policy, team)
    assert response.status_code == 200
    assert "Leaderless needs a lead" in response.content.decode()
    assert not PolicyAssignment.objects.exists() and not CadencePlan.objects.exists()


@pytest.mark.django_db
def test_ending_assignments_ends_their_plans(admin_client, org, team, policy):
    assignment = policy_apply(policy=policy, team=team, actor=org.admin)
    action = {"action": "end_assignments", "_selected_action": [assignment.pk]}
    # It asks first, listing the plans that would end, and ends nothing yet.
    asked = admin_client.post("/admin/cadence/policyassignment/", action)
    assert asked.status_code == 200
    body = asked.content.decode()
    assert "End these assignments and their plans?" in body and "Yes, end them" in body
    assert CadencePlan.objects.live().exists()
    for plan in CadencePlan.objects.live().select_related("coach", "coachee", "team"):
        assert plan_words(plan).replace("'", "&#x27;") in body
    response = admin_client.post("/admin/cadence/policyassignment/", action | {"confirmed": "yes"})
    assert response.status_code == 302
    assignment.refresh_from_db()
    assert assignment.ended_at is not None
    assert not CadencePlan.objects.live().exists()
    assert set(CadencePlan.objects.values_list("end_reason", flat=True)) == {"policy_ended"}
    ended = admin_client.get("/admin/cadence/cadenceplan/?state=ended").content.decode()
    assert "Team policy ended" in ended


@pytest.mark.django_db
def test_assignments_and_plans_are_never_deleted(admin_client, org, team, policy):
    assignment = policy_apply(policy=policy, team=team, actor=org.admin)
    plan = CadencePlan.objects.first()
    for path in [
        f"/admin/cadence/policyassignment/{assignment.pk}/delete/",
        f"/admin/cadence/cadenceplan/{plan.pk}/delete/",
    ]:
        assert admin_client.post(path, {"post": "yes"}).status_code == 403, path
    assert admin_client.get("/admin/cadence/cadenceplan/add/").status_code == 403
    assert PolicyAssignment.objects.count() == 1 and CadencePlan.objects.count() == 4


@pytest.mark.django_db
def test_a_policy_teams_run_cannot_be_deleted_and_the_page_says_why_in_one_line(
    client, org, root, policy
):
    """Only a superuser may delete policies (programme admins get 403)."""
    client.force_login(root)
    url = f"/admin/cadence/cadencepolicy/{policy.pk}/delete/"
    counts = []
    for teams in (2, 5):
        while PolicyAssignment.objects.count() < teams:
            policy_apply(policy=policy, team=TeamFactory(lead=org.manager), actor=org.admin)
        with CaptureQueriesContext(connection) as captured:
            page = client.get(url).content.decode()
        counts.append(len(captured))
        assert f"Sales team standard: applied to {teams} teams (now or before)" in page
    assert counts[0] == counts[1], counts  # not a query per team
    assert client.post(url, {"post": "yes"}).status_code == 200
    bulk = {"action": "delete_selected", "_selected_action": [policy.pk], "post": "yes"}
    client.post("/admin/cadence/cadencepolicy/", bulk)
    assert CadencePolicy.objects.filter(pk=policy.pk).exists()
    # One never applied goes as before.
    draft = CadencePolicy.objects.create(name="Draft")
    response = client.post(f"/admin/cadence/cadencepolicy/{draft.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not CadencePolicy.objects.filter(pk=draft.pk).exists()


# --- Plans ------------------------------------------------------------------------------


def _plan_form(plan, **changes):
    data = {
        "recurrence": plan.recurrence,
        "weekday": plan.weekday,
        "interval_weeks": plan.interval_weeks,
        "week_of_month": plan.week_of_month,
        "local_time": plan.local_time.strftime("%H:%M"),
        "duration_minutes": plan.duration_minutes,
        "time_zone": plan.time_zone,
        "ends_on": "",
    }
    if plan.paused:
        data["paused"] = "on"
    data.update(changes)
    return data


@pytest.mark.django_db
def test_the_plan_list_reads_like_a_rota(admin_client, org, weekly_plan):
    plan = weekly_plan()
    listing = admin_client.get("/admin/cadence/cadenceplan/").content.decode()
    assert "Tuesdays 10:00 Europe/Berlin, weekly · 30 min" in listing
    assert org.rep.display_name in listing
    for query in ["?state=live", "?kind__exact=one_on_one", "?paused__exact=0", "?q=Rita"]:
        page = admin_client.get(f"/admin/cadence/cadenceplan/{query}")
        assert (
            page.status_code == 200 and f"/cadenceplan/{plan.pk}/change/" in page.content.decode()
        )


@pytest.mark.django_db
def test_editing_a_plans_rule_goes_through_the_service(
    admin_client, org, weekly_plan, django_capture_on_commit_callbacks
):
    plan = weekly_plan()
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"/admin/cadence/cadenceplan/{plan.pk}/change/",
            _plan_form(plan, weekday=3, local_time="15:00", coach=org.other_manager.pk),
        )
    assert response.status_code == 302
    plan.refresh_from_db()
    assert (plan.weekday, plan.local_time) == (3, time(15, 0))
    assert plan.coach == org.manager  # who meets whom is not edited here
    assert plan.occurrences.exists()  # regenerated
    event = AuditEvent.objects.filter(verb="plan.changed").latest("at")
    assert event.actor == org.admin


@pytest.mark.django_db
def test_a_bad_rule_is_refused_and_nothing_changes(admin_client, org, weekly_plan):
    plan = weekly_plan()
    response = admin_client.post(
        f"/admin/cadence/cadenceplan/{plan.pk}/change/",
        _plan_form(plan, interval_weeks=12, time_zone="Mars/Olympus"),
    )
    assert response.status_code == 200
    plan.refresh_from_db()
    assert (plan.interval_weeks, plan.time_zone) == (1, "Europe/Berlin")


@pytest.mark.django_db
def test_an_ended_plan_is_read_only(admin_client, org, weekly_plan):
    plan = weekly_plan()
    from cadence.services import plan_end

    plan_end(plan=plan, actor=org.manager, reason="leave")
    page = admin_client.get(f"/admin/cadence/cadenceplan/{plan.pk}/change/").content.decode()
    assert 'name="weekday"' not in page
    assert "Long leave" in page
    admin_client.post(f"/admin/cadence/cadenceplan/{plan.pk}/change/", _plan_form(plan, weekday=4))
    plan.refresh_from_db()
    assert plan.weekday == 1


# --- Channels and the outbox ------------------------------------------------------------


@pytest.mark.django_db
def test_a_channels_failure_is_shown_and_cannot_be_edited_away(admin_client, team):
    channel = TeamChannel.objects.create(
        team=team,
        webhook_url="http://127.0.0.1:9/hook",
        is_active=False,
        last_failure_at=timezone.now() - timedelta(hours=3),
        last_error="URLError: connection refused",
    )
    listing = admin_client.get("/admin/notifications/teamchannel/").content.decode()
    assert "URLError: connection refused" in listing
    response = admin_client.post(
        f"/admin/notifications/teamchannel/{channel.pk}/change/",
        {
            "team": team.pk,
            "webhook_url": "https://hooks.example.com/T000/B000",
            "format": "slack",
            "is_active": "on",
            "last_error": "",
        },
    )
    assert response.status_code == 302
    channel.refresh_from_db()
    assert channel.is_active and channel.webhook_url.startswith("https://hooks.example.com/")
    assert channel.last_error == "URLError: connection refused"


@pytest.mark.django_db
def test_the_outbox_is_read_only(admin_client, org, team):
    row = Notification.objects.create(
        kind=NotificationKind.DIGEST,
        recipient=org.manager,
        period="2026-W10",
        status="failed",
        attempts=6,
        last_error="SMTPServerDisconnected: gone",
    )
    Notification.objects.create(kind=NotificationKind.TEAM_DIGEST, team=team, period="2026-W10")
    listing = admin_client.get("/admin/notifications/notification/").content.decode()
    assert "SMTPServerDisconnected: gone" in listing and "Enterprise East" in listing
    failed = admin_client.get("/admin/notifications/notification/?status__exact=failed")
    assert failed.status_code == 200
    assert admin_client.get("/admin/notifications/notification/add/").status_code == 403
    page = admin_client.get(f"/admin/notifications/notification/{row.pk}/change/")
    assert page.status_code == 200 and 'name="status"' not in page.content.decode()
    admin_client.post(f"/admin/notifications/notification/{row.pk}/change/", {"status": "pending"})
    assert (
        admin_client.post(
            f"/admin/notifications/notification/{row.pk}/delete/", {"post": "yes"}
        ).status_code
        == 403
    )
    row.refresh_from_db()
    assert row.status == "failed"


@pytest.mark.django_db
def test_the_outbox_lists_the_newest_recorded_first_reading_no_column_of_every_row(
    admin_client, org
):
    """A year of the outbox is 1.4 million rows at 10,000 people: the list walks the
    primary key newest first and counts once; nothing reads every row's date (the
    date hierarchy's years, a sort on `created_at` with no index to walk)."""
    early = Notification.objects.create(
        kind=NotificationKind.DIGEST, recipient=org.manager, period="2026-W09"
    )
    late = Notification.objects.create(
        kind=NotificationKind.DIGEST, recipient=org.rep, period="2026-W10"
    )
    admin_client.get("/admin/notifications/notification/")
    with CaptureQueriesContext(connection) as captured:
        response = admin_client.get("/admin/notifications/notification/")
    assert [row.pk for row in response.context["cl"].result_list] == [late.pk, early.pk]
    sql = [q["sql"] for q in captured.captured_queries]
    assert sum("COUNT(*)" in q for q in sql) == 1
    assert not [q for q in sql if "DISTINCT" in q or '"created_at" DESC' in q], sql
    for n in range(20):  # more rows, the same queries
        Notification.objects.create(kind=NotificationKind.DIGEST, recipient=org.hr, period=f"W{n}")
    with CaptureQueriesContext(connection) as more:
        admin_client.get("/admin/notifications/notification/")
    assert len(more) == len(captured)


# --- Nobody's words ---------------------------------------------------------------------


@pytest.mark.django_db
def test_no_notes_reach_any_cadence_admin_page(admin_client, org, team, policy):
    policy_apply(policy=policy, team=team, actor=org.admin)
    plan = CadencePlan.objects.get(kind="one_on_one", coachee=org.rep)
    from cadence.engine import occurrences_generate

    occurrences_generate()
    session = plan.occurrences.first().session
    notes_save(session=session, actor=org.manager, base_version=0, changes={"reality": SHARED})
    private_note_save(session=session, author=org.manager, text=SECRET, base_version=0)
    agenda_item_add(session=session, actor=org.rep, text=AGENDA)
    commitment_create(
        session=session,
        actor=org.manager,
        text=COMMITMENT,
        evidence="Two calls",
        due_on=timezone.localdate() + timedelta(days=7),
    )
    extra = one_on_one(org.manager, UserFactory(manager=org.manager))
    notes_save(session=extra, actor=org.manager, base_version=0, changes={"will": SHARED})
    for kind in (NotificationKind.UPCOMING, NotificationKind.MISSED):
        Notification.objects.create(kind=kind, recipient=org.manager, session=session)
    Notification.objects.create(
        kind=NotificationKind.ESCALATION, recipient=org.head, session=session, plan=plan
    )
    TeamChannel.objects.create(team=team, webhook_url="https://hooks.example.com/x")
    pages = list(PAGES)
    pages += [f"/admin/cadence/cadenceplan/{p.pk}/change/" for p in CadencePlan.objects.all()]
    pages += [
        f"/admin/notifications/notification/{n.pk}/change/" for n in Notification.objects.all()
    ]
    pages += [
        f"/admin/cadence/policyassignment/{a.pk}/change/" for a in PolicyAssignment.objects.all()
    ]
    pages += [f"/admin/cadence/cadencepolicy/{policy.pk}/change/"]
    pages += [f"/admin/notifications/teamchannel/{c.pk}/change/" for c in TeamChannel.objects.all()]
    pages += ["/admin/cadence/cadenceplan/?q=MARKER", "/admin/notifications/notification/?q=MARKER"]
    for path in pages:
        response = admin_client.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        for marker in (SECRET, SHARED, AGENDA, COMMITMENT):
            assert marker not in body, (path, marker)


@pytest.mark.django_db
def test_a_peer_pair_plan_shows_both_peers(admin_client, org):
    plan_create(
        kind="peer",
        coach=org.rep,
        coachee=org.peer,
        weekday=4,
        local_time=time(12, 0),
        generate=False,
    )
    listing = admin_client.get("/admin/cadence/cadenceplan/").content.decode()
    assert "Rita Rep" in listing and "Pavel Peer" in listing
