"""Factories for people's models: people, reporting lines, teams, the audit trail,
sign-in sessions and imports."""

import datetime as _dt

import factory
from django.contrib.auth.models import Group
from django.utils import timezone as _tz

from people.models import (
    AuditEvent,
    PeopleImport,
    ReportingLine,
    ReportingVersion,
    SignInSession,
    Team,
    TeamMembership,
    User,
)
from people.roles import GROUP_FOR_ROLE, Role

PASSWORD = "correct horse battery staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"person{n}@example.com")
    display_name = factory.Faker("name")
    time_zone = "Europe/Berlin"
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def manager(obj, create, extracted, **kwargs):
        """`UserFactory(manager=m)` sets the reporting line the way the product does."""
        if extracted is not None:
            from people.services import reporting_line_change

            reporting_line_change(person=obj, manager=extracted)
            obj.refresh_from_db()

    @factory.post_generation
    def roles(obj, create, extracted, **kwargs):
        for role in extracted or []:
            group, _ = Group.objects.get_or_create(name=GROUP_FOR_ROLE[Role(role)])
            obj.groups.add(group)


class ReportingLineFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ReportingLine

    report = factory.SubFactory(UserFactory)
    manager = factory.SubFactory(UserFactory)


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    name = factory.Sequence(lambda n: f"Team {n}")
    lead = factory.SubFactory(UserFactory)


class TeamMembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TeamMembership

    team = factory.SubFactory(TeamFactory)
    person = factory.SubFactory(UserFactory)


class AuditEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AuditEvent

    actor = factory.SubFactory(UserFactory)
    verb = "test.event"


class SignInSessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SignInSession

    session_key = factory.Sequence(lambda n: f"session{n:032d}")
    session_data = ""
    expire_date = factory.LazyFunction(lambda: _tz.now() + _dt.timedelta(days=1))


class PeopleImportFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PeopleImport

    file_name = "people.csv"
    uploaded_by = factory.SubFactory(UserFactory)


class ReportingVersionFactory(factory.django.DjangoModelFactory):
    """The one row the reporting triggers keep (id 1, written by migration with an
    explicit id, so PostgreSQL's sequence never moved past it): fetched, never a second."""

    class Meta:
        model = ReportingVersion
        django_get_or_create = ("id",)

    id = 1
    value = factory.Faker("uuid4")
