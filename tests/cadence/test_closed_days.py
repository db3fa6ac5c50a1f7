"""Closed days: the programme pauses (a winter break, a company holiday). The generator
plans nothing on those days in each plan's own zone; closing them removes what was
planned there and nobody touched; opening them again plans them again. Programme
admins only, from the page and the API; refusals are 400 and save nothing."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.utils import timezone

from cadence.closures import closure_clear
from cadence.engine import occurrences_generate, sweep_missed
from cadence.models import Closure
from cadence.services_closures import closure_create, closure_remove
from cadence.tasks import generate_occurrences
from cadence.views_closures import removal_said
from coaching.models import CoachingSession, SessionStatus
from coaching.services import notes_save, session_reschedule
from people.models import AuditEvent

MONDAY = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
BREAK = (date(2026, 12, 22), date(2027, 1, 1))


def _days(plan) -> list[str]:
    zone = ZoneInfo(plan.time_zone)
    sessions = CoachingSession.objects.filter(occurrence__plan=plan).order_by("scheduled_start")
    return [s.scheduled_start.astimezone(zone).date().isoformat() for s in sessions]


@pytest.mark.django_db
def test_nothing_is_planned_on_closed_days(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        Closure.objects.create(name="Winter break", first_day=BREAK[0], last_day=BREAK[1])
        plan = weekly_plan(time_zone="Europe/Berlin")
        assert occurrences_generate() == 4
    # Tuesdays to the horizon (11 January): 22 and 29 December are closed.
    assert _days(plan) == ["2026-12-01", "2026-12-08", "2026-12-15", "2027-01-05"]
    with time_machine.travel(datetime(2027, 1, 6, 12, 0, tzinfo=UTC), tick=False):
        # Nothing fell due in the break: the sweep finds nothing to mark missed.
        assert sweep_missed() == 4  # 1, 8 and 15 December and 5 January: nobody logged them
        assert not CoachingSession.objects.filter(
            status=SessionStatus.MISSED, scheduled_start__date__range=BREAK
        ).exists()


@pytest.mark.django_db
def test_each_plan_reads_the_closed_day_in_its_own_zone(org, weekly_plan):
    """Wednesday 23 December is closed. Los Angeles's Tuesday 23:30 is Wednesday in UTC
    and is held; Tokyo's Wednesday 08:00 is Tuesday in UTC and is not planned."""
    with time_machine.travel(datetime(2026, 12, 14, 8, 0, tzinfo=UTC), tick=False):
        Closure.objects.create(
            name="Offsite", first_day=date(2026, 12, 23), last_day=date(2026, 12, 23)
        )
        west = weekly_plan(time_zone="America/Los_Angeles", local_time=time(23, 30))
        east = weekly_plan(
            coachee=org.peer, time_zone="Asia/Tokyo", weekday=2, local_time=time(8, 0)
        )
        occurrences_generate()
    assert "2026-12-22" in _days(west)
    assert "2026-12-23" not in _days(east) and "2026-12-16" in _days(east)


@pytest.mark.django_db
def test_closing_days_removes_what_nobody_touched_and_keeps_the_rest(
    org, weekly_plan, django_capture_on_commit_callbacks
):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan(time_zone="Europe/Berlin")
        assert occurrences_generate() == 6
        on_22, on_29 = CoachingSession.objects.filter(
            occurrence__plan=plan,
            scheduled_start__date__in=[date(2026, 12, 22), date(2026, 12, 29)],
        ).order_by("scheduled_start")
        notes_save(session=on_22, actor=org.rep, base_version=0, changes={"goal": "Discovery"})
        with django_capture_on_commit_callbacks() as queued:
            closure = closure_create(
                actor=org.admin, name=" Winter break ", first_day=BREAK[0], last_day=BREAK[1]
            )
        # Made, not yet cleared: the worker's task is queued for the commit.
        assert closure.name == "Winter break" and closure.removed is None
        assert CoachingSession.objects.filter(pk=on_29.pk).exists()
        assert len(queued) == 1
        queued[0]()  # the worker's run (eager in tests)
    closure.refresh_from_db()
    assert closure.removed == 1
    assert CoachingSession.objects.filter(pk=on_22.pk).exists()  # written in: stays
    assert not CoachingSession.objects.filter(pk=on_29.pk).exists()
    assert _days(plan) == ["2026-12-01", "2026-12-08", "2026-12-15", "2026-12-22", "2027-01-05"]
    event = AuditEvent.objects.get(verb="closure.created")
    assert event.actor == org.admin and event.target_id == str(closure.pk)
    assert event.data == {"first_day": "2026-12-22", "last_day": "2027-01-01"}
    cleared = AuditEvent.objects.get(verb="closure.cleared")
    assert cleared.actor is None and cleared.target_id == str(closure.pk)
    assert cleared.data == {"sessions_removed": 1}


