"""Recorded calls through the API: the owner, their chain and the people asked to score
a call see it; everyone else gets 404 and an empty list. You add your own calls or
those of people below you; any other person id is the same 400, so ids cannot be
probed; bad input is a 400 naming the field, nothing saved."""

import datetime as dt

import pytest
from django.utils import timezone

from scorecards import services
from scorecards.models import RecordedCall
from tests.support.factories import RecordedCallFactory
from tests.support.scorecards_api import client_for, ids, queries, team_review

pytestmark = pytest.mark.django_db

URL = "/api/v1/recorded-calls/"


@pytest.fixture
def reviewed(people, template, call):
    """The rep's call, scored in a team review the peer takes part in."""
    return team_review(people, template, call, participants=[people.peer])


def body(**extra):
    return {
        "title": "Contoso renewal",
        "url": "https://calls.example.com/recordings/9",
        "call_date": (timezone.localdate() - dt.timedelta(days=1)).isoformat(),
        "timestamps": "04:10 first pricing question",
        **extra,
    }


@pytest.mark.parametrize("who", ["rep", "manager", "head", "team_peer"])
def test_the_owner_their_chain_and_its_raters_see_a_call(people, call, reviewed, who):
    client = client_for(getattr(people, who))
    assert call.pk in ids(client.get(URL))
    detail = client.get(f"{URL}{call.pk}/").json()
    assert detail["title"] == "Northwind discovery" and detail["person"]["id"] == people.rep.pk
    assert detail["kind"] == "call"


@pytest.mark.parametrize("who", ["outside_peer", "other_manager", "other_rep", "hr", "admin"])
def test_everyone_else_gets_404_and_an_empty_list(people, call, reviewed, who):
    client = client_for(getattr(people, who))
    assert call.pk not in ids(client.get(URL))
    assert client.get(f"{URL}{call.pk}/").status_code == 404


def test_anonymous_callers_get_401(call):
    assert client_for().get(URL).status_code == 401
    assert client_for().get(f"{URL}{call.pk}/").status_code == 401
    assert client_for().post(URL, body(), format="json").status_code == 401


def test_a_rep_adds_their_own_call_and_a_manager_one_for_someone_below(people):
    mine = client_for(people.rep).post(URL, body(), format="json")
    assert mine.status_code == 201, mine.json()
    assert mine.json()["person"]["id"] == people.rep.pk
    assert mine.json()["timestamps"] == "04:10 first pricing question"
    theirs = client_for(people.head).post(URL, body(person=people.rep.pk), format="json")
    assert theirs.status_code == 201 and theirs.json()["person"]["id"] == people.rep.pk
    role_play = client_for(people.rep).post(
        URL, body(kind="role_play", url="", title="Objection drill"), format="json"
    )
    assert role_play.status_code == 201 and role_play.json()["kind"] == "role_play"
    assert RecordedCall.objects.filter(person=people.rep).count() == 3


@pytest.mark.parametrize("person", ["peer", "other_rep", "manager", "unknown"])
def test_a_call_of_anyone_not_below_you_is_the_same_400_as_an_unknown_id(people, person):
    pk = 987_654 if person == "unknown" else getattr(people, person).pk
    response = client_for(people.rep).post(URL, body(person=pk), format="json")
    assert response.status_code == 400
    assert response.json() == {"person": ["Add calls of your own or of people below you."]}
    assert not RecordedCall.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"title": ""}, "title"),
        ({"title": "x" * 201}, "title"),
        ({"url": ""}, "url"),  # a call needs its recording
        ({"url": "not a link"}, "url"),
        ({"call_date": "yesterday"}, "call_date"),
        ({"call_date": "2999-01-01"}, "call_date"),
        ({"kind": "podcast"}, "kind"),
        ({"timestamps": "x" * 2001}, "timestamps"),
        ({"person": "abc"}, "person"),
        ({"person": 10**30}, "person"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_nothing_is_saved(people, change, field):
    response = client_for(people.manager).post(URL, body(**change), format="json")
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert not RecordedCall.objects.exists()


def test_the_list_filters_by_person(people, call):
    other = RecordedCallFactory(person=people.peer)
    client = client_for(people.manager)
    assert ids(client.get(URL, {"person": people.peer.pk})) == [other.pk]
    assert set(ids(client.get(URL))) == {call.pk, other.pk}
    assert client.get(URL, {"person": "me"}).status_code == 400
    assert ids(client.get(URL, {"person": 10**18})) == []


def test_the_list_costs_the_same_queries_whatever_its_length(people, template, call):
    client = client_for(people.head)
    # session, user, who is below (calls_for_lists' shape), count, the page (people
    # below and visible rounds as subqueries)
    few = queries(client, URL)
    assert few == 5
    for person in (people.rep, people.peer, people.manager, people.outside_peer):
        for _ in range(3):
            work = RecordedCallFactory(person=person)
            services.coach_scoring_open(actor=people.head, work=work, template=template)
    assert queries(client, URL) == few
