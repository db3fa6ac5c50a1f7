"""Factories for notifications' models: a notification in the outbox, a person's
preferences and a team's channel."""

import factory

from notifications import models as notifications_models
from tests.support.factories.people import TeamFactory, UserFactory


class NotificationFactory(factory.django.DjangoModelFactory):
    """A pending digest for one person; the outbox's `enqueue` makes real ones."""

    class Meta:
        model = notifications_models.Notification

    kind = "digest"
    recipient = factory.SubFactory(UserFactory)


class NotificationPreferenceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = notifications_models.NotificationPreference

    person = factory.SubFactory(UserFactory)


class TeamChannelFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = notifications_models.TeamChannel

    team = factory.SubFactory(TeamFactory)
    webhook_url = "https://hooks.example.com/services/T000/B000/XXXX"
