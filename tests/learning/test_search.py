"""Searching the library: PostgreSQL full-text search (English stemming, ranked, and
through the `learning_search` GIN index — its expression and the query's are the
same, which EXPLAIN shows), and a plain case-insensitive match of every word on
other databases (SQLite), newest first. Either way only what the reader may see."""

import pytest
from django.db import connection, transaction

from learning import selectors as selectors_learning
from learning.models import Learning
from learning.selectors import LibraryFilters, library, library_page
from tests.support.factories import FocusAreaFactory, UserFactory
from tests.support.learning_loop import make_teams, publish


@pytest.fixture
def teams(org):
    return make_teams(org)


def titles(user, use_fts=None, **filters):
    return [x.title for x in library(user=user, filters=LibraryFilters(**filters), use_fts=use_fts)]


@pytest.fixture
def shelf(org, teams):
    """Three organisation learnings (oldest first) and one for Mia's team."""
    focus = FocusAreaFactory(name="Discovery")
    publish(
        org.peer,
        title="Open questions before the demo",
        body="Ask three open questions before you show anything.",
        tags="discovery",
        focus_area=focus,
    )
    publish(
        org.rep,
        kind="checklist",
        title="Pricing call checklist",
        body="Say the number, then stop talking. The question that follows is theirs.",
        tags="pricing",
    )
    publish(
        org.other_rep,
        kind="template",
        title="Recap email template",
        body="Thanks for the call: what we heard, what happens next, and when.",
        tags="follow-up",
        team=teams.other,
    )
    publish(
        org.rep,
        title="Multi-threading a stalled renewal",
        body="Ask the champion who else will be in the room.",
        audience="team",
        team=teams.mine,
        tags="deals",
    )
    return focus


@pytest.mark.django_db
@pytest.mark.postgres
def test_postgres_stems_so_questions_finds_question(org, shelf):
    # "questions" → question: the title of one, the body of the other.
    assert set(titles(org.rep, q="questions")) == {
        "Open questions before the demo",
        "Pricing call checklist",
    }
    assert titles(org.rep, q="talked") == ["Pricing call checklist"]  # talking → talk
    assert titles(org.rep, q="emails") == ["Recap email template"]


@pytest.mark.django_db
@pytest.mark.postgres
def test_postgres_ranks_the_best_match_first(org, shelf):
    # "questions" twice in the first (title and body), once in the second (body).
    assert titles(org.rep, q="open questions")[0] == "Open questions before the demo"
    assert titles(org.rep, q="question")[0] == "Open questions before the demo"


@pytest.mark.django_db
@pytest.mark.postgres
@pytest.mark.parametrize("q", ['"unclosed', "-", "&|!():*", "the", "'; drop table", "a" * 200])
def test_anything_people_type_is_a_query_not_an_error(org, shelf, q):
    assert isinstance(titles(org.rep, q=q), list)


@pytest.mark.django_db
@pytest.mark.postgres
def test_postgres_search_keeps_to_what_the_reader_may_see(org, shelf):
    assert titles(org.rep, q="champion") == ["Multi-threading a stalled renewal"]
    for who in ("head", "other_rep", "hr", "admin"):
        assert titles(getattr(org, who), q="champion") == []


@pytest.mark.django_db
@pytest.mark.postgres
def test_explain_shows_the_search_uses_the_learning_search_index(org):
    """The query's tsvector is the index's expression, character for character once
    PostgreSQL has parsed both, so the planner uses the GIN index: it picks it by
    itself on a seeded table, and (seq scans off) proves it can."""
    author = UserFactory()
    words = ["pricing", "discovery", "objection", "silence", "renewal", "budget"]
    Learning.objects.bulk_create(
        Learning(
            author=author,
            kind="learning",
            audience="organisation",
            title=f"Note {i} on {words[i % 6]}",
            body=f"Body {i}: {words[(i * 5) % 6]} and more words about the call.",
        )
        for i in range(2_000)
    )
    publish(author, title="The zebra case", body="A rare word.")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE coaching_learning")

    def plan(q: str) -> str:
        sql, params = library(user=org.rep, filters=LibraryFilters(q=q)).query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN {sql}", params)
            return "\n".join(row[0] for row in cursor.fetchall())

    chosen = plan("zebras")
    assert "Bitmap Index Scan on learning_search" in chosen, chosen
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        forced = plan("pricing")
    assert "learning_search" in forced, forced
    assert titles(org.rep, q="zebras") == ["The zebra case"]


@pytest.mark.django_db
def test_the_fallback_matches_every_word_case_insensitively_newest_first(org, shelf):
    assert titles(org.rep, use_fts=False, q="QUESTION") == [
        "Pricing call checklist",
        "Open questions before the demo",
    ]
    assert titles(org.rep, use_fts=False, q="open demo") == ["Open questions before the demo"]
    assert titles(org.rep, use_fts=False, q="champion") == ["Multi-threading a stalled renewal"]
    assert titles(org.other_manager, use_fts=False, q="champion") == []


@pytest.mark.django_db
def test_the_vendor_check_picks_the_fallback_when_not_on_postgres(org, shelf, monkeypatch):
    monkeypatch.setattr(selectors_learning, "full_text_search_available", lambda: False)
    assert titles(org.rep, q="open demo") == ["Open questions before the demo"]
    assert titles(org.rep, q="talked") == []  # no stemming without PostgreSQL
    assert selectors_learning.full_text_search_available.__name__ == "<lambda>"


def test_the_vendor_check_reads_the_connection():
    assert selectors_learning.full_text_search_available() is (connection.vendor == "postgresql")


@pytest.mark.django_db
@pytest.mark.parametrize("use_fts", [False, pytest.param(True, marks=pytest.mark.postgres)])
def test_filters_combine_with_the_search(org, shelf, teams, use_fts):
    assert titles(org.rep, use_fts, tag="pricing") == ["Pricing call checklist"]
    assert titles(org.rep, use_fts, kind="template") == ["Recap email template"]
    assert titles(org.rep, use_fts, focus_area=shelf.pk) == ["Open questions before the demo"]
    assert titles(org.rep, use_fts, team=teams.other.pk) == ["Recap email template"]
    assert titles(org.rep, use_fts, q="question", kind="checklist") == ["Pricing call checklist"]
    assert titles(org.rep, use_fts, q="question", tag="nope") == []
    assert titles(org.rep, use_fts)[0] == "Multi-threading a stalled renewal"  # newest first


@pytest.mark.django_db
def test_the_page_is_paginated_with_each_rows_tags(org):
    for i in range(selectors_learning.LEARNINGS_PER_PAGE + 3):
        publish(org.rep, title=f"Learning {i}", tags=f"t{i}, shared")
    first = library_page(user=org.peer, filters=LibraryFilters())
    assert len(first.object_list) == selectors_learning.LEARNINGS_PER_PAGE
    assert first.paginator.count == selectors_learning.LEARNINGS_PER_PAGE + 3
    newest = first.object_list[0]
    assert newest.title == f"Learning {selectors_learning.LEARNINGS_PER_PAGE + 2}"
    assert [t.name for t in newest.tag_list] == [
        "shared",
        f"t{selectors_learning.LEARNINGS_PER_PAGE + 2}",
    ]
    last = library_page(user=org.peer, filters=LibraryFilters(), page_number=99)
    assert len(last.object_list) == 3