@pytest.mark.django_db
def test_clearing_twice_removes_nothing_twice_and_an_open_again_closure_is_left(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        weekly_plan(time_zone="Europe/Berlin")
        occurrences_generate()
        closure = closure_create(
            actor=org.admin, name="Winter break", first_day=BREAK[0], last_day=BREAK[1]
        )
        assert closure_clear(closure.pk) == 2
        assert closure_clear(closure.pk) is None  # a repeated message
        closure.refresh_from_db()
        assert closure.removed == 2
        assert AuditEvent.objects.filter(verb="closure.cleared").count() == 1
        closure_remove(actor=org.admin, closure=closure)
        assert closure_clear(closure.pk) is None  # opened again before its worker ran


@pytest.mark.django_db
def test_the_hourly_generation_clears_a_closure_whose_message_was_lost(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan(time_zone="Europe/Berlin")
        occurrences_generate()
        closure = closure_create(  # its on-commit message never runs here: "lost"
            actor=org.admin, name="Winter break", first_day=BREAK[0], last_day=BREAK[1]
        )
        assert "2026-12-29" in _days(plan)
        generate_occurrences()  # beat's hourly run
    closure.refresh_from_db()
    assert closure.removed == 2
    assert "2026-12-29" not in _days(plan) and "2026-12-22" not in _days(plan)


@pytest.mark.django_db
def test_a_moved_session_stays(org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan(time_zone="Europe/Berlin")
        occurrences_generate()
        session = CoachingSession.objects.get(
            occurrence__plan=plan, scheduled_start__date=date(2026, 12, 29)
        )
        session_reschedule(
            session=session, actor=org.manager, start=session.scheduled_start + timedelta(hours=2)
        )
        closure = closure_create(
            actor=org.admin, name="Winter break", first_day=BREAK[0], last_day=BREAK[1]
        )
        assert closure_clear(closure.pk) == 1  # the 22nd; the moved 29th stays
    assert CoachingSession.objects.filter(pk=session.pk).exists()


@pytest.mark.django_db
def test_opening_the_days_again_plans_them_again(
    org, weekly_plan, django_capture_on_commit_callbacks
):
    with time_machine.travel(MONDAY, tick=False):
        plan = weekly_plan(time_zone="Europe/Berlin")
        occurrences_generate()
        closure = closure_create(
            actor=org.admin, name="Winter break", first_day=BREAK[0], last_day=BREAK[1]
        )
        closure_clear(closure.pk)
        assert len(_days(plan)) == 4
        with django_capture_on_commit_callbacks(execute=True):
            closure_remove(actor=org.admin, closure=closure)
    assert _days(plan) == [
        "2026-12-01",
        "2026-12-08",
        "2026-12-15",
        "2026-12-22",
        "2026-12-29",
        "2027-01-05",
    ]
    assert not Closure.objects.exists()
    assert AuditEvent.objects.filter(verb="closure.removed", actor=org.admin).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "first", "last", "field", "message"),
    [
        ("  ", date(2026, 12, 24), date(2026, 12, 24), "name", "Name the closure"),
        ("x" * 101, date(2026, 12, 24), date(2026, 12, 24), "name", "under 100 characters"),
        ("Break", date(2026, 12, 24), date(2026, 12, 23), "last_day", "on or after the first"),
        ("Past", date(2026, 11, 2), date(2026, 11, 6), "last_day", "have passed"),
        ("Long", date(2026, 12, 1), date(2027, 1, 1), "last_day", "at most 31 days"),
        ("Far", date(9999, 12, 30), date(9999, 12, 31), "first_day", "next two years"),
        ("Again", date(2026, 12, 31), date(2027, 1, 4), "first_day", "overlap “Winter break”"),
    ],
)
def test_bad_days_are_refused_and_nothing_is_saved(org, name, first, last, field, message):
    with time_machine.travel(MONDAY, tick=False):
        Closure.objects.create(name="Winter break", first_day=BREAK[0], last_day=BREAK[1])
        with pytest.raises(ValidationError) as refused:
            closure_create(actor=org.admin, name=name, first_day=first, last_day=last)
    assert message in " ".join(refused.value.message_dict[field])
    assert Closure.objects.count() == 1
    assert not AuditEvent.objects.filter(verb__startswith="closure.").exists()


# --- The page ---------------------------------------------------------------------------


WINTER = {"name": "Winter break", "first_day": "2026-12-22", "last_day": "2027-01-01"}


@pytest.mark.django_db
def test_the_admin_closes_days_from_the_page(client_for, org):
    with time_machine.travel(MONDAY, tick=False):
        response = client_for(org.admin).post("/programme/closed-days/new/", WINTER, follow=True)
    page = response.content.decode()
    assert response.redirect_chain == [("/programme/closed-days/", 302)]
    assert "Closed: Winter break." in page
    assert "Tue 22 Dec 2026" in page and "Fri 1 Jan 2027" in page and "(11 days)" in page
    assert Closure.objects.get().created_by == org.admin


@pytest.mark.parametrize(
    ("removed", "said"),
    [
        (None, "those already planned are being removed, and the list below says how many"),
        (0, "Nothing was planned on those days; nothing will be."),
        (1, "1 planned session on those days was removed; no more will be planned."),
        (14, "14 planned sessions on those days were removed; no more will be planned."),
    ],
)
def test_the_message_says_what_went_once_the_worker_has_said(removed, said):
    """A worker done before the redirect (eager, or quick) is named in the message."""
    assert said in removal_said(Closure(removed=removed))


@pytest.mark.django_db(transaction=True)
def test_a_worker_done_before_the_redirect_is_named_in_the_message_and_the_api(
    client_for, org, weekly_plan
):
    """Committed, the eager worker of the tests clears the days before the answer:
    the page's message and the API's answer already say how many went."""
    with time_machine.travel(MONDAY, tick=False):
        weekly_plan(time_zone="Europe/Berlin")
        occurrences_generate()
        client = client_for(org.admin)
        page = client.post("/programme/closed-days/new/", WINTER, follow=True).content.decode()
        assert "Closed: Winter break. 2 planned sessions on those days were removed" in page
        assert '<td aria-live="polite">2</td>' in _row(page, Closure.objects.get().pk)
        Closure.objects.all().delete()
        made = client.post("/api/v1/closed-days/", WINTER, content_type="application/json")
    assert (made.status_code, made.json()["sessions_removed"]) == (201, 0)  # gone already


def _row(page: str, pk: int) -> str:
    start = page.index(f'<tr id="closure-{pk}"')
    return page[start : page.index("</tr>", start)]


@pytest.mark.django_db
def test_the_page_says_removing_until_the_worker_is_done_and_asks_again_meanwhile(
    client_for, org, weekly_plan
):
    with time_machine.travel(MONDAY, tick=False):
        weekly_plan(time_zone="Europe/Berlin")
        occurrences_generate()
        client = client_for(org.admin)
        # The test's transaction never commits: the worker's message is not sent.
        response = client.post("/programme/closed-days/new/", WINTER, follow=True)
        page = response.content.decode()
        closure = Closure.objects.get()
        assert "Closed: Winter break. No more sessions will be planned on those days; " in page
        row = _row(page, closure.pk)
        assert "Removing…" in row
        assert 'hx-get="/programme/closed-days/"' in row and 'hx-trigger="every 2s"' in row
        assert f'hx-select="#closure-{closure.pk}"' in row
        closure_clear(closure.pk)  # the worker
        row = _row(client.get("/programme/closed-days/").content.decode(), closure.pk)
    assert '<td aria-live="polite">2</td>' in row and "hx-get" not in row


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Name the closure"),
        ({"name": "Break", "first_day": "soon", "last_day": "2026-12-24"}, "Give a date."),
        (
            {"name": "Break", "first_day": "2026-12-24", "last_day": "2026-12-20"},
            "The last day comes on or after the first.",
        ),
    ],
)
def test_bad_input_on_the_page_is_a_400_saying_why(client_for, org, data, message):
    with time_machine.travel(MONDAY, tick=False):
        response = client_for(org.admin).post("/programme/closed-days/new/", data)
    assert response.status_code == 400 and message in response.content.decode()
    assert not Closure.objects.exists()


