"""Factories for peers' models: agreement templates, pairs and their members,
requests for a peer, pair notes, habits and their check-ins. Bare rows; the tests'
`form_pair` (tests/support/peers_pairs.py) forms a pair through the real service."""

import datetime as _dt

import factory
from django.utils import timezone as _tz

from peers import models as peers_models
from tests.support.factories.people import UserFactory


class AgreementTemplateFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = peers_models.AgreementTemplate

    text = "We meet every other week and keep what we say between us."


class PeerPairFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = peers_models.PeerPair

    rationale = "complementary"
    agreement_text = "We meet every other week and keep what we say between us."
    weekday = 1
    local_time = _dt.time(10, 0)
    time_zone = "Europe/Berlin"
    created_by = factory.SubFactory(UserFactory)


class PairMemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = peers_models.PairMember

    pair = factory.SubFactory(PeerPairFactory)
    person = factory.SubFactory(UserFactory)


class PeerRequestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = peers_models.PeerRequest

    person = factory.SubFactory(UserFactory)


class PairNoteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = peers_models.PairNote

    pair = factory.SubFactory(PeerPairFactory)
    author = factory.SubFactory(UserFactory)
    text = "Tried the pause after the price; it held."


class HabitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = peers_models.Habit

    pair = factory.SubFactory(PeerPairFactory)
    owner = factory.SubFactory(UserFactory)
    text = "Pause after saying the price"


class HabitCheckInFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = peers_models.HabitCheckIn

    habit = factory.SubFactory(HabitFactory)
    checked_by = factory.SelfAttribute("habit.owner")
    outcome = "kept"
    checked_on = factory.LazyFunction(_tz.localdate)
