"""My sessions (`/sessions/`): what is coming up, then every past session a page at a
time, so a 1:1 from last year is reachable from the browser, not only the latest 30."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.services import notes_save, session_cancel
from coaching.views import PAST_PER_PAGE
from tests.support.factories import one_on_one


def past_sessions(coach, coachee, n, *, first_days_ago=1):
    """`n` 1:1s a week apart, the newest `first_days_ago` days ago; newest first. Each
    is planned the day before it, as the service allows no more than 60 days back."""
    now = timezone.now()
    made = []
    for i in range(n):
        start = now - timedelta(days=first_days_ago + 7 * i)
        with time_machine.travel(start - timedelta(days=1), tick=False):
            made.append(one_on_one(coach, coachee, start=start))
    return made


def listed(html):
    """The session ids of the past list, in page order."""
    past = html.split('id="recent-heading"', 1)[1]
    return [int(pk) for pk in re.findall(r'href="/sessions/(\d+)/"', past)]


@pytest.fixture
def history(org):
    sessions = past_sessions(org.manager, org.rep, PAST_PER_PAGE + 5)
    ahead = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=2))
    return sessions, ahead


def test_the_first_page_has_what_is_coming_up_and_the_latest_thirty(client, org, history):
    sessions, ahead = history
    client.force_login(org.rep)
    response = client.get("/sessions/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Coming up" in html and f'href="/sessions/{ahead.pk}/"' in html
    assert listed(html) == [s.pk for s in sessions[:PAST_PER_PAGE]]
    assert "Page 1 of 2" in html and 'href="?page=2#recent-heading">Older</a>' in html


def test_older_pages_go_back_further_without_what_is_coming_up(client, org, history):
    sessions, ahead = history
    client.force_login(org.rep)
    html = client.get("/sessions/?page=2").content.decode()
    assert "Earlier sessions" in html and "Coming up" not in html
    assert f'href="/sessions/{ahead.pk}/"' not in html
    assert listed(html) == [s.pk for s in sessions[PAST_PER_PAGE:]]
    assert "Page 2 of 2" in html and 'href="?page=1#recent-heading">Newer</a>' in html
    # A link kept past the last page (sessions deleted since) shows the last page.
    assert listed(client.get("/sessions/?page=9").content.decode()) == listed(html)


@pytest.mark.parametrize("raw", ["0", "-1", "two", "1.5"])
def test_a_bad_page_number_is_a_400_that_says_so_over_the_first_page(client, org, history, raw):
    sessions, _ = history
    client.force_login(org.rep)
    response = client.get("/sessions/", {"page": raw})
    html = response.content.decode()
    assert response.status_code == 400
    assert "Give a page number: a whole number from 1." in html
    assert listed(html) == [s.pk for s in sessions[:PAST_PER_PAGE]]


def test_a_page_past_the_end_of_a_short_history_is_the_first_with_what_is_coming_up(client, org):
    sessions = past_sessions(org.manager, org.rep, 3)
    ahead = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=2))
    client.force_login(org.rep)
    html = client.get("/sessions/?page=4").content.decode()
    assert "Coming up" in html and f'href="/sessions/{ahead.pk}/"' in html
    assert listed(html) == [s.pk for s in sessions]


def test_only_ones_own_sessions_are_listed(client, org, history):
    theirs = past_sessions(org.other_manager, org.other_rep, 3)
    client.force_login(org.rep)
    pages = (
        client.get("/sessions/").content.decode() + client.get("/sessions/?page=2").content.decode()
    )
    shown = {int(pk) for pk in re.findall(r"/sessions/(\d+)/", pages)}
    assert shown and not {s.pk for s in theirs} & shown


def count(client, path):
    client.get(path)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


# Signing in (the session, the person, their roles), the header's unread count, then
# the page's own: what is coming up (the first page only, whether each coachee
# prepared joined in), how many past ones, the page, their people.
@pytest.mark.parametrize(("path", "pinned"), [("/sessions/", 8), ("/sessions/?page=2", 7)])
def test_each_page_costs_the_same_however_long_the_history(client, org, path, pinned):
    past_sessions(org.manager, org.rep, PAST_PER_PAGE + 5)
    client.force_login(org.rep)
    assert count(client, path) == pinned
    past_sessions(org.manager, org.rep, 2 * PAST_PER_PAGE, first_days_ago=400)
    one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=3))
    prepared = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=10))
    notes_save(session=prepared, actor=org.rep, base_version=0, changes={"reality": "Mine"})
    cancelled = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=17))
    session_cancel(session=cancelled, actor=org.manager, reason="travel")
    assert count(client, path) == pinned


# --- What each line says ---------------------------------------------------------------

NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)  # a Wednesday


def coming_up(html):
    """The "Coming up" panel's text, tags stripped and spaces squeezed."""
    panel = html.split('id="upcoming-heading"', 1)[1].split('id="recent-heading"', 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", panel).split())


@pytest.fixture
def weeks_ahead(org):
    """Mia's 1:1s with Rita: Friday (Rita prepared), next Tuesday (not yet), and the
    Tuesday after, cancelled for travel."""
    with time_machine.travel(NOW, tick=False):
        friday = one_on_one(org.manager, org.rep, start=NOW + timedelta(days=2))
        notes_save(session=friday, actor=org.rep, base_version=0, changes={"reality": "Mine"})
        tuesday = one_on_one(org.manager, org.rep, start=NOW + timedelta(days=6))
        later = one_on_one(org.manager, org.rep, start=NOW + timedelta(days=13))
        session_cancel(session=later, actor=org.manager, reason="travel")
    return friday, tuesday, later


def test_the_coach_sees_per_1_1_ahead_whether_the_coachee_prepared_by_week(
    client, org, weeks_ahead
):
    friday, tuesday, later = weeks_ahead
    client.force_login(org.manager)
    with time_machine.travel(NOW + timedelta(hours=1), tick=False):
        html = client.get("/sessions/").content.decode()
    said = coming_up(html)
    assert said.index("This week") < said.index("1:1 with Rita Rep prepared")
    assert said.index("Next week") < said.index("1:1 with Rita Rep not prepared yet")
    assert "Week of 16 Mar" in said
    # The link says what and with whom, not only "1:1".
    assert f'<a href="/sessions/{friday.pk}/">1:1 with Rita Rep</a>' in html
    # The coach is not offered to prepare as the coachee.
    assert f"/sessions/{tuesday.pk}/prepare/" not in html


def test_a_cancelled_1_1_stays_in_each_participants_list_said_cancelled_with_its_reason(
    client, org, weeks_ahead
):
    *_, later = weeks_ahead
    for person in (org.rep, org.manager):
        client.force_login(person)
        with time_machine.travel(NOW + timedelta(hours=1), tick=False):
            html = client.get("/sessions/").content.decode()
        said = coming_up(html)
        assert f'href="/sessions/{later.pk}/"' in html.split('id="recent-heading"')[0]
        assert "Week of 16 Mar" in said and "Cancelled · Travel" in said, person
        assert later.pk not in listed(html)  # in its place ahead, not among the past
        # Neither prepared nor to prepare: it will not happen.
        assert f"/sessions/{later.pk}/prepare/" not in html
        assert said.count("not prepared yet") == (person == org.manager)


def test_the_coachee_gets_a_link_that_says_what_it_prepares(client, org, weeks_ahead):
    _, tuesday, _ = weeks_ahead
    client.force_login(org.rep)
    with time_machine.travel(NOW + timedelta(hours=1), tick=False):
        html = client.get("/sessions/").content.decode()
    assert (
        f'<a href="/sessions/{tuesday.pk}/prepare/">Prepare for your 1:1 on Tue 10 Mar</a>' in html
    )
    assert f'<a href="/sessions/{tuesday.pk}/">1:1 with Mia Manager</a>' in html
    assert "prepared" not in coming_up(html).replace("Prepare", "")
