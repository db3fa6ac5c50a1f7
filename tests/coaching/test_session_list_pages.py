"""My sessions (`/sessions/`): what is coming up, then every past session a page at a
time, so a 1:1 from last year is reachable from the browser, not only the latest 30."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.views import PAST_PER_PAGE
from tests.factories import one_on_one


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


# Signing in (the session, the person, their roles), then the page's own: what is
# coming up (the first page only), how many past ones, the page, their people.
@pytest.mark.parametrize(("path", "pinned"), [("/sessions/", 7), ("/sessions/?page=2", 6)])
def test_each_page_costs_the_same_however_long_the_history(client, org, path, pinned):
    past_sessions(org.manager, org.rep, PAST_PER_PAGE + 5)
    client.force_login(org.rep)
    assert count(client, path) == pinned
    past_sessions(org.manager, org.rep, 2 * PAST_PER_PAGE, first_days_ago=400)
    one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=3))
    assert count(client, path) == pinned
