"""A person downloads everything about them that they may see — as a page's file and
through the API — and nothing anyone else keeps private: not a coach's private note,
not developmental feedback addressed to someone else (even shared with them), not a
pair they are not in, not a coach's scores before their own self-assessment, not who
answered an anonymous request. Every download is audited, in a fixed number of
queries."""

import datetime as dt
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from coaching.models import SharedNotes
from feedback.services import feedback_give, feedback_request_answer, feedback_request_create
from people.models import AuditEvent
from people.privacy import EXPORT_VERB, personal_data_export
from tests.support.factories import UserFactory
from tests.support.people_privacy import NOT_THEIRS, THEIRS, build_world

PAGE = "/me/data/"
DOWNLOAD = "/me/data/download/"
API = "/api/v1/me/data/"


@pytest.fixture
def world(org):
    return build_world(org)


def download(client, person) -> tuple[dict, str]:
    client.force_login(person)
    response = client.get(DOWNLOAD)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith('attachment; filename="tandem-my-data-')
    body = response.content.decode()
    return json.loads(body), body


@pytest.mark.django_db
def test_the_page_explains_the_file_and_links_to_it(client, org):
    client.force_login(org.rep)
    response = client.get(PAGE)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Download my data" in page and DOWNLOAD in page
    assert "/me/data/" in client.get("/me/profile/").content.decode()


@pytest.mark.django_db
def test_the_download_holds_everything_theirs_and_nothing_else(client, world):
    document, body = download(client, world.org.rep)
    missing = {what: word for what, word in THEIRS.items() if word not in body}
    assert missing == {}
    leaked = {what: word for what, word in NOT_THEIRS.items() if word in body}
    assert leaked == {}
    assert document["format"] == "tandem-personal-data/2"
    assert document["profile"]["email"] == "rep@example.com"
    assert [m["manager"]["id"] for m in document["reporting_lines"]["managers"]] == [
        world.org.manager.pk
    ]
    assert [m["team"]["name"] for m in document["teams"]["memberships"]] == ["Enterprise"]
    assert [s["id"] for s in document["sessions"]] == [world.session.pk]
    streams = sorted(item["stream"] for item in document["feedback_received"])
    assert streams == ["developmental", "developmental", "evaluative"]
    assert [p["id"] for p in document["peer_pairs"]] == [world.pair.pk]
    assert {e["verb"] for e in document["audit_events"]} >= {"reporting_line.changed"}
    signed_in = next(e for e in document["audit_events"] if e["verb"] == "auth.signed_in")
    assert signed_in["actor"] == {"id": world.org.rep.pk, "display_name": "Rita Rep"}
    assert signed_in["at"].endswith("+00:00") and signed_in["target_type"] is None
    assert (signed_in["target_ids"], signed_in["events"]) == ([], 1)
    line = next(e for e in document["audit_events"] if e["verb"] == "reporting_line.changed")
    assert (line["target_type"], line["target_ids"]) == ("user", [str(world.org.rep.pk)])


@pytest.mark.django_db
def test_a_session_reads_as_its_participants_see_it(world):
    """Each session with its people in speaking order, its shared notes and agenda
    (read as values: the columns must land under the right names)."""
    org, session = world.org, world.session
    document = personal_data_export(person=org.rep)
    [entry] = document["sessions"]
    assert (entry["id"], entry["kind"], entry["status"]) == (session.pk, "one_on_one", "held")
    assert entry["scheduled_start"].endswith("+00:00") and entry["held_at"]
    assert entry["participants"] == [
        {"id": org.manager.pk, "display_name": org.manager.display_name, "role": "coach"},
        {"id": org.rep.pk, "display_name": org.rep.display_name, "role": "coachee"},
    ]
    notes = entry["shared_notes"]
    assert (notes["goal"], notes["will"]) == (f"{THEIRS['shared']} pricing", "Try it")
    assert set(notes) == {*SharedNotes.FIELDS, "updated_at", "coachee_prepared_at"}
    [item] = entry["agenda"]
    assert item["text"] == f"{THEIRS['agenda']} pricing" and item["done"] is False
    assert item["author"] == {"id": org.rep.pk, "display_name": org.rep.display_name}
    assert (entry["cancel_reason"], entry["scenario"], entry["drills"]) == (None, None, None)