@pytest.mark.django_db
def test_the_admin_opens_days_again_from_the_page(client_for, org):
    closure = Closure.objects.create(
        name="Offsite", first_day=timezone.localdate() + timedelta(days=9),
        last_day=timezone.localdate() + timedelta(days=9),
    )  # fmt: skip
    response = client_for(org.admin).post(
        f"/programme/closed-days/{closure.pk}/remove/", follow=True
    )
    assert "Open again: Offsite." in response.content.decode()
    assert not Closure.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "rep", "hr", "head"])
def test_everyone_but_programme_admins_gets_404(client_for, org, who):
    closure = Closure.objects.create(name="Offsite", first_day=BREAK[0], last_day=BREAK[0])
    client = client_for(getattr(org, who))
    assert client.get("/programme/closed-days/").status_code == 404
    assert client.post("/programme/closed-days/new/", {"name": "x"}).status_code == 404
    assert client.post(f"/programme/closed-days/{closure.pk}/remove/").status_code == 404
    assert client.get("/api/v1/closed-days/").status_code == 404
    assert client.delete(f"/api/v1/closed-days/{closure.pk}/").status_code == 404
    assert Closure.objects.count() == 1


@pytest.mark.django_db
def test_my_cadence_says_which_days_are_closed(client_for, org):
    today = timezone.localdate()
    Closure.objects.create(
        name="Offsite", first_day=today + timedelta(days=3), last_day=today + timedelta(days=4)
    )
    Closure.objects.create(
        name="Far away", first_day=today + timedelta(days=90), last_day=today + timedelta(days=91)
    )
    page = client_for(org.manager).get("/cadence/").content.decode()
    assert "Closed: Offsite" in page and "no session is planned on these days" in page
    assert "Far away" not in page


