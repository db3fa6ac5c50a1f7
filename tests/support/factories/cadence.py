"""Factories for cadence's models: policies with their items and assignments, plans
and their occurrences, closed days, calendar feeds and rollouts. Bare rows; the
services (`plan_create`, `rollout_start`) make the ones that generate sessions."""

import datetime as _dt

import factory
from django.utils import timezone as _tz

from cadence import models as cadence_models
from tests.support.factories.coaching import SessionFactory
from tests.support.factories.people import TeamFactory, UserFactory


class CadencePolicyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = cadence_models.CadencePolicy

    name = factory.Sequence(lambda n: f"Policy {n}")


class PolicyItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = cadence_models.PolicyItem

    policy = factory.SubFactory(CadencePolicyFactory)
    kind = "one_on_one"
    local_time = _dt.time(10, 0)


class PolicyAssignmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = cadence_models.PolicyAssignment

    policy = factory.SubFactory(CadencePolicyFactory)
    team = factory.SubFactory(TeamFactory)


class CadencePlanFactory(factory.django.DjangoModelFactory):
    """A weekly 1:1 plan between a coach and a coachee."""

    class Meta:
        model = cadence_models.CadencePlan

    kind = "one_on_one"
    coach = factory.SubFactory(UserFactory)
    coachee = factory.SubFactory(UserFactory)
    local_time = _dt.time(10, 0)
    time_zone = "Europe/Berlin"
    starts_on = factory.LazyFunction(_tz.localdate)


class OccurrenceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = cadence_models.Occurrence

    plan = factory.SubFactory(CadencePlanFactory)
    session = factory.SubFactory(SessionFactory)
    slot_start = factory.SelfAttribute("session.scheduled_start")


class ClosureFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = cadence_models.Closure

    name = "Company offsite"
    first_day = factory.LazyFunction(lambda: _tz.localdate() + _dt.timedelta(days=14))
    last_day = factory.LazyAttribute(lambda o: o.first_day + _dt.timedelta(days=2))


class CalendarFeedFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = cadence_models.CalendarFeed

    person = factory.SubFactory(UserFactory)
    token = factory.Sequence(lambda n: f"feed-token-{n:08d}")


class RolloutFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = cadence_models.Rollout

    team = factory.SubFactory(TeamFactory)
    starts_on = factory.LazyFunction(_tz.localdate)


class RolloutTickFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = cadence_models.RolloutTick

    rollout = factory.SubFactory(RolloutFactory)
    item = factory.Sequence(lambda n: f"item-{n}")
