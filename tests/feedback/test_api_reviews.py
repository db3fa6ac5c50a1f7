"""The evaluation screen through the API: GET /api/v1/feedback-reviews/ and its CSV at
/api/v1/feedback-reviews/export.csv — the evaluative stream about the people a
reader reviews, scoped, filtered, audited, and never a developmental word."""

import csv
import io
from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from feedback.evaluations import EXPORT_VERB
from feedback.models import Feedback, Stream
from people.models import AuditEvent
from tests.support.factories import FeedbackFactory
from tests.support.feedback_reviews import (
    ANON,
    DEV,
    EVAL_MARKERS,
    EVAL_OTHER,
    EVAL_REP,
    HELD,
    NOT_REVIEWERS,
    READ,
    REFLECTION,
    SECRET_AUTHOR,
    SEES,
    THEME,
    build_world,
    expected_reads,
    reviews_world,
)

LIST = "/api/v1/feedback-reviews/"
CSV = "/api/v1/feedback-reviews/export.csv"


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return signed_in


@pytest.fixture
def world(org):
    return build_world(org)


def results(response) -> list[dict]:
    assert response.status_code == 200, response.content
    return response.json()["results"]


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


def audited():
    return AuditEvent.objects.filter(verb__in=[READ, EXPORT_VERB])


# --- Who gets in -----------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", [*SEES, *NOT_REVIEWERS])
def test_hr_and_managers_get_in_and_everyone_else_gets_404(api, org, world, who):
    client = api(getattr(org, who))
    expected = 200 if who in SEES else 404
    assert client.get(LIST).status_code == expected
    assert client.get(CSV).status_code == expected
    if who not in SEES:
        assert not audited().exists()


@pytest.mark.django_db
def test_someone_with_nobody_below_them_gets_404(api, world):
    assert api(world).get(LIST).status_code == 404
    assert api(world).get(CSV).status_code == 404


@pytest.mark.django_db
def test_anonymous_callers_get_401(api, world):
    assert api().get(LIST).status_code == 401
    assert api().get(CSV).status_code == 401


# --- What each reader receives ------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", SEES)
def test_each_reader_receives_the_evaluative_stream_below_them_only(api, org, world, who):
    client = api(getattr(org, who))
    listed = client.get(LIST)
    exported = client.get(CSV)
    for body in (listed.content.decode(), exported.content.decode()):
        for key, marker in EVAL_MARKERS.items():
            assert (marker in body) == (key in SEES[who]), (who, key)
        for private in (DEV, HELD, REFLECTION, THEME, SECRET_AUTHOR):
            assert private not in body
    rows = results(listed)
    assert {row["stream"] for row in rows} == {"evaluative"}
    assert len(rows) == expected_reads(who) == len(csv_rows(exported)) - 1
    assert not {"reflection", "themes", "shared_with"} & set(rows[0])


@pytest.mark.django_db
def test_an_item_carries_its_people_and_words(api, org, world):
    (row,) = results(api(org.manager).get(LIST))
    ev = Feedback.objects.get(observation=EVAL_REP)
    assert row == {
        "id": ev.pk,
        "ref": str(ev.pk),
        "stream": "evaluative",
        "direction": "peer",
        "recipient": {"id": org.rep.pk, "display_name": "Rita Rep"},
        "author": {"id": org.peer.pk, "display_name": "Pavel Peer"},
        "anonymous": False,
        "observation": EVAL_REP,
        "impact": "More demos booked",
        "suggestion": "Keep the agenda slide",
        "created_at": row["created_at"],
        "created_on": ev.created_at.astimezone(UTC).date().isoformat(),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["head", "hr"])
def test_anonymous_answers_come_without_an_author(api, org, world, who):
    client = api(getattr(org, who))
    anonymous = [row for row in results(client.get(LIST)) if row["observation"] == ANON]
    assert len(anonymous) == 3
    assert {(row["author"], row["anonymous"]) for row in anonymous} == {(None, True)}
    exported = [row for row in csv_rows(client.get(CSV)) if row[5] == ANON]
    assert {row[3] for row in exported} == {""}


@pytest.mark.django_db
def test_the_csv_export_neutralises_formulas(api, org):
    FeedbackFactory(
        stream=Stream.EVALUATIVE,
        author=org.peer,
        recipient=org.rep,
        observation="=1+1",
        impact="-1",
        suggestion="@A1",
    )
    response = api(org.manager).get(CSV)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="evaluative-')
    assert csv_rows(response)[1][5:] == ["'=1+1", "'-1", "'@A1"]


@pytest.mark.django_db
def test_a_client_asking_for_csv_still_gets_errors_it_can_read(api, org, world):
    client = api(org.manager)
    response = client.get(f"{CSV}?person=abc", HTTP_ACCEPT="text/csv")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert "person" in response.json()
    assert client.get(CSV, HTTP_ACCEPT="text/csv").status_code == 200


@pytest.mark.django_db
def test_a_person_filter_beyond_any_id_is_a_400_not_a_database_error(api, org, world):
    # Found by the API fuzzing test: SQLite cannot bind it, PostgreSQL's bigint cannot hold it.
    for url in (CSV, CSV.replace("export.csv", "")):
        response = api(org.manager).get(url, {"person": 2**70})
        assert response.status_code == 400
        assert "person" in response.json()


