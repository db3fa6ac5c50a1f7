"""The session page's notes as they are typed: the autosave's JSON answers, the poll
(the other person's saved words, who wrote each field last, who is writing where),
who may reach it, what it costs — and private notes, which nobody else ever learns
anything about, not even that they are being written."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coaching.models import PrivateNote, SharedNotes
from coaching.services import notes_save
from tests.support.factories import one_on_one

AUTOSAVE = {"HTTP_X_AUTOSAVE": "1"}


@pytest.fixture(autouse=True)
def _no_presence_left_over():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def session(org):
    return one_on_one(org.manager, org.rep)


def live(client, session, **params):
    return client.get(f"/sessions/{session.pk}/notes/live/", params)


def autosave(client, session, data):
    return client.post(f"/sessions/{session.pk}/notes/", data, **AUTOSAVE)


@pytest.mark.django_db
def test_the_poll_brings_the_saved_notes_and_who_wrote_each_field(client, org, session):
    notes_save(session=session, actor=org.rep, base_version=0, changes={"reality": "Rushed it"})
    client.force_login(org.manager)
    body = live(client, session).json()
    assert body["version"] == 1
    assert body["fields"]["reality"] == "Rushed it"
    assert body["written"]["reality"]["by"] == org.rep.get_short_name()
    assert set(body["written"]) == {"reality"}


@pytest.mark.django_db
def test_who_is_writing_where_is_shown_to_the_others_and_not_to_oneself(client, org, session):
    client.force_login(org.rep)
    assert live(client, session, writing="reality").json()["writing"] == []
    client.force_login(org.manager)
    assert live(client, session).json()["writing"] == [
        {"name": org.rep.get_short_name(), "field": "reality", "label": "Reality"}
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["text", "private", "mood", "", "reality,will"])
def test_only_a_shared_notes_field_can_be_written_in(client, org, session, field):
    client.force_login(org.rep)
    assert live(client, session, writing=field).status_code == 400
    client.force_login(org.manager)
    assert live(client, session).json()["writing"] == []


@pytest.mark.django_db
def test_a_manager_reading_along_is_never_shown_writing(client, org, session):
    client.force_login(org.head)
    assert live(client, session).status_code == 200  # reads the notes
    assert live(client, session, writing="will").status_code == 403
    client.force_login(org.rep)
    assert live(client, session).json()["writing"] == []


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["other_manager", "peer", "other_rep", "hr", "admin"])
def test_outsiders_get_404_from_the_poll_and_are_never_shown(client, org, session, who):
    client.force_login(getattr(org, who))
    assert live(client, session).status_code == 404
    assert live(client, session, writing="will").status_code == 404
    client.force_login(org.rep)
    assert live(client, session).json()["writing"] == []


@pytest.mark.django_db
def test_a_private_note_is_never_in_the_poll_nor_its_writing(client, org, session):
    client.force_login(org.manager)
    response = client.post(
        f"/sessions/{session.pk}/private-note/",
        {"version": 0, "text": "Ask about workload"},
        **AUTOSAVE,
    )
    assert response.status_code == 200
    assert response.json()["version"] == 1
    assert PrivateNote.objects.get(author=org.manager).text == "Ask about workload"
    client.force_login(org.rep)
    body = live(client, session).content.decode()
    assert "Ask about workload" not in body
    assert '"writing": []' in body
    assert '"written": {}' in body  # not even that someone wrote something


@pytest.mark.django_db
@pytest.mark.parametrize("sessions_before", [1, 6])
def test_the_poll_costs_the_same_queries_however_much_was_written(client, org, sessions_before):
    for _ in range(sessions_before):
        earlier = one_on_one(org.manager, org.rep)
        notes_save(session=earlier, actor=org.rep, base_version=0, changes={"reality": "R"})
    session = one_on_one(org.manager, org.rep)
    for n in range(sessions_before):
        notes_save(session=session, actor=org.rep, base_version=n, changes={"will": f"W{n}"})
    client.force_login(org.manager)
    live(client, session, writing="options")
    with CaptureQueriesContext(connection) as queries:
        assert live(client, session, writing="options").status_code == 200
    # The session with its people and notes, the coachee's current goal; the person
    # and their session come with the request.
    assert len(queries) == 5, [q["sql"] for q in queries]


@pytest.mark.django_db
def test_an_autosave_answers_the_merged_notes(client, org, session):
    notes_save(session=session, actor=org.rep, base_version=0, changes={"reality": "Rep's"})
    client.force_login(org.manager)
    response = autosave(client, session, {"version": 0, "will": "Ask first"})
    assert response.status_code == 200
    body = response.json()
    assert body["fields"]["reality"] == "Rep's"
    assert body["fields"]["will"] == "Ask first"
    assert body["version"] == 2
    assert body["conflicts"] == {}


@pytest.mark.django_db
def test_an_autosave_of_the_same_field_answers_both_texts_in_it(client, org, session):
    notes_save(session=session, actor=org.rep, base_version=0, changes={"reality": "Rep's"})
    client.force_login(org.manager)
    response = autosave(client, session, {"version": 0, "reality": "Coach's"})
    assert response.status_code == 409
    assert response.json()["conflicts"] == {
        "reality": {"saved": "Rep's", "yours": "Coach's", "by": org.rep.get_short_name()}
    }
    assert SharedNotes.objects.get(session=session).reality == "Rep's"


@pytest.mark.django_db
def test_the_page_shows_both_texts_in_the_field_after_a_plain_post(client, org, session):
    notes_save(session=session, actor=org.rep, base_version=0, changes={"reality": "Rep's"})
    client.force_login(org.manager)
    response = client.post(f"/sessions/{session.pk}/notes/", {"version": 0, "reality": "Coach's"})
    assert response.status_code == 409
    page = response.content.decode()
    field = page[
        page.index('data-field="reality"') : page.index('data-field="reality_evidence_url"')
    ]
    assert "Rep&#x27;s" in field and "Coach&#x27;s" in field


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [
        {"version": "latest", "will": "x"},
        {"will": "No version"},
        {"version": 0, "will": "x" * 10_001},
        {"version": 7, "will": "From a version never saved"},
    ],
)
def test_bad_autosaves_are_400_and_save_nothing(client, org, session, data):
    client.force_login(org.manager)
    response = autosave(client, session, data)
    assert response.status_code == 400
    assert response.json()["errors"]
    assert SharedNotes.objects.get(session=session).version == 0


@pytest.mark.django_db
def test_an_autosave_by_a_manager_reading_along_is_403(client, org, session):
    client.force_login(org.head)
    assert autosave(client, session, {"version": 0, "will": "x"}).status_code == 403
    assert SharedNotes.objects.get(session=session).version == 0
