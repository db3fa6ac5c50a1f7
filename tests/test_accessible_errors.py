"""Errors a screen reader reads with their field: a refused form marks the field
invalid and names its error by id (aria-describedby), and that id is on the page.
Django names "<field id>_error"; the app's templates must render it
(templates/_field_errors.html). The walk of every form (test_forms_bad_input.py)
checks the same on every refusal; these are the forms of a 1:1 and of asking for
feedback, quick to run on their own."""

import re

import pytest

from tests.support.factories import one_on_one

HX = {"HTTP_HX_REQUEST": "true"}


def unresolved_references(html: str) -> list[str]:
    """Ids named by aria-describedby that no element on the page carries."""
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    named = re.findall(r'aria-describedby="([^"]*)"', html)
    return [i for names in named for i in names.split() if i not in ids]


def described_by(html: str, field_id: str) -> list[str]:
    tag = re.search(rf'<[^>]*\bid="{field_id}"[^>]*>', html).group(0)
    return re.search(r'aria-describedby="([^"]*)"', tag).group(1).split()


@pytest.mark.django_db
def test_a_refused_commitment_names_each_error_next_to_its_field(client, org):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.manager)
    response = client.post(f"/sessions/{session.pk}/commitments/", {"text": ""}, **HX)
    html = response.content.decode()
    assert response.status_code == 400
    assert 'aria-invalid="true"' in html
    assert "commitment_text_error" in described_by(html, "commitment_text")
    assert re.search(r'id="commitment_text_error"[^>]*>This field is required', html)
    assert unresolved_references(html) == []


@pytest.mark.django_db
def test_a_bad_evidence_link_in_the_notes_is_read_with_its_field(client, org):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.manager)
    response = client.post(
        f"/sessions/{session.pk}/notes/",
        {"version": 0, "reality_evidence_url": "not a link"},
        **HX,
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert re.search(r'id="notes_reality_evidence_url_error"[^>]*role="alert"', html)
    assert unresolved_references(html) == []


@pytest.mark.django_db
def test_asking_for_feedback_of_nobody_names_the_error_of_the_people_to_ask(client, org):
    client.force_login(org.rep)
    response = client.post("/feedback/requests/new/", {"question": "How did I do?"})
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_responders_error"' in html
    assert unresolved_references(html) == []


@pytest.mark.django_db
def test_an_empty_agenda_item_is_refused_on_its_field(client, org):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.manager)
    response = client.post(f"/sessions/{session.pk}/agenda/", {"text": ""}, **HX)
    html = response.content.decode()
    assert response.status_code == 400
    assert "agenda_text_error" in described_by(html, "agenda_text")
    assert re.search(r'id="agenda_text_error"[^>]*>This field is required', html)
    assert unresolved_references(html) == []


@pytest.mark.django_db
def test_a_people_search_box_refused_is_marked_invalid_and_names_its_error(client, org, settings):
    settings.PEOPLE_PICKER_LIST_UP_TO = 1  # a search box, not a list
    client.force_login(org.rep)
    response = client.post("/feedback/requests/new/", {"question": "How did I do?"})
    html = response.content.decode()
    box = re.search(r'<input type="search"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in box
    assert "id_responders_error" in described_by(html, "id_responders")
    assert unresolved_references(html) == []
