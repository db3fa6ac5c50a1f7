"""The calls page: every call of one list — mine, or for a manager their people's —
newest first, 50 a page. The scorecards home shows the latest ten of each and links
here when there are more (it used to stop silently at 50)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scorecards import services
from tests.support.factories import RecordedCallFactory
from tests.support.scorecards_pages import queries_for

pytestmark = pytest.mark.django_db


def _calls(person, n):
    today = timezone.localdate()
    return [
        RecordedCallFactory(
            person=person,
            title=f"{person.display_name} call {i:02d}",
            call_date=today - timedelta(days=i),
        )
        for i in range(n)
    ]


def _items(page: str) -> int:
    return page.split('id="calls-heading"', 1)[1].count("<li>")


def test_the_home_shows_the_latest_ten_of_each_list_and_links_to_the_rest(client_for, org):
    _calls(org.manager, 11)
    _calls(org.rep, 10)
    page = client_for(org.manager).get("/scorecards/").content.decode()
    mine = page.split('id="calls-heading"', 1)[1].split("</section>", 1)[0]
    theirs = page.split('id="people-calls-heading"', 1)[1].split("</section>", 1)[0]
    assert mine.count("<li>") == 10 and "Mia Manager call 00" in mine
    assert "Mia Manager call 10" not in mine
    assert 'href="/scorecards/calls/">All my calls</a>' in mine
    assert theirs.count("<li>") == 10 and "All my people" not in theirs  # ten: no more


def test_a_rep_pages_through_their_calls_newest_first(client_for, org):
    _calls(org.rep, 55)
    client = client_for(org.rep)
    first = client.get("/scorecards/calls/").content.decode()
    assert "55 calls: 1–50 here" in first and _items(first) == 50
    assert first.index("Rita Rep call 00") < first.index("Rita Rep call 49")
    assert 'href="?page=2">Older</a>' in first
    second = client.get("/scorecards/calls/?page=2").content.decode()
    assert _items(second) == 5 and "Rita Rep call 54" in second
    assert "Rita Rep call 49" not in second


def test_a_manager_sees_their_peoples_calls_and_nobody_elses(client_for, org):
    _calls(org.rep, 2)
    _calls(org.other_rep, 1)
    _calls(org.manager, 1)
    page = client_for(org.manager).get("/scorecards/calls/?whose=people").content.decode()
    assert "<h1>My people&#x27;s calls</h1>" in page and "2 calls" in page
    assert "Rita Rep call 01" in page and "— Rita Rep ·" in page
    assert "Olga Outsider" not in page and "Mia Manager call" not in page


def test_someone_without_reports_has_no_peoples_calls(client_for, org):
    assert client_for(org.rep).get("/scorecards/calls/?whose=people").status_code == 404


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("whose=everyone", "Choose whose calls: mine or people."),
        ("page=0", "Give a page number: a whole number from 1."),
        ("page=x", "Give a page number: a whole number from 1."),
    ],
)
def test_a_bad_choice_is_a_400_saying_so(client_for, org, query, message):
    _calls(org.rep, 1)
    response = client_for(org.rep).get(f"/scorecards/calls/?{query}")
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page and "Rita Rep call 00" in page  # their calls, first page


def test_the_calls_page_costs_the_same_for_one_call_and_for_a_page_full(client_for, org):
    # 1 session, 2 user, 3 roles, 4 the count, 5 who is below me, 6 the page with
    # each call's person and round count (calls_for_lists, as on the home), 7 the
    # header's unread count
    _calls(org.rep, 1)
    client = client_for(org.manager)
    few = queries_for(client, "/scorecards/calls/?whose=people")
    assert len(few) == 7, few
    _calls(org.peer, 60)
    assert len(queries_for(client, "/scorecards/calls/?whose=people&page=2")) == len(few)


def test_more_rounds_waiting_than_the_home_lists_are_said_to_be_more(client_for, org, template):
    for call in _calls(org.rep, 51):
        services.coach_scoring_open(actor=org.manager, work=call, template=template)
    page = client_for(org.manager).get("/scorecards/").content.decode()
    waiting = page.split('id="waiting-heading"', 1)[1].split("</section>", 1)[0]
    assert '<span class="count">50+</span>' in waiting
    assert "The 50 newest; score these and older ones move up." in waiting
    assert waiting.count("<li>") == 50


def test_the_pages_of_my_peoples_calls_stay_my_peoples(client_for, org):
    _calls(org.rep, 51)
    page = client_for(org.manager).get("/scorecards/calls/?whose=people").content.decode()
    assert 'href="?whose=people&amp;page=2">Older</a>' in page


def test_each_call_says_how_many_rounds_scored_it_in_words(client_for, org, template):
    unscored, once, twice = _calls(org.rep, 3)
    services.coach_scoring_open(actor=org.manager, work=once, template=template)
    services.coach_scoring_open(actor=org.manager, work=twice, template=template)
    services.self_assessment_open(actor=org.rep, work=twice, template=template)
    page = client_for(org.rep).get("/scorecards/calls/").content.decode()
    lines = {
        call: page.split(f">{call.title}</a>", 1)[1].split("</li>", 1)[0]
        for call in (unscored, once, twice)
    }
    assert "no scoring yet" in lines[unscored]
    assert "1 round of scoring" in lines[once]
    assert "2 rounds of scoring" in lines[twice]
