"""factory-boy factories for every model. Import from here in tests."""

import factory
from django.contrib.auth.models import Group

from people.models import AuditEvent, ReportingLine, Team, TeamMembership, User
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
