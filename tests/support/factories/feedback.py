"""Factories for feedback's models: feedback and its shares, themes, requests, terms
and wins."""

import datetime as _dt
import uuid

import factory
from django.utils import timezone as _tz

from feedback import models as feedback_models
from tests.support.factories.people import TeamFactory, UserFactory


class FeedbackFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = feedback_models.Feedback

    stream = "developmental"
    direction = "peer"
    author = factory.SubFactory(UserFactory)
    recipient = factory.SubFactory(UserFactory)
    observation = "You let the customer finish before answering"
    anonymous = False
    # As `feedback.services.feedback_give`: an anonymous answer has a random address.
    public_id = factory.LazyAttribute(lambda item: uuid.uuid4() if item.anonymous else None)


class FeedbackShareFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = feedback_models.FeedbackShare

    feedback = factory.SubFactory(FeedbackFactory)
    person = factory.SubFactory(UserFactory)


class ThemeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = feedback_models.Theme
        django_get_or_create = ["name"]

    name = factory.Sequence(lambda n: f"theme {n}")


class FeedbackRequestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = feedback_models.FeedbackRequest

    requester = factory.SubFactory(UserFactory)
    due_on = factory.LazyFunction(lambda: _tz.localdate() + _dt.timedelta(days=7))


class RequestedResponderFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = feedback_models.RequestedResponder

    request = factory.SubFactory(FeedbackRequestFactory)
    responder = factory.SubFactory(UserFactory)


class InterpretiveTermFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = feedback_models.InterpretiveTerm
        django_get_or_create = ["phrase"]

    phrase = factory.Sequence(lambda n: f"phrase {n}")


class WinFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = feedback_models.Win

    author = factory.SubFactory(UserFactory)
    team = factory.SubFactory(TeamFactory)
    title = "Call clip of the week: the pricing pause"
