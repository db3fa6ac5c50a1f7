"""Factories for learning's models: experiments, learnings and their tags, and
playbook modules."""

import factory

from learning import models as learning_models
from tests.support.factories.people import UserFactory


class ExperimentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = learning_models.Experiment

    owner = factory.SubFactory(UserFactory)
    hypothesis = "Naming the price first shortens the call"
    test = "Name it first on the next five discovery calls"


class LearningTagFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = learning_models.LearningTag
        django_get_or_create = ["name"]

    name = factory.Sequence(lambda n: f"tag {n}")


class LearningFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = learning_models.Learning

    author = factory.SubFactory(UserFactory)
    kind = "learning"
    title = "The price lands better after a pause"
    body = "Three calls out of five held the price when we paused after it."
    audience = "organisation"


class PlaybookModuleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = learning_models.PlaybookModule

    name = factory.Sequence(lambda n: f"Playbook module {n}")
    department = "core"
    summary = "Run a first 1:1 that sets a goal"
    goals = "Agree one goal"
    prompts = "What would make this quarter a good one?"
    cadence = "Weekly 1:1s"
    experiments = "Ask before telling"
