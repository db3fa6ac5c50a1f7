"""A run of misses reaches the coach's manager: the in-app line, the email and the
weekly digest name the coachee, the coach and the run, and lead to the same places —
the coachee's coaching history (where the misses are) and a manager review to plan
with the coach. The digest notification opens the digest itself, its recipient's alone."""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence import engine
from cadence.escalations import miss_runs
from coaching.models import CoachingSession
from coaching.services import session_mark_held
from notifications import outbox
from notifications.models import Notification, NotificationKind, NotificationStatus

START = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)  # a Monday; the plan meets Tuesdays
SWEEP = timedelta(days=4)  # the sweep runs through the week after the session's day


def _weeks(org, plan, story):
    """Live `story` ("held"/"missed" per week) through the sweep; the plan's sessions."""
    with time_machine.travel(START, tick=False):
        engine.occurrences_generate()
    for n, what in enumerate(story):
        at = START + timedelta(weeks=n)
        with time_machine.travel(at, tick=False):
            engine.occurrences_generate()
            session = CoachingSession.objects.filter(occurrence__plan=plan).order_by(
                "scheduled_start"
            )[n]
            if what == "held":
                with time_machine.travel(session.scheduled_end, tick=False):
                    session_mark_held(session=session, actor=org.manager)
        with time_machine.travel(at + SWEEP, tick=False):
            engine.sweep_missed()
    return list(CoachingSession.objects.filter(occurrence__plan=plan).order_by("scheduled_start"))


@pytest.fixture
def three_misses(org, weekly_plan, settings):
    """Held, then missed three Tuesdays running: escalations at the 2nd and 3rd miss."""
    settings.CADENCE_ESCALATE_AFTER = 2
    with time_machine.travel(START, tick=False):
        plan = weekly_plan(starts_on=date(2026, 3, 1))
    sessions = _weeks(org, plan, ["held", "missed", "missed", "missed"])
    return plan, sessions


@pytest.mark.django_db
def test_each_escalation_names_the_run_it_made(org, three_misses):
    plan, sessions = three_misses
    escalations = Notification.objects.filter(kind=NotificationKind.ESCALATION)
    assert {e.recipient_id for e in escalations} == {org.head.pk}
    runs = miss_runs([e.session_id for e in escalations])
    assert sorted(runs.values()) == [2, 3]
    assert runs[sessions[3].pk] == 3
    # A held session ends a run: before it, nothing in a row.
    assert miss_runs([sessions[0].pk]) == {sessions[0].pk: 0}
    assert miss_runs([]) == {}


@pytest.mark.django_db
def test_the_line_names_the_coachee_the_coach_and_the_run_and_leads_to_the_misses(
    client, org, three_misses
):
    client.force_login(org.head)
    with time_machine.travel(START + timedelta(weeks=4), tick=False):
        page = client.get("/me/notifications/").content.decode()
    said = "Rita Rep&#x27;s 1:1s with Mia Manager missed 3 times in a row"
    assert f"Sessions keep being missed: {said}" in page
    assert "Rita Rep&#x27;s 1:1s with Mia Manager missed 2 times in a row" in page
    assert f'href="/people/{org.rep.pk}/#h-heading"' in page
    # The place to act: the misses in Rita's history, and a review to plan with Mia.
    with time_machine.travel(START + timedelta(weeks=4), tick=False):
        person = client.get(f"/people/{org.rep.pk}/").content.decode()
    assert person.count("status-missed") >= 3 or person.count("Missed") >= 3
    assert f"/sessions/new/?kind=manager_review&with={org.manager.pk}" in person
    assert "Plan a manager review with Mia" in person


@pytest.mark.django_db
def test_only_someone_above_the_coach_is_offered_the_review(client, org, three_misses):
    """Mia, Rita's own manager, starts a 1:1 from Rita's page; no review with herself."""
    client.force_login(org.manager)
    person = client.get(f"/people/{org.rep.pk}/").content.decode()
    assert "Start a 1:1" in person and "Plan a manager review" not in person