# --- Audit ---------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", SEES)
def test_listing_audits_each_item_returned(api, org, world, who):
    reader = getattr(org, who)
    rows = results(api(reader).get(LIST))
    logged = AuditEvent.objects.filter(verb=READ, actor=reader).values_list("target_id", flat=True)
    # By `ref`, as the API names them: an anonymous answer by its random id.
    assert sorted(logged) == sorted(row["ref"] for row in rows)
    assert any(not ref.isdigit() for ref in logged) == any(row["anonymous"] for row in rows)
    assert len(logged) == expected_reads(who)


@pytest.mark.django_db
def test_an_export_is_one_event_with_its_filters_plus_a_read_per_row(api, org, world):
    api(org.hr).get(f"{CSV}?person={org.other_rep.pk}&from=2020-01-01&to=2999-12-31")
    export = AuditEvent.objects.get(verb=EXPORT_VERB, actor=org.hr)
    assert export.data == {
        "filters": {"person_id": org.other_rep.pk, "from": "2020-01-01", "to": "2999-12-31"},
        "rows": 1,
    }
    (read,) = AuditEvent.objects.filter(verb=READ, actor=org.hr)
    assert read.target_id == str(Feedback.objects.get(observation=EVAL_OTHER).pk)


# --- Filters -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_filters_by_person_and_by_days_in_the_readers_time_zone(api, org, world):
    Feedback.objects.filter(observation=EVAL_OTHER).update(
        created_at=datetime(2025, 3, 10, 23, 30, tzinfo=UTC)  # 11 March in Berlin
    )
    client = api(org.head)
    only_other = results(client.get(f"{LIST}?person={org.other_rep.pk}"))
    assert [row["observation"] for row in only_other] == [EVAL_OTHER]
    assert results(client.get(f"{LIST}?person={org.other_rep.pk}&to=2025-03-10")) == []
    on_the_day = results(client.get(f"{LIST}?from=2025-03-11&to=2025-03-11"))
    assert [row["observation"] for row in on_the_day] == [EVAL_OTHER]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("person=abc", "person"),
        ("person=0", "person"),
        ("person=999999", "person"),
        ("person=other_rep", "person"),  # exists, not below the manager
        ("person=manager", "person"),  # themselves
        ("from=2025-02-30", "from"),
        ("to=soon", "to"),
        ("from=1900-01-01", "from"),
        ("from=2025-03-02&to=2025-03-01", "from"),
    ],
)
def test_bad_filters_are_a_400_naming_the_field_and_nothing_is_written(
    api, org, world, query, field
):
    for name in ("other_rep", "manager"):
        query = query.replace(f"person={name}", f"person={getattr(org, name).pk}")
    client = api(org.manager)
    for path in (LIST, CSV):
        response = client.get(f"{path}?{query}")
        assert response.status_code == 400, (path, query)
        assert field in response.json()
    assert not audited().exists()


@pytest.mark.django_db
def test_a_person_outside_the_scope_and_an_unknown_id_get_the_same_answer(api, org, world):
    client = api(org.manager)
    outside = client.get(f"{LIST}?person={org.other_rep.pk}").json()
    unknown = client.get(f"{LIST}?person=999999").json()
    assert outside == unknown


# --- Pages and query counts -------------------------------------------------------------------


@pytest.mark.django_db
def test_the_list_is_paginated_and_only_the_page_returned_is_audited(api, org):
    FeedbackFactory.create_batch(52, stream=Stream.EVALUATIVE, author=org.peer, recipient=org.rep)
    client = api(org.manager)
    first = client.get(LIST).json()
    assert (first["count"], len(first["results"])) == (52, 50)
    assert AuditEvent.objects.filter(verb=READ).count() == 50
    assert len(client.get(f"{LIST}?page=2").json()["results"]) == 2
    assert AuditEvent.objects.filter(verb=READ).count() == 52


@pytest.mark.django_db
@pytest.mark.parametrize("size", [3, 12])
def test_the_list_costs_the_same_queries_whatever_the_number_of_items(
    api, django_assert_num_queries, size
):
    client = api(reviews_world(size))
    client.get(LIST)  # warm the content-type cache
    # roles, count, the page's ids, its items with people, audit insert
    with django_assert_num_queries(5):
        response = client.get(LIST)
    assert response.json()["count"] == size


@pytest.mark.django_db
@pytest.mark.parametrize("size", [3, 12])
def test_the_export_costs_the_same_queries_whatever_the_number_of_items(
    api, django_assert_num_queries, size
):
    client = api(reviews_world(size))
    client.get(CSV)
    # roles, items with people, savepoint, export event, read events, release savepoint
    with django_assert_num_queries(6):
        response = client.get(CSV)
    assert len(csv_rows(response)) == size + 1


# --- Schema ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_both_endpoints_are_in_the_schema(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
    schema = (tmp_path / "s.yml").read_text()
    assert f"  {LIST}:" in schema and f"  {CSV}:" in schema
    assert "operationId: feedback_reviews_list" in schema
    assert "operationId: feedback_reviews_export" in schema
    assert "text/csv" in schema
