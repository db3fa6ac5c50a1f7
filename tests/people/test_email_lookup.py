"""Finding a person by address, or a team by name, whatever the case, goes through the
unique index on LOWER(…): `__iexact` compares UPPER(…) and reads every row, which at
10,000 people made each sign-in and each imported person scan the whole table."""

import pytest
from django.db import connection

from people.models import Team, User
from people.services import account_create
from people.services_teams import team_create
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_person_is_found_by_address_whatever_its_case():
    ada = UserFactory(email="ada@example.com")

    assert User.objects.with_email("Ada@Example.COM").get() == ada
    assert User.objects.get_by_natural_key("ADA@example.com") == ada
    assert not User.objects.with_email("ad@example.com").exists()


def test_a_team_is_found_by_name_whatever_its_case():
    sales = team_create(name="Sales")

    assert Team.objects.with_name("SALES").get() == sales


def test_an_address_or_team_name_already_taken_is_refused_whatever_its_case():
    UserFactory(email="ada@example.com")
    team_create(name="Sales")

    with pytest.raises(Exception, match="ada@example.com already belongs to someone"):
        account_create(email="ADA@example.com", display_name="Ada Again")
    with pytest.raises(Exception, match="There is already a team called SALES"):
        team_create(name="SALES")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
@pytest.mark.parametrize(
    ("queryset", "index"),
    [
        (lambda: User.objects.with_email("ada@example.com"), "user_email_unique_ci"),
        (lambda: Team.objects.with_name("Sales"), "team_name_unique_ci"),
    ],
    ids=["person", "team"],
)
def test_the_lookups_can_use_the_unique_index(queryset, index):
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a few rows: the planner would scan
        plan = queryset().explain()
    assert index in plan, plan
