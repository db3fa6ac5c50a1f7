"""“My cadence”: a coach's plans with their next session, misses to reschedule and the
next two weeks; changing, pausing and ending a plan. Outsiders get 404, bad input a
400 with the reason and nothing saved, and the page costs the same queries for one
plan or many."""

from datetime import UTC, datetime, time, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cadence.engine import occurrences_generate
from cadence.models import CadencePlan, Occurrence
from cadence.services import plan_create
from coaching.models import CoachingSession, SessionStatus
from coaching.services import notes_save, private_note_save
from tests.support.factories import UserFactory, one_on_one

PEOPLE = ["manager", "rep", "head", "other_manager", "peer", "other_rep", "hr", "admin"]
# Who may change the plan: its coach, everyone above the coach, and programme admins
# (Programme → Plans).
MAY_MANAGE = {"manager", "head", "admin"}
SECRET = "PRIVATE-MARKER-c4d3"
SHARED = "SHARED-NOTES-MARKER-91ab"
MONDAY = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


@pytest.fixture
def plan(org, weekly_plan):
    """Mia's weekly 1:1 with Rita, Tuesdays 10:00 Berlin, with six weeks of sessions."""
    made = weekly_plan()
    occurrences_generate()
    return made


def _sessions(plan):
    return CoachingSession.objects.filter(occurrence__plan=plan).order_by("scheduled_start")


def _state(plan):
    plan.refresh_from_db()
    return (
        plan.weekday,
        plan.local_time,
        plan.duration_minutes,
        plan.interval_weeks,
        plan.paused,
        plan.ended_at,
        list(_sessions(plan).values_list("pk", "scheduled_start")),
    )


