"""Factories for scorecards' models: recorded calls, templates with their versions,
criteria and anchors, scoring rounds with raters, scorecards and scores. A chain
built from one factory shares one template version (`Score` → its scorecard's)."""

import datetime as _dt

import factory
from django.utils import timezone as _tz

from scorecards import models as scorecards_models
from scorecards.models import RecordedCall
from tests.support.factories.people import UserFactory


class RecordedCallFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RecordedCall

    person = factory.SubFactory(UserFactory)
    url = "https://calls.example.com/recordings/123"
    title = "Discovery call with Northwind"
    call_date = factory.LazyFunction(lambda: _tz.localdate() - _dt.timedelta(days=2))


class TemplateFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scorecards_models.Template

    name = factory.Sequence(lambda n: f"Template {n}")


class TemplateVersionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scorecards_models.TemplateVersion

    template = factory.SubFactory(TemplateFactory)
    number = 1


class CriterionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scorecards_models.Criterion

    template = factory.SubFactory(TemplateFactory)


class CriterionVersionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scorecards_models.CriterionVersion

    version = factory.SubFactory(TemplateVersionFactory)
    criterion = factory.SubFactory(
        CriterionFactory, template=factory.SelfAttribute("..version.template")
    )
    position = factory.Sequence(lambda n: n + 1)
    title = "Discovery"
    behaviour = "Asks two open questions before pitching"


class AnchorFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scorecards_models.Anchor

    criterion = factory.SubFactory(CriterionVersionFactory)
    level = 1
    description = "Pitches before asking"


class ScoringRoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scorecards_models.ScoringRound

    work = factory.SubFactory(RecordedCallFactory)
    version = factory.SubFactory(TemplateVersionFactory)
    context = "coach"
    created_by = factory.SubFactory(UserFactory)


class RoundRaterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scorecards_models.RoundRater

    round = factory.SubFactory(ScoringRoundFactory)
    person = factory.SubFactory(UserFactory)
    role = "coach"


class ScorecardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scorecards_models.Scorecard

    round = factory.SubFactory(ScoringRoundFactory)
    rater = factory.SubFactory(UserFactory)
    rater_role = "coach"
    subject = factory.SelfAttribute("round.work.person")
    version = factory.SelfAttribute("round.version")
    context = factory.SelfAttribute("round.context")


class ScoreFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = scorecards_models.Score

    scorecard = factory.SubFactory(ScorecardFactory)
    criterion = factory.SubFactory(
        CriterionVersionFactory, version=factory.SelfAttribute("..scorecard.version")
    )
    rating = 3