# --- The API ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_closes_lists_and_opens_days(client_for, org, weekly_plan):
    with time_machine.travel(MONDAY, tick=False):
        weekly_plan(time_zone="Europe/Berlin")
        occurrences_generate()
        client = client_for(org.admin)
        made = client.post("/api/v1/closed-days/", WINTER, content_type="application/json")
        assert made.status_code == 201
        body = made.json()
        # Not committed in this test: no worker yet, so nothing removed yet.
        assert (body["name"], body["sessions_removed"]) == ("Winter break", None)
        closure_clear(body["id"])  # the worker
        listed = client.get("/api/v1/closed-days/").json()["results"]
        assert [(c["id"], c["sessions_removed"]) for c in listed] == [(body["id"], 2)]
        read = client.get(f"/api/v1/closed-days/{body['id']}/").json()
        assert (read["last_day"], read["sessions_removed"]) == ("2027-01-01", 2)
        assert client.delete(f"/api/v1/closed-days/{body['id']}/").status_code == 204
    assert not Closure.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": "Break", "first_day": "2026-12-24"}, "last_day"),
        ({"name": "Break", "first_day": "2026-12-24", "last_day": "2026-12-01"}, "last_day"),
        ({"name": "", "first_day": "2026-12-24", "last_day": "2026-12-24"}, "name"),
        ({"name": "B", "first_day": "2026-12-24", "last_day": "2026-12-24", "x": 1}, "x"),
    ],
)
def test_bad_input_to_the_api_is_a_400_naming_the_field(client_for, org, data, field):
    with time_machine.travel(MONDAY, tick=False):
        response = client_for(org.admin).post(
            "/api/v1/closed-days/", data, content_type="application/json"
        )
    assert response.status_code == 400 and field in response.json()
    assert not Closure.objects.exists()


# --- Query counts -----------------------------------------------------------------------


def _closures(n: int, today: date) -> None:
    Closure.objects.bulk_create(
        Closure(name=f"Break {i}", first_day=day, last_day=day)
        for i, day in enumerate(today + timedelta(days=d) for d in range(-3 * n, 3 * n, 3))
    )


@pytest.mark.django_db
@pytest.mark.parametrize("n", [2, 20])
def test_the_page_and_the_list_cost_the_same_whatever_the_closures(
    client_for, org, n, django_assert_num_queries
):
    _closures(n, timezone.localdate())
    client = client_for(org.admin)
    client.get("/programme/closed-days/")
    # Session and person, the admin's roles, the header's unread count, closures ahead,
    # past ones.
    with django_assert_num_queries(6):
        assert client.get("/programme/closed-days/").status_code == 200
    # Session and person, the admin's roles, the count, the page.
    with django_assert_num_queries(5):
        assert client.get("/api/v1/closed-days/").status_code == 200


@pytest.mark.django_db
def test_a_rep_reads_the_closed_days_beside_her_next_session_and_in_the_api(client_for, org):
    today = timezone.localdate()
    Closure.objects.create(
        name="Winter break",
        first_day=today + timedelta(days=5),
        last_day=today + timedelta(days=13),
    )
    client = client_for(org.rep)
    page = client.get("/me/").content.decode()
    next_session = page.split('id="next-heading"', 1)[1].split("</section>", 1)[0]
    assert "Closed: Winter break" in next_session and "(9 days)" in next_session
    closed = client.get("/api/v1/dashboards/growth/").json()["closed_days"]
    assert closed == [
        {
            "name": "Winter break",
            "first_day": (today + timedelta(days=5)).isoformat(),
            "last_day": (today + timedelta(days=13)).isoformat(),
        }
    ]
