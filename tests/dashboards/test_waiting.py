"""What is waiting for me, in one place: each home lists everything waiting for the
signed-in person — the 1:1 to prepare, scores to give, feedback asked of them, pair
invitations, sessions to rate, escalations — as links that say what to do; and the
header counts their unread notifications on every page, for one query."""

import re
from datetime import date, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coaching.services import notes_save
from dashboards.waiting import waiting_for
from feedback.services import feedback_request_create
from notifications.models import Notification, NotificationKind
from notifications.services import notifications_mark_read
from tests.support.dashboards_team import CRITERIA, NOW, held, scored_call
from tests.support.factories import FocusAreaFactory, one_on_one
from tests.support.peers_pairs import form_pair

pytestmark = pytest.mark.django_db


def waiting_panel(html: str) -> str:
    """The "Waiting for you" panel's text, tags stripped and spaces squeezed."""
    panel = html.split('id="waiting-heading">', 1)[1].split("</section>", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", panel).split())


def get(client, person, path):
    client.force_login(person)
    with time_machine.travel(NOW, tick=False):
        response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def rita_waits(org):
    """Rita: a 1:1 ahead she has not prepared, a held one to rate, Pavel's feedback
    request, a pair Mia formed with Pavel, and a call of hers to score."""
    from scorecards import services as scorecards

    with time_machine.travel(NOW - timedelta(days=2), tick=False):
        done = one_on_one(org.manager, org.rep, start=NOW - timedelta(days=1))
    with time_machine.travel(NOW - timedelta(hours=20), tick=False):
        held(done, org.manager)
    with time_machine.travel(NOW, tick=False):
        ahead = one_on_one(org.manager, org.rep, start=NOW + timedelta(days=2))
        asked = feedback_request_create(
            requester=org.peer, responders=[org.rep], due_on=date(2026, 3, 25)
        )
        pair = form_pair(org.manager, org.rep, org.peer)
        template = scorecards.template_create(actor=org.admin, name="Calls", criteria=CRITERIA)
        FocusAreaFactory()
    scoring = scored_call(org, template, NOW - timedelta(days=1), coach=[2, 2, 2])
    return ahead, done, asked, pair, scoring


def test_my_coaching_lists_everything_waiting_for_the_rep_as_links(client, org, rita_waits):
    ahead, done, asked, pair, scoring = rita_waits
    html = get(client, org.rep, "/me/")
    said = waiting_panel(html)
    assert "Prepare for your 1:1 with Mia Manager on Fri 20 Mar, 13:00" in said
    assert f'href="/sessions/{ahead.pk}/prepare/"' in html
    assert "Answer Pavel Peer’s feedback request, by 25 Mar" in said
    assert f'href="/feedback/requests/{asked.pk}/"' in html
    assert "Answer Mia Manager’s peer pair invitation" in said
    assert f'href="/peers/{pair.pk}/"' in html
    assert "Rate your 1:1 with Mia Manager on 17 Mar" in said
    assert f'href="/sessions/{done.pk}/#rating"' in html
    assert f"Score “{scoring.work.title}”" in said
    assert f'href="/scorecards/rounds/{scoring.pk}/"' in html or "/rounds/" in html
    assert 'id="waiting-heading">Waiting for you <span class="count">5</span>' in html
    # Nobody else's: Pavel's own list has none of Rita's.
    pavel = waiting_panel(get(client, org.peer, "/me/"))
    assert "Pavel Peer’s feedback request" not in pavel and "Prepare" not in pavel


def test_what_is_done_leaves_the_list(client, org, rita_waits):
    ahead, *_ = rita_waits
    with time_machine.travel(NOW, tick=False):
        notes_save(session=ahead, actor=org.rep, base_version=0, changes={"reality": "Mine"})
    said = waiting_panel(get(client, org.rep, "/me/"))
    assert "Prepare for your" not in said


def test_nothing_waiting_says_so(client, org):
    said = waiting_panel(get(client, org.other_rep, "/me/"))
    assert said.startswith("Waiting for you 0 Nothing is waiting for you")


def test_each_roles_home_lists_what_waits_for_that_person(client, org, rita_waits):
    """Mia's "My team", Harriet's cadence health and Adam's programme page each have
    their own person's list; read from above, Mia's team page has none of hers."""
    for person, path in ((org.manager, "/team/"), (org.hr, "/hr/"), (org.admin, "/programme/")):
        assert "Waiting for you" in get(client, person, path), path
    with time_machine.travel(NOW, tick=False):
        feedback_request_create(
            requester=org.rep, responders=[org.manager], due_on=date(2026, 3, 26)
        )
    mine = waiting_panel(get(client, org.manager, "/team/"))
    assert "Answer Rita Rep’s feedback request, by 26 Mar" in mine
    above = get(client, org.head, f"/team/managers/{org.manager.pk}/")
    assert 'id="waiting-heading"' not in above


def test_an_unread_escalation_waits_for_the_coachs_manager_until_read(
    client, org, weekly_plan_for_head
):
    plan = weekly_plan_for_head
    Notification.objects.create(kind=NotificationKind.ESCALATION, recipient=org.head, plan=plan)
    html = get(client, org.head, "/team/")
    said = waiting_panel(html)
    assert "Rita Rep's 1:1s with Mia Manager missed again" in said.replace("&#x27;", "'")
    assert f'href="/people/{org.rep.pk}/#h-heading"' in html
    assert "Plan a manager review with Mia" in said
    with time_machine.travel(NOW, tick=False):
        notifications_mark_read(person=org.head)
    assert "missed" not in waiting_panel(get(client, org.head, "/team/"))


@pytest.fixture
def weekly_plan_for_head(org):
    from datetime import time

    from cadence.services import plan_create

    return plan_create(
        kind="one_on_one",
        coach=org.manager,
        coachee=org.rep,
        weekday=1,
        local_time=time(10, 0),
        generate=False,
    )


@pytest.mark.parametrize("how_many", [1, 4])
def test_the_list_costs_the_same_however_much_waits(org, how_many):
    """Mia with one, or more than are shown, of each: 1:1s with Hana ahead, requests,
    calls of Rita's to score; a pair invitation. The same six queries (the feedback
    inbox and the sessions to rate read here; a seventh, the runs, only with
    escalations)."""
    from scorecards import services as scorecards

    with time_machine.travel(NOW - timedelta(days=1), tick=False):
        template = scorecards.template_create(actor=org.admin, name="Calls", criteria=CRITERIA)
        form_pair(org.head, org.manager, org.other_manager)
    for i in range(how_many):
        scored_call(org, template, NOW - timedelta(days=1, hours=i))
    with time_machine.travel(NOW, tick=False):
        for i in range(how_many):
            one_on_one(org.head, org.manager, start=NOW + timedelta(days=i + 1))
            feedback_request_create(
                requester=org.rep, responders=[org.manager], due_on=date(2026, 3, 25 + i)
            )
        with CaptureQueriesContext(connection) as queries:
            waiting = waiting_for(person=org.manager)
    assert len(queries) == 6, [q["sql"] for q in queries]
    kinds = [line.kind for line in waiting.lines]
    assert {"prepare", "score", "feedback", "pair"} <= set(kinds)
    assert kinds.count("feedback") == min(how_many, 3)


def test_the_header_counts_unread_notifications_on_every_page_for_one_query(client, org):
    for i in range(3):
        Notification.objects.create(
            kind=NotificationKind.DIGEST, recipient=org.manager, period=f"2026-W1{i}"
        )
    client.force_login(org.manager)
    for path in ("/sessions/", "/me/", "/feedback/", "/me/notifications/"):
        with CaptureQueriesContext(connection) as queries:
            html = client.get(path).content.decode()
        badge = '<span class="count count-unread">3<span class="visually-hidden"> unread</span>'
        assert f"Notifications {badge}" in html, path
        unread = [
            q
            for q in queries
            if '"__count" FROM "cadence_notification"' in q["sql"] and "read_at" in q["sql"]
        ]
        assert len(unread) == 1, path  # the header's: the list's own counts are aggregates
    notifications_mark_read(person=org.manager)
    html = client.get("/sessions/").content.decode()
    assert "count-unread" not in html
