"""The managers below a manager of managers (the monthly manager review) are worked
out as of the refresh slot and kept for it, like HR's pages: a session a manager
below logs shows at the next slot, and the page and the API say as of when. A change
of who is below, or of a name, shows at once; the reader's own numbers are never
kept."""

import pickle
from datetime import datetime, timedelta

import pytest
import time_machine

from coaching.ratings import release_usefulness
from coaching.services import session_rating_save
from people.models import ReportingVersion, User
from tests.support.dashboards_team import NOW, held, page
from tests.support.factories import UserFactory, one_on_one

pytestmark = pytest.mark.django_db
MANAGERS = "/api/v1/dashboards/managers/"


@pytest.fixture
def boss(org):
    """Bo, who manages Ana (with a rep, Rae) — and a rep of his own, Sam."""
    with time_machine.travel(NOW - timedelta(days=30), tick=False):
        boss = UserFactory(display_name="Bo Boss", manager=org.head)
        ana = UserFactory(display_name="Ana Manager", manager=boss)
        UserFactory(display_name="Rae Rep", manager=ana)
        UserFactory(display_name="Sam Rep", manager=boss)
    return boss


def instant(text):
    return datetime.fromisoformat(text)


def person(name):
    return User.objects.get(display_name=name)


def held_an_hour_ago(coach, coachee):
    """A 1:1 that started an hour before the slot, logged held now."""
    held(one_on_one(coach, coachee, start=NOW - timedelta(hours=1)), coach)


def managers(client, minutes):
    with time_machine.travel(NOW + timedelta(minutes=minutes), tick=False):
        response = client.get(MANAGERS)
    assert response.status_code == 200
    return response.json()


def read_then_ana_logs_a_1_1(client):
    """The slot's first read at 12:01 (nothing held yet below), then Ana logs a 1:1
    held at 12:02."""
    first = managers(client, 1)
    assert instant(first["as_of"]) == NOW
    assert [m["counts"]["held"] for m in first["managers"]] == [0]
    with time_machine.travel(NOW + timedelta(minutes=2), tick=False):
        held_an_hour_ago(person("Ana Manager"), person("Rae Rep"))


def test_a_session_logged_below_shows_at_the_next_slot(client, boss):
    client.force_login(boss)
    read_then_ana_logs_a_1_1(client)
    # The same slot: the numbers as of 12:00, as every reader of the slot has them.
    assert [m["counts"]["held"] for m in managers(client, 4)["managers"]] == [0]

    later = managers(client, 6)
    assert instant(later["as_of"]) == NOW + timedelta(minutes=5)
    assert [m["counts"]["held"] for m in later["managers"]] == [1]
    assert instant(later["window"]["until"]) == NOW + timedelta(minutes=5)


def test_the_page_says_as_of_when_and_agrees_with_the_api(client, boss):
    client.force_login(boss)
    with time_machine.travel(NOW + timedelta(minutes=1), tick=False):
        held_an_hour_ago(person("Ana Manager"), person("Rae Rep"))
    with time_machine.travel(NOW + timedelta(minutes=3), tick=False):
        html = page(client, "/team/")
        mine = client.get("/api/v1/dashboards/team/").json()
    # Bo reads in Berlin: 12:00 UTC is 13:00 there.
    assert "As of 13:00 (Wed 18 Mar) — these figures are worked out afresh every 5 minutes." in html
    assert '<span class="muted small">1/1</span>' in html  # Ana's adherence, held of due
    assert instant(mine["managers_below_as_of"]) == NOW
    assert [m["counts"]["held"] for m in mine["managers_below"]] == [1]
    with time_machine.travel(NOW + timedelta(minutes=3, seconds=30), tick=False):
        held_an_hour_ago(person("Ana Manager"), person("Rae Rep"))
    assert managers(client, 4)["managers"] == mine["managers_below"]


def test_the_readers_own_numbers_are_never_kept(client, boss):
    client.force_login(boss)
    assert page(client, "/api/v1/dashboards/team/")  # the slot's managers kept
    with time_machine.travel(NOW + timedelta(minutes=2), tick=False):
        held_an_hour_ago(boss, person("Sam Rep"))
    with time_machine.travel(NOW + timedelta(minutes=3), tick=False):
        mine = client.get("/api/v1/dashboards/team/").json()
    assert mine["coaching"]["counts"]["held"] == 1


def test_a_new_manager_below_or_a_new_name_shows_at_once(client, boss):
    client.force_login(boss)
    assert [m["manager"]["display_name"] for m in managers(client, 1)["managers"]] == [
        "Ana Manager"
    ]
    with time_machine.travel(NOW + timedelta(minutes=2), tick=False):
        cleo = UserFactory(display_name="Cleo Manager", manager=boss)
        UserFactory(manager=cleo)
        ana = person("Ana Manager")
        ana.display_name = "Ana Renamed"
        ana.save(update_fields=["display_name"])
    shown = managers(client, 3)
    assert [m["manager"]["display_name"] for m in shown["managers"]] == [
        "Ana Renamed",
        "Cleo Manager",
    ]
    with time_machine.travel(NOW + timedelta(minutes=3), tick=False):
        html = page(client, "/team/")
    assert "Ana Renamed" in html and "Ana Manager" not in html and "Cleo Manager" in html


MARK = "KPTZQMARK what a rep wrote about the 1:1"


def test_what_is_kept_holds_numbers_not_words_or_people(client, boss, kept):
    """Ana's coachees rated her 1:1s with comments; her numbers are kept for the slot,
    the comments (hers alone) and the people's rows are not."""
    ana = person("Ana Manager")
    with time_machine.travel(NOW - timedelta(days=30), tick=False):
        reps = [person("Rae Rep"), *(UserFactory(manager=ana) for _ in range(2))]
    with time_machine.travel(NOW - timedelta(days=24), tick=False):
        for rep in reps:
            for hours in (1, 3):
                session = one_on_one(ana, rep, start=NOW - timedelta(days=24, hours=hours))
                held(session, ana)
                session_rating_save(session=session, rater=rep, score=4, comment=MARK)
    release_usefulness(now=NOW)
    client.force_login(ana)
    assert MARK in page(client, "/team/")  # hers to read: the words exist to be kept
    kept.clear()  # what her own page kept

    client.force_login(boss)
    html = page(client, "/team/")
    assert "4.0" in html and MARK not in html  # Ana's usefulness, numbers only
    written = b"".join(pickle.dumps(value) for value in kept)
    assert b"CoachRow" in written  # the managers' numbers were kept…
    assert MARK.encode() not in written  # …without the words
    assert b"people.models" not in written  # …or anyone's row


def test_without_a_reporting_version_nothing_is_kept_and_each_read_is_fresh(client, boss, kept):
    """After a flush empties the version table (until someone is written again) there
    is nothing to keep the managers' numbers under: each read works them out, as of
    the slot, and a session logged below shows on the next read of the same slot."""
    ReportingVersion.objects.all().delete()
    client.force_login(boss)
    read_then_ana_logs_a_1_1(client)
    assert [m["counts"]["held"] for m in managers(client, 3)["managers"]] == [1]
    with time_machine.travel(NOW + timedelta(minutes=3), tick=False):
        html = page(client, "/team/")
    assert '<span class="muted small">1/1</span>' in html  # Ana's adherence, held of due
    assert not any("CoachRow" in repr(value) for value in kept)