@pytest.mark.django_db
def test_a_coach_scores_appear_only_once_the_subject_scored_themselves(client, world):
    from scorecards import services

    document, body = download(client, world.org.rep)
    assert document["scorecards"] == [] and NOT_THEIRS["coach_keep"] not in body
    criteria = list(world.scoring.version.criteria.order_by("position"))
    services.scorecard_save(
        actor=world.org.rep,
        scoring=world.scoring,
        scores=[services.ScoreInput(criterion=c.pk, rating=2) for c in criteria],
        submit=True,
    )
    document, body = download(client, world.org.rep)
    assert sorted(card["rater_role"] for card in document["scorecards"]) == ["coach", "subject"]
    assert NOT_THEIRS["coach_keep"] in body


@pytest.mark.django_db
def test_the_coach_gets_their_own_private_note_and_not_the_reps(client, world):
    document, body = download(client, world.org.manager)
    assert NOT_THEIRS["coach_private"] in body
    assert THEIRS["own_private"] not in body
    assert NOT_THEIRS["diagnosis"] in body  # the coach wrote it
    assert THEIRS["pair_note"] not in body  # a manager does not read pairs


@pytest.mark.django_db
def test_who_answered_an_anonymous_request_is_in_nobodys_download(client, org):
    reps = [org.rep, org.peer, UserFactory(manager=org.manager)]
    asked = feedback_request_create(
        requester=org.manager,
        responders=reps,
        due_on=dt.date.today() + dt.timedelta(days=5),
        stream="developmental",
        anonymous=True,
    )
    feedback_request_answer(request=asked, responder=org.rep, observation="QXANONONE said")
    document, body = download(client, org.manager)
    # One answer of three: held back from the requester altogether.
    assert "QXANONONE" not in body
    made = document["feedback_requests"]["made"][0]
    # Not even how many answered: a count taken twice tells who answered between.
    assert made["responders"] == {"asked": 3, "answered": "fewer than 3"}
    for person in reps[1:]:
        feedback_request_answer(request=asked, responder=person, observation="QXANONMORE")
    document, body = download(client, org.manager)
    answers = [i for i in document["feedback_received"] if i["request_id"] == asked.pk]
    assert len(answers) == 3 and {a["author"] for a in answers} == {None}
    assert {(a["id"], a["created_at"]) for a in answers} == {(None, None)}
    assert document["feedback_requests"]["made"][0]["responders"]["answered"] == "3 or more"
    # The rep is named elsewhere (a report of the manager's), never near the request.
    about_feedback = json.dumps([document["feedback_received"], document["feedback_requests"]])
    assert org.rep.display_name not in about_feedback
    assert org.rep.display_name in body


@pytest.mark.django_db
def test_each_download_is_audited_with_counts_and_no_words(client, world):
    _, body = download(client, world.org.rep)
    event = AuditEvent.objects.get(verb=EXPORT_VERB)
    assert event.actor == world.org.rep and event.target_id == str(world.org.rep.pk)
    assert event.data["entries"]["sessions"] == 1
    stored = json.dumps(event.data) + event.target_repr
    assert not [word for word in {**THEIRS, **NOT_THEIRS}.values() if word in stored]


