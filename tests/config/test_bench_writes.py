"""bench/writes.py submits the forms a person's pages offer, measures each, and leaves
the database as it found it: every submission in a savepoint rolled back, the
reader still signed in afterwards, sign-out never submitted."""

import pytest
from django.urls import reverse

from bench import pages
from bench import writes as sweep
from coaching.models import AgendaItem, Commitment, SharedNotes
from people.models import AuditEvent
from tests.support.factories import UserFactory, one_on_one
from tests.support.formwalk import read_page


@pytest.fixture
def lead():
    """The scale organisation's team lead, by the address the sweep signs in with."""
    person = UserFactory(email=f"{pages.LEAD}@{pages.DOMAIN}")
    rep = UserFactory(manager=person)
    one_on_one(person, rep)
    return person


def _counts():
    return (
        AgendaItem.objects.count(),
        Commitment.objects.count(),
        list(SharedNotes.objects.values_list("pk", "goal", "will")),
        AuditEvent.objects.count(),
    )


@pytest.mark.django_db
def test_a_session_pages_forms_are_submitted_and_nothing_stays_written(lead):
    before = _counts()

    writes, opened = sweep.sweep(["lead"], ids=1, repeat=1, match="^coaching:session_detail ")

    assert opened["lead"] == 1
    routes = {write["route"] for write in writes}
    assert {"coaching:agenda_add", "coaching:commitment_add"} <= routes, routes
    assert all(write["status"] < 500 for write in writes), writes
    assert any(write["status"] in (200, 302) for write in writes)
    assert all(write["queries"] > 0 and write["ms"] > 0 for write in writes)
    # The page's sign-out form (in its navigation) is found and never submitted.
    assert not any(write["action"].startswith(sweep.NOT_SUBMITTED) for write in writes)
    assert _counts() == before


@pytest.mark.django_db
def test_a_submission_that_signs_the_reader_out_signs_them_in_again(lead, client):
    client.force_login(lead)
    page = read_page(client.get(reverse("dashboards:home_manager")).content.decode(), "/team/")
    sign_out = next(form for form in page.forms if form.action.startswith(sweep.NOT_SUBMITTED))

    write = sweep._submit_timed(client, lead, sign_out, repeat=1)

    assert write["status"] == 302
    assert client.get(reverse("dashboards:home_manager")).wsgi_request.user == lead


@pytest.mark.django_db
def test_a_people_search_is_answered_with_someone_it_finds(org, client_for, settings):
    settings.PEOPLE_PICKER_LIST_UP_TO = 1  # a search box, not a list
    client = client_for(org.admin)
    path = f"/programme/people/{org.rep.pk}/"
    page = read_page(client.get(path).content.decode(), path)
    form = next(form for form in page.forms if any(f.name == "manager_search" for f in form.fields))

    data = sweep.as_a_person_would(client, form, {})

    picked = type(org.rep).objects.filter(pk__in=data["manager"])
    assert len(data["manager"]) == 1 and picked.exists()  # a manager is one person
    assert all("a" in person.display_name.lower() for person in picked)


def test_a_choice_left_on_none_is_made_and_a_list_of_boxes_gets_two_ticked():
    html = """<form method="post" action="/x/">
      <input type="radio" name="score" value="1"><input type="radio" name="score" value="2">
      <input type="checkbox" name="members" value="7"><input type="checkbox" name="members"
      value="8"><input type="checkbox" name="members" value="9">
      <input type="checkbox" name="raters" value="3"><input type="checkbox" name="raters"
      value="4" checked>
      <input type="checkbox" name="notify" value="on">
    </form>"""
    form = read_page(html, "/x/").forms[0]

    data = sweep.as_a_person_would(None, form, {"raters": ["4"]})

    assert data == {"score": ["1"], "members": ["7", "8"], "raters": ["4"]}