@pytest.mark.django_db
def test_the_email_says_the_same_and_links_both_places(org, three_misses):
    mail.outbox.clear()
    with time_machine.travel(START + timedelta(weeks=4), tick=False):
        outbox.drain()
    escalations = [m for m in mail.outbox if "in a row" in m.subject]
    assert len(escalations) == 2
    latest = next(m for m in escalations if "3 times" in m.subject)
    assert latest.to == [org.head.email]
    assert latest.subject == "Rita Rep's 1:1s with Mia Manager missed 3 times in a row"
    assert f"/people/{org.rep.pk}/#h-heading" in latest.body
    assert f"/sessions/new/?kind=manager_review&with={org.manager.pk}" in latest.body
    html = latest.alternatives[0][0]
    assert "Plan a manager review with Mia" in html


@pytest.mark.django_db
def test_the_digest_lists_the_weeks_escalations_and_its_line_opens_it(client, org, three_misses):
    at = START + timedelta(weeks=4)
    with time_machine.travel(at, tick=False):
        engine.digests_queue()
    digest = Notification.objects.get(kind=NotificationKind.DIGEST, recipient=org.head)
    client.force_login(org.head)
    with time_machine.travel(at + timedelta(hours=1), tick=False):
        inbox = client.get("/me/notifications/").content.decode()
        assert f'href="/me/digests/{digest.period}/"' in inbox
        page = client.get(f"/me/digests/{digest.period}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert f"Weekly digest for the week {digest.period}" in text
    assert "Rita Rep&#x27;s 1:1s with Mia Manager missed 3 times in a row" in text
    assert f"/sessions/new/?kind=manager_review&amp;with={org.manager.pk}" in text
    # The email says the same and links the page.
    mail.outbox.clear()
    Notification.objects.exclude(pk=digest.pk).update(status=NotificationStatus.SENT)
    with time_machine.travel(at + timedelta(hours=1), tick=False):
        outbox.drain()
    (email,) = mail.outbox
    assert "missed 3 times in a row" in email.body
    assert f"/me/digests/{digest.period}/" in email.body


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "rep", "other_manager", "hr", "admin"])
def test_a_digest_is_its_recipients_alone(client, org, who):
    Notification.objects.create(kind=NotificationKind.DIGEST, recipient=org.head, period="2026-W10")
    client.force_login(getattr(org, who))
    assert client.get("/me/digests/2026-W10/").status_code == 404


@pytest.mark.django_db
def test_a_week_without_a_digest_is_404(client, org):
    client.force_login(org.head)
    assert client.get("/me/digests/2026-W10/").status_code == 404
    assert client.get("/me/digests/nonsense/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("runs", [1, 4])
def test_the_digest_page_costs_the_same_however_many_escalations(
    client, org, weekly_plan, settings, runs, django_assert_num_queries
):
    """Plans below Hana each missing twice: the page's queries do not grow with them."""
    settings.CADENCE_ESCALATE_AFTER = 2
    coachees = [org.rep, org.peer, org.other_rep, org.hr][:runs]
    for coachee in coachees:
        with time_machine.travel(START, tick=False):
            plan = weekly_plan(
                starts_on=date(2026, 3, 1),
                coachee=coachee,
                coach=coachee.reports_to,
            )
        _weeks(org, plan, ["missed", "missed"])
    at = START + timedelta(weeks=2)
    with time_machine.travel(at, tick=False):
        engine.digests_queue()
    client.force_login(org.head)
    with (
        time_machine.travel(at + timedelta(hours=1), tick=False),
        CaptureQueriesContext(connection) as queries,
    ):
        page = client.get("/me/digests/" + engine.iso_week(at) + "/")
    assert page.content.decode().count("missed 2 times in a row") == len(
        [c for c in coachees if c.reports_to.reports_to_id == org.head.pk]
    )
    assert len(queries) == QUERIES, [q["sql"] for q in queries]
    # The notifications page with those escalations among its lines: one query more than
    # without any (their runs, all at once).
    with (
        time_machine.travel(at + timedelta(hours=1), tick=False),
        CaptureQueriesContext(connection) as queries,
    ):
        page = client.get("/me/notifications/").content.decode()
    assert page.count("missed 2 times in a row") == len(
        [c for c in coachees if c.reports_to.reports_to_id == org.head.pk]
    )
    assert len(queries) == NOTIFICATIONS_QUERIES, [q["sql"] for q in queries]


# session, user, roles, the header's unread count; the digest row; its counts; the
# week's escalations and their runs
QUERIES = 12
# As tests/notifications/test_pages_notifications.py pins it (11), and the escalations' runs.
NOTIFICATIONS_QUERIES = 12