@pytest.mark.django_db
def test_events_written_together_are_one_entry_with_every_target(client, org):
    """A page of evaluative feedback read by HR is an event per item, written at one
    moment: one entry in HR's download, with each item's id; reads at another moment,
    or with other details, are entries of their own."""
    from feedback.services import evaluative_reads_record

    items = [
        feedback_give(author=org.manager, recipient=org.rep, stream="evaluative", observation=w)
        for w in ("one", "two", "three")
    ]
    evaluative_reads_record(items=items, reader=org.hr, ip="10.0.0.7")
    evaluative_reads_record(items=items[:1], reader=org.hr, ip="10.0.0.8")
    document, _ = download(client, org.hr)
    reads = [e for e in document["audit_events"] if e["verb"] == "feedback.evaluative_read"]
    assert [(e["target_ids"], e["events"], e["ip"]) for e in reads] == [
        ([str(item.pk) for item in items], 3, "10.0.0.7"),
        ([str(items[0].pk)], 1, "10.0.0.8"),
    ]
    assert reads[0]["data"] == {"via": "list"}
    assert reads[0]["actor"] == {"id": org.hr.pk, "display_name": org.hr.display_name}


@pytest.mark.django_db
def test_the_api_answers_the_same_document(world):
    api = APIClient()
    api.force_authenticate(world.org.rep)
    response = api.get(API)
    assert response.status_code == 200
    body = response.content.decode()
    assert all(word in body for word in THEIRS.values())
    assert not [word for word in NOT_THEIRS.values() if word in body]
    assert AuditEvent.objects.filter(verb=EXPORT_VERB, actor=world.org.rep).count() == 1


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_sign_in_and_the_api_answers_401(client, org):
    for path in (PAGE, DOWNLOAD):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert APIClient().get(API).status_code == 401
    assert not AuditEvent.objects.filter(verb=EXPORT_VERB).exists()


@pytest.mark.django_db
def test_only_get_is_allowed(client, org):
    client.force_login(org.rep)
    assert client.post(DOWNLOAD).status_code == 405
    api = APIClient()
    api.force_authenticate(org.rep)
    assert api.post(API).status_code == 405


# The download's queries (pinned; the same with four times the history):
# profile: roles, API token, MFA (3); reporting lines, memberships, teams led (3);
# audit events, grouped by the moment they were written (1); recorded calls,
# scorecards + scores (3);
# sessions + participants + agenda + moves and cancellations (4); private notes,
# commitments, goals, ratings, diagnoses (5); pair memberships + members, pair notes,
# habits + check-ins (5); a request for a peer (1); experiments, learnings (2);
# feedback received + themes + shares, given, requests made + responders, requests
# asked of me (6); wins (1);
# notifications, preferences, calendar feed, plans (4); the audit event itself (1).
EXPORT_QUERIES = 39


@pytest.mark.django_db
def test_the_download_costs_a_fixed_number_of_queries(org):
    build_world(org)
    personal_data_export(person=org.rep)  # warm the content-type cache
    with CaptureQueriesContext(connection) as small:
        personal_data_export(person=org.rep)
    more = build_world_more(org)
    with CaptureQueriesContext(connection) as big:
        document = personal_data_export(person=org.rep)
    assert len(document["sessions"]) > 4 and len(document["feedback_received"]) > 10
    assert len(small) == len(big) == EXPORT_QUERIES, [q["sql"] for q in big.captured_queries]
    del more


def build_world_more(org):
    """Four more weeks of history for the rep: sessions, notes, feedback both ways."""
    from django.utils import timezone

    from coaching.services import agenda_item_add, private_note_save
    from tests.support.factories import one_on_one

    for n in range(4):
        session = one_on_one(org.manager, org.rep, start=timezone.now() - dt.timedelta(weeks=n + 2))
        private_note_save(session=session, author=org.rep, text=f"more {n}", base_version=0)
        agenda_item_add(session=session, actor=org.manager, text=f"item {n}")
        for author in (org.peer, UserFactory(manager=org.manager)):
            feedback_give(
                author=author, recipient=org.rep, stream="developmental", observation=f"x {n}"
            )
        feedback_give(author=org.rep, recipient=org.manager, stream="evaluative", observation="y")


def test_the_api_schema_names_every_section_of_the_document():
    from people.api import MyDataSerializer
    from people.privacy import sections

    declared = set(MyDataSerializer().fields)
    assert declared == {"format", "generated_at", "person_id", *(n for n, _ in sections())}
