"""The management-chain selectors walk the reporting tree in one query at any depth."""

import pytest
from django.db import connection
from django.db.models import OuterRef, Q
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from core.queries import ExistsPerRow, any_of
from people.models import User
from people.selectors import (
    access_person,
    is_below,
    is_in_management_chain,
    list_ids_below,
    management_chain,
    managers_above,
    people_below,
)
from tests.support.factories import UserFactory


def build_chain(levels: int):
    """A straight line of `levels` people, top first, each reporting to the one above."""
    people = [UserFactory()]
    for _ in range(levels - 1):
        people.append(UserFactory(manager=people[-1]))
    return people


@pytest.mark.django_db
@pytest.mark.parametrize("levels", [2, 5, 8])
def test_it_returns_the_chain_from_the_direct_manager_upward_in_one_query(levels):
    people = build_chain(levels)
    bottom = people[-1]

    # Expected: 1 query — a recursive CTE joined back to the user table.
    with CaptureQueriesContext(connection) as queries:
        chain = management_chain(person=bottom)
    assert len(queries) == 1
    assert chain == list(reversed(people[:-1]))


@pytest.mark.django_db
def test_it_finds_everyone_below_a_person_in_one_query_for_a_five_level_tree():
    top, second, third, fourth, fifth = build_chain(5)
    sibling = UserFactory(manager=second)
    outsider = UserFactory()

    with CaptureQueriesContext(connection) as queries:
        below = set(people_below(person=top))
    assert len(queries) == 1
    assert below == {second, third, fourth, fifth, sibling}
    assert outsider not in below
    assert set(people_below(person=fourth)) == {fifth}
    assert set(people_below(person=fifth)) == set()
    with CaptureQueriesContext(connection) as queries:
        ids = list_ids_below(person=top)
    assert len(queries) == 1
    assert sorted(ids) == sorted(p.pk for p in below)
    assert list_ids_below(person=fourth.pk) == [fifth.pk]
    assert list_ids_below(person=fifth) == []


@pytest.mark.django_db
def test_is_below_selects_the_same_people_alone_and_in_an_or():
    top, second, third = build_chain(3)
    sibling, outsider = UserFactory(manager=second), UserFactory()
    for person in (top, second, third, outsider):
        below = set(people_below(person=person))
        assert set(User.objects.filter(is_below("pk", person=person))) == below
        either = User.objects.filter(Q(pk=outsider.pk) | is_below("pk", person=person.pk))
        assert set(either) == below | {outsider}
    assert set(User.objects.filter(is_below("reports_to", person=top))) == {third, sibling}


@pytest.mark.django_db
def test_exists_per_row_selects_what_exists_selects_and_stays_a_check_per_row():
    """On PostgreSQL the subquery ends in OFFSET 0 (kept as a per-row check, not a
    join); the rows are those of a plain EXISTS, negated too, and an empty subquery
    is FALSE as with Exists."""
    top, second, third = build_chain(3)
    has_reports = User.objects.filter(reports_to=OuterRef("pk"))
    for condition, expected in (
        (ExistsPerRow(has_reports), {top, second}),
        (~ExistsPerRow(has_reports), {third}),
        (ExistsPerRow(User.objects.none()), set()),
    ):
        assert set(User.objects.filter(condition)) == expected
    with CaptureQueriesContext(connection) as queries:
        list(User.objects.filter(ExistsPerRow(has_reports)))
    assert ("OFFSET 0)" in queries[0]["sql"]) == (connection.vendor == "postgresql")


@pytest.mark.django_db
def test_any_of_selects_the_rows_of_a_one_column_queryset():
    top, second, third = build_chain(3)
    managers = User.objects.filter(pk__in=[top.pk, second.pk]).values("pk")
    assert set(User.objects.filter(any_of("reports_to", managers))) == {second, third}
    assert not User.objects.filter(any_of("pk", User.objects.none().values("pk"))).exists()


@pytest.mark.django_db
def test_it_answers_whether_someone_is_in_a_persons_chain():
    top, middle, bottom = build_chain(3)
    stranger = UserFactory()
    assert is_in_management_chain(manager=top, person=bottom)
    assert is_in_management_chain(manager=middle, person=bottom)
    assert not is_in_management_chain(manager=bottom, person=top)
    assert not is_in_management_chain(manager=stranger, person=bottom)


@pytest.mark.django_db
def test_the_chain_walked_up_agrees_with_everyone_below_walked_down():
    """`is_in_management_chain` and `access_person` walk up from the person; whoever
    they say is above is exactly whoever has the person in `people_below` — through
    someone who left, in a tree of four levels with two branches, in one query each."""
    top, second, third, fourth = build_chain(4)
    sibling = UserFactory(manager=second)
    type(top).objects.filter(pk=third.pk).update(is_active=False)  # left; still a link
    third.refresh_from_db()
    outsider = UserFactory()
    people = [top, second, third, fourth, sibling, outsider]
    for manager in people:
        below = {p.pk for p in people_below(person=manager)}
        for person in people:
            with CaptureQueriesContext(connection) as queries:
                above = is_in_management_chain(manager=manager, person=person)
            assert len(queries) == 1
            assert above == (person.pk in below), (manager, person)
            if person.pk == manager.pk:
                continue
            if person.pk in below and person.is_active:
                with CaptureQueriesContext(connection) as queries:
                    assert access_person(user=manager, pk=person.pk) == person
                # Up from the person, not down through everyone below the manager.
                assert "below" not in queries[0]["sql"]
            else:
                with pytest.raises(Http404):
                    access_person(user=manager, pk=person.pk)


@pytest.mark.django_db
def test_it_stops_walking_on_a_loop_written_around_the_service():
    a, b = build_chain(2)
    # Bypass the service (which refuses loops) to prove the walk still terminates.
    type(a).objects.filter(pk=a.pk).update(reports_to=b)
    assert set(people_below(person=a)) == {a, b}
    assert {p.pk for p in management_chain(person=b)} == {a.pk, b.pk}
    assert is_in_management_chain(manager=a, person=b)
    assert is_in_management_chain(manager=b, person=a)
    assert access_person(user=a, pk=b.pk) == b


@pytest.mark.django_db
def test_it_finds_everyone_above_many_people_in_one_query():
    top, second, third, fourth = build_chain(4)
    sibling = UserFactory(manager=second)
    outsider = UserFactory()

    with CaptureQueriesContext(connection) as queries:
        above = managers_above(people=[fourth.pk, sibling.pk, top.pk, outsider.pk, fourth.pk])
    assert len(queries) == 1
    assert above == {
        fourth.pk: {third.pk, second.pk, top.pk},
        sibling.pk: {second.pk, top.pk},
        top.pk: set(),
        outsider.pk: set(),
    }
    # The mirror of people_below, person by person.
    for person in (top, second, third, fourth, sibling, outsider):
        below = {p.pk for p in people_below(person=person)}
        assert below == {p for p, managers in above.items() if person.pk in managers} | (
            below - set(above)
        )
    assert managers_above(people=[]) == {}


@pytest.mark.django_db
def test_walking_up_stops_on_a_loop_written_around_the_service():
    a, b = build_chain(2)
    type(a).objects.filter(pk=a.pk).update(reports_to=b)
    assert managers_above(people=[a.pk, b.pk]) == {a.pk: {a.pk, b.pk}, b.pk: {a.pk, b.pk}}