# --- Who sees the page ----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", PEOPLE)
def test_the_page_shows_only_the_coachs_own_plans_and_is_404_to_non_managers(
    client, org, plan, who
):
    client.force_login(getattr(org, who))
    response = client.get("/cadence/")
    if who == "manager":
        assert response.status_code == 200
        assert b"1:1 with Rita Rep" in response.content
        assert b"Tuesdays 10:00 Europe/Berlin, weekly" in response.content
    elif who in {"head", "other_manager"}:
        # Managers always have the page (their plans may not exist yet), never others' plans.
        assert response.status_code == 200
        assert f'id="plan-{plan.pk}"'.encode() not in response.content
        assert b"No plans yet" in response.content
    else:
        assert response.status_code == 404


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_sign_in(client, plan):
    for path in ["/cadence/", f"/cadence/plans/{plan.pk}/edit/"]:
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
    response = client.post(f"/cadence/plans/{plan.pk}/end/", {"end-1-reason": "other"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert CadencePlan.objects.get(pk=plan.pk).is_live


@pytest.mark.django_db
def test_a_rep_who_runs_a_peer_plan_has_the_page(client, org):
    plan_create(
        kind="peer",
        coach=org.rep,
        coachee=org.peer,
        weekday=4,
        local_time=time(12, 0),
        generate=False,
    )
    client.force_login(org.rep)
    response = client.get("/cadence/")
    assert response.status_code == 200
    assert b"Peer coaching with Pavel Peer" in response.content
    client.force_login(org.peer)  # the other peer sees it on their sessions, not here
    assert client.get("/cadence/").status_code == 404


@pytest.mark.django_db
def test_my_team_links_my_cadence_for_managers_only(client, org, plan):
    client.force_login(org.manager)
    assert b'href="/cadence/"' in client.get("/team/").content
    client.force_login(org.rep)
    page = client.get("/me/").content
    assert b'href="/cadence/"' not in page
    assert b'href="/me/notifications/"' in page
    assert b'href="/me/calendar/"' in page


# --- Changing a plan: who may ----------------------------------------------------------


def _posts(plan):
    return {
        f"/cadence/plans/{plan.pk}/edit/": {
            f"plan-{plan.pk}-weekday": "3",
            f"plan-{plan.pk}-local_time": "15:00",
            f"plan-{plan.pk}-duration_minutes": "45",
            f"plan-{plan.pk}-interval_weeks": "1",
        },
        f"/cadence/plans/{plan.pk}/pause/": {"paused": "1"},
        f"/cadence/plans/{plan.pk}/end/": {f"end-{plan.pk}-reason": "leave"},
    }


@pytest.mark.django_db
@pytest.mark.parametrize("who", PEOPLE)
def test_only_the_coach_and_people_above_them_may_change_a_plan(client, org, plan, who):
    client.force_login(getattr(org, who))
    before = _state(plan)
    for path, data in _posts(plan).items():
        response = client.post(path, data)
        if who in MAY_MANAGE:
            assert response.status_code == 302, (who, path)
        else:
            assert response.status_code == 404, (who, path)
    if who in MAY_MANAGE:
        plan.refresh_from_db()
        assert plan.end_reason == "leave" and plan.ended_by == getattr(org, who)
    else:
        assert _state(plan) == before


@pytest.mark.django_db
def test_a_plan_id_that_does_not_exist_is_404(client, org, plan):
    client.force_login(org.manager)
    assert client.post("/cadence/plans/999999/edit/", {}).status_code == 404


# --- Changing a plan: what happens -----------------------------------------------------


@pytest.mark.django_db
def test_changing_day_and_time_moves_the_untouched_sessions_only(
    client, org, plan, django_capture_on_commit_callbacks
):
    first, second, *_ = _sessions(plan)
    notes_save(session=second, actor=org.rep, base_version=0, changes={"reality": "prepared"})
    client.force_login(org.manager)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/cadence/plans/{plan.pk}/edit/",
            {
                f"plan-{plan.pk}-weekday": "3",
                f"plan-{plan.pk}-local_time": "15:00",
                f"plan-{plan.pk}-duration_minutes": "45",
                f"plan-{plan.pk}-interval_weeks": "2",
            },
        )
    assert response.status_code == 302
    assert response["Location"] == f"/cadence/#plan-{plan.pk}"
    plan.refresh_from_db()
    assert (plan.weekday, plan.local_time, plan.duration_minutes, plan.interval_weeks) == (
        3,
        time(15, 0),
        45,
        2,
    )
    assert not CoachingSession.objects.filter(pk=first.pk).exists()
    assert CoachingSession.objects.filter(pk=second.pk).exists()  # prepared: kept
    page = client.get("/cadence/").content
    assert b"Thursdays 15:00 Europe/Berlin, every 2 weeks" in page
    assert b"Plan changed" in page


@pytest.mark.django_db
def test_pausing_and_resuming(client, org, plan):
    client.force_login(org.manager)
    client.post(f"/cadence/plans/{plan.pk}/pause/", {"paused": "1"})
    plan.refresh_from_db()
    assert plan.paused
    assert b"Resume" in client.get("/cadence/").content
    client.post(f"/cadence/plans/{plan.pk}/pause/", {"paused": "0"})
    plan.refresh_from_db()
    assert not plan.paused


@pytest.mark.django_db
def test_ending_a_plan_takes_a_reason_and_leaves_the_page(client, org, plan):
    client.force_login(org.manager)
    response = client.post(
        f"/cadence/plans/{plan.pk}/end/",
        {f"end-{plan.pk}-reason": "other", f"end-{plan.pk}-note": "Rita moves to Berlin office"},
    )
    assert response.status_code == 302
    plan.refresh_from_db()
    assert (plan.end_reason, plan.end_note) == ("other", "Rita moves to Berlin office")
    page = client.get("/cadence/")
    assert page.status_code == 200  # still a manager: the page stays, without the plan
    assert f'id="plan-{plan.pk}"'.encode() not in page.content


@pytest.mark.django_db
def test_htmx_posts_get_the_plans_fragment_back(client, org, plan):
    client.force_login(org.manager)
    response = client.post(
        f"/cadence/plans/{plan.pk}/pause/", {"paused": "1"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith(f'<article class="panel" id="plan-{plan.pk}"')
    assert "<html" not in body and "Paused: no new sessions" in body
    response = client.post(
        f"/cadence/plans/{plan.pk}/end/",
        {f"end-{plan.pk}-reason": "nonsense"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400
    assert "<html" not in response.content.decode()
    assert "Select a valid choice" in response.content.decode()


# --- Bad input: 400, a reason, nothing saved -------------------------------------------


BAD_EDITS = [
    ({"weekday": "9"}, "Select a valid choice"),
    ({"local_time": "25:99"}, "Enter a valid time"),
    ({"duration_minutes": "2"}, "greater than or equal to 5"),
    ({"duration_minutes": ""}, "This field is required"),
    ({"interval_weeks": "12"}, "less than or equal to 8"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("bad", "message"), BAD_EDITS)
def test_a_bad_edit_is_400_with_the_reason_and_saves_nothing(client, org, plan, bad, message):
    client.force_login(org.manager)
    before = _state(plan)
    data = {
        "weekday": "3",
        "local_time": "15:00",
        "duration_minutes": "45",
        "interval_weeks": "1",
        **bad,
    }
    response = client.post(
        f"/cadence/plans/{plan.pk}/edit/", {f"plan-{plan.pk}-{k}": v for k, v in data.items()}
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert _state(plan) == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"reason": ""}, "This field is required"),
        ({"reason": "bogus"}, "Select a valid choice"),
        ({"reason": "policy_ended"}, "Select a valid choice"),  # only ending a policy says so
        ({"reason": "other"}, "Say briefly why"),
        ({"reason": "other", "note": "x" * 501}, "at most 500 characters"),
    ],
)
def test_ending_without_a_proper_reason_is_400_and_the_plan_stays(client, org, plan, data, message):
    client.force_login(org.manager)
    before = _state(plan)
    response = client.post(
        f"/cadence/plans/{plan.pk}/end/", {f"end-{plan.pk}-{k}": v for k, v in data.items()}
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert _state(plan) == before


@pytest.mark.django_db
def test_pausing_with_nonsense_is_400(client, org, plan):
    client.force_login(org.manager)
    response = client.post(f"/cadence/plans/{plan.pk}/pause/", {"paused": "maybe"})
    assert response.status_code == 400
    assert b"Choose pause or resume" in response.content
    plan.refresh_from_db()
    assert not plan.paused


@pytest.mark.django_db
def test_an_ended_plan_cannot_be_changed(client, org, plan):
    client.force_login(org.manager)
    client.post(f"/cadence/plans/{plan.pk}/end/", {f"end-{plan.pk}-reason": "leave"})
    before = _state(plan)
    edit = _posts(plan)[f"/cadence/plans/{plan.pk}/edit/"]
    response = client.post(f"/cadence/plans/{plan.pk}/edit/", edit)
    assert response.status_code == 400
    assert b"This plan has ended" in response.content
    response = client.post(f"/cadence/plans/{plan.pk}/pause/", {"paused": "1"})
    assert response.status_code == 400
    assert _state(plan) == before


@pytest.mark.django_db
def test_a_refusal_for_a_plan_below_shows_on_top_of_the_page(client, org, plan):
    """The head may change Mia's plan, but their page lists their own plans only."""
    client.force_login(org.head)
    response = client.post(f"/cadence/plans/{plan.pk}/end/", {f"end-{plan.pk}-reason": "other"})
    assert response.status_code == 400
    assert b"Not saved" in response.content and b"Say briefly why" in response.content


# --- Misses and what comes next --------------------------------------------------------


@pytest.mark.django_db
def test_misses_of_the_last_four_weeks_offer_a_make_up(client, org, plan):
    recent = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=3))
    old = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=40))
    CoachingSession.objects.filter(pk__in=[recent.pk, old.pk]).update(
        status=SessionStatus.MISSED, missed_at=timezone.now()
    )
    client.force_login(org.manager)
    page = client.get("/cadence/").content.decode()
    assert f'href="/sessions/{recent.pk}/"' in page
    assert f'href="/sessions/{old.pk}/"' not in page
    assert f"/sessions/new/?kind=one_on_one&amp;with={org.rep.pk}" in page


