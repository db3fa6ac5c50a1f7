"""The guided diagnosis in the browser: with htmx one question at a time, stopping
at the first "no"; without JavaScript one plain form. Saved diagnoses show on the
coachee's page with their next step and the history; bad input is a 400 with the
reason and nothing saved; people not above the coachee get 404."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.models import Diagnosis, GapType
from coaching.services_diagnosis import diagnosis_record

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(person):
    return f"/people/{person.pk}/diagnosis/"


def record(org, answers, *, author=None, notes=""):
    fields = ["knows_how", "believes", "has_framework", "has_system"]
    return diagnosis_record(
        author=author or org.manager,
        coachee=org.rep,
        notes=notes,
        **dict(zip(fields, answers, strict=True)),
    )


@pytest.mark.django_db
def test_the_page_is_one_plain_form_that_htmx_replaces_with_the_first_question(client, org):
    client.force_login(org.manager)
    page = client.get(url(org.rep)).content.decode()
    for question in (
        "Do they know HOW?",
        "Do they believe it moves the number?",
        "Is there a shared framework and scorecard?",
        "Is time blocked, and is the evidence there?",
    ):
        assert question in page
    assert f'hx-get="{url(org.rep)}" hx-trigger="load"' in page
    assert "Save the diagnosis" in page and "Rita never sees it" in page
    first = client.get(url(org.rep), **HTMX).content.decode()
    assert "Question 1 of 4: Do they know HOW?" in first
    assert "Do they believe" not in first and "<html" not in first


@pytest.mark.django_db
def test_the_guided_form_asks_in_order_and_stops_at_the_first_no(client, org):
    client.force_login(org.manager)
    second = client.post(url(org.rep), {"step": "1", "knows_how": "yes"}, **HTMX)
    body = second.content.decode()
    assert second.status_code == 200
    assert "Question 2 of 4: Do they believe it moves the number?" in body
    assert '<input type="hidden" name="knows_how" value="yes">' in body
    landing = client.post(url(org.rep), {"step": "1", "knows_how": "yes", "believes": "no"}, **HTMX)
    body = landing.content.decode()
    assert "Will gap" in body and "Show the lift" in body and "Save the diagnosis" in body
    assert "Question 3" not in body and "shared framework" not in body
    assert '<input type="hidden" name="believes" value="no">' in body
    assert not Diagnosis.objects.exists()  # steps save nothing
    saved = client.post(
        url(org.rep), {"knows_how": "yes", "believes": "no", "notes": "Calls it admin."}, **HTMX
    )
    assert saved.status_code == 200
    assert saved["HX-Redirect"] == f"/people/{org.rep.pk}/#diagnosis-heading"
    diagnosis = Diagnosis.objects.get()
    assert (diagnosis.gap, diagnosis.author, diagnosis.coachee) == (
        GapType.WILL,
        org.manager,
        org.rep,
    )
    assert diagnosis.notes == "Calls it admin."


@pytest.mark.django_db
def test_four_yeses_land_on_no_gap(client, org):
    client.force_login(org.manager)
    answers = {"step": "1", "knows_how": "yes", "believes": "yes", "has_framework": "yes"}
    body = client.post(url(org.rep), {**answers, "has_system": "yes"}, **HTMX).content.decode()
    assert "No gap" in body and "reinforce and let peers lead" in body


@pytest.mark.django_db
def test_the_plain_form_saves_and_goes_back_to_the_coachees_page(client, org):
    client.force_login(org.manager)
    data = {"knows_how": "yes", "believes": "yes", "has_framework": "no", "has_system": "yes"}
    response = client.post(url(org.rep), data)
    assert response.status_code == 302
    assert response["Location"] == f"/people/{org.rep.pk}/#diagnosis-heading"
    assert Diagnosis.objects.get().gap == GapType.KNOWLEDGE
    page = client.get(response["Location"]).content.decode()
    assert "Knowledge gap" in page and "Adopt a scorecard for this call type" in page


@pytest.mark.django_db
def test_a_posted_gap_is_ignored(client, org):
    client.force_login(org.manager)
    client.post(url(org.rep), {"knows_how": "no", "gap": "none"})
    assert Diagnosis.objects.get().gap == GapType.SKILL


@pytest.mark.django_db
def test_the_coachees_page_shows_the_latest_with_its_next_step_and_the_history(client, org):
    record(org, [True, False, True, True], notes="Thinks it is for underperformers.")
    record(org, [True, True, True, False], author=org.head, notes="No recordings yet.")
    latest = record(org, [False, True, True, True], notes="Never saw a call review.")
    client.force_login(org.manager)
    page = client.get(f"/people/{org.rep.pk}/").content.decode()
    assert 'id="diagnosis-heading"' in page and f'href="{url(org.rep)}"' in page
    assert f'hx-get="{url(org.rep)}"' in page  # with htmx the guided form opens in place
    assert "Train on GROW and call review" in page  # the latest's next step
    assert page.index("Never saw a call review.") < page.index("Thinks it is for underperformers.")
    assert "Skill gap" in page and "Will gap" in page
    # The head's own diagnosis is the head's and the people above the head's.
    assert "No recordings yet." not in page
    client.force_login(org.head)
    page = client.get(f"/people/{org.rep.pk}/").content.decode()
    assert "No recordings yet." in page and "Never saw a call review." in page
    # Dates show in the viewer's own time zone: near midnight it is another day than UTC's.
    assert f"{timezone.localtime(latest.created_at, org.head.tzinfo):%-d %b %Y}" in page


@pytest.mark.django_db
def test_an_undiagnosed_coachee_shows_where_to_start(client, org):
    client.force_login(org.manager)
    page = client.get(f"/people/{org.rep.pk}/").content.decode()
    assert "Not diagnosed yet" in page and "Diagnose before you coach" in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"knows_how": "yes", "has_framework": "no"}, "Answer this question"),
        ({}, "Answer this question"),
        ({"knows_how": "maybe"}, "Answer yes or no."),
        ({"knows_how": "no", "notes": "x" * 2_001}, "at most 2000 characters"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_input_is_a_400_with_the_reason_and_nothing_saved(client, org, data, message, htmx):
    client.force_login(org.manager)
    response = client.post(url(org.rep), data, **(HTMX if htmx else {}))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Diagnosis.objects.exists()


@pytest.mark.django_db
def test_a_too_long_note_keeps_the_answers_on_the_guided_form(client, org):
    client.force_login(org.manager)
    data = {"knows_how": "yes", "believes": "no", "notes": "x" * 2_001}
    body = client.post(url(org.rep), data, **HTMX).content.decode()
    assert "Will gap" in body and '<input type="hidden" name="believes" value="no">' in body


@pytest.mark.django_db
def test_a_bad_step_is_a_400_and_asks_again(client, org):
    client.force_login(org.manager)
    response = client.post(url(org.rep), {"step": "1", "knows_how": "perhaps"}, **HTMX)
    assert response.status_code == 400
    body = response.content.decode()
    assert "Answer yes or no." in body and "Question 1 of 4" in body


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "peer", "other_manager", "other_rep", "hr", "admin"])
def test_anyone_not_above_the_coachee_gets_404_and_saves_nothing(client, org, who):
    client.force_login(getattr(org, who))
    assert client.get(url(org.rep)).status_code == 404
    assert client.get(url(org.rep), **HTMX).status_code == 404
    assert client.post(url(org.rep), {"knows_how": "no"}).status_code == 404
    assert client.post(url(org.rep), {"step": "1", "knows_how": "no"}, **HTMX).status_code == 404
    assert not Diagnosis.objects.exists()


@pytest.mark.django_db
def test_the_skip_level_diagnoses_too(client, org):
    client.force_login(org.head)
    assert client.post(url(org.rep), {"knows_how": "no"}).status_code == 302
    assert Diagnosis.objects.get().author == org.head


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_sign_in(client, org):
    for response in (client.get(url(org.rep)), client.post(url(org.rep), {"knows_how": "no"})):
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Diagnosis.objects.exists()


def _queries(client, path):
    client.get(path)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["person", "diagnosis"])
def test_the_history_costs_the_same_queries_whatever_its_length(client, org, page):
    path = f"/people/{org.rep.pk}/" if page == "person" else url(org.rep)
    client.force_login(org.head)
    record(org, [True, False, True, True], notes="One")
    few = _queries(client, path)
    for i in range(6):
        record(org, [True] * 3 + [False], author=[org.manager, org.head][i % 2], notes=f"N{i}")
    assert _queries(client, path) == few