@pytest.mark.django_db
def test_the_next_two_weeks_and_each_plans_next_session(client, org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan()
        occurrences_generate()
        client.force_login(org.manager)
        page = client.get("/cadence/").content.decode()
    first, second, third, *_ = _sessions(plan)
    assert f'<a href="/sessions/{first.pk}/"><time' in page  # the plan's next session
    assert f'href="/sessions/{second.pk}/"' in page
    assert f'href="/sessions/{third.pk}/"' not in page  # beyond two weeks
    assert "Tue 3 Mar, 10:00" in page  # in the viewer's time zone (Berlin)
    assert "one-off" not in page


@pytest.mark.django_db
def test_the_next_two_weeks_include_one_off_sessions_the_coach_runs(client, org, plan):
    one_off = one_on_one(org.manager, org.peer, start=timezone.now() + timedelta(days=3))
    elsewhere = one_on_one(org.other_manager, org.other_rep)
    client.force_login(org.manager)
    page = client.get("/cadence/").content.decode()
    assert f'href="/sessions/{one_off.pk}/"' in page and "one-off" in page
    assert f'href="/sessions/{elsewhere.pk}/"' not in page


@pytest.mark.django_db
def test_no_ones_words_reach_the_page(client, org, plan):
    session = _sessions(plan).first()
    notes_save(session=session, actor=org.manager, base_version=0, changes={"reality": SHARED})
    private_note_save(session=session, author=org.manager, text=SECRET, base_version=0)
    yesterday = timezone.now() - timedelta(days=1)
    CoachingSession.objects.filter(pk=session.pk).update(
        status=SessionStatus.MISSED, scheduled_start=yesterday
    )
    session.participants.update(scheduled_start=yesterday)
    client.force_login(org.manager)
    page = client.get("/cadence/").content
    assert SECRET.encode() not in page and SHARED.encode() not in page


# --- Query count -----------------------------------------------------------------------


def _coach_with(n_reports, org):
    for i in range(n_reports):
        rep = UserFactory(manager=org.manager, display_name=f"Report {i}")
        plan = plan_create(
            kind="one_on_one",
            coach=org.manager,
            coachee=rep,
            weekday=i % 5,
            local_time=time(9 + i % 8, 0),
            generate=False,
        )
        missed = one_on_one(org.manager, rep, start=timezone.now() - timedelta(days=2 + i % 20))
        CoachingSession.objects.filter(pk=missed.pk).update(status=SessionStatus.MISSED)
        assert plan.pk
    occurrences_generate()


def _queries(client, org):
    client.force_login(org.manager)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/cadence/")
    assert response.status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.django_db
def test_the_page_costs_the_same_queries_for_one_plan_or_many(client, org):
    _coach_with(1, org)
    few = _queries(client, org)
    _coach_with(12, org)
    assert Occurrence.objects.count() > 60
    many = _queries(client, org)
    # session, user, roles (nav), the header's unread count, plans with their next
    # session, misses + their people, the next two weeks + their people, the closed days
    # coming up.
    assert few == many == 10
