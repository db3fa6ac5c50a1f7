"""Factories for coaching's models: focus areas and prompts, sessions and everything
kept on one (notes, agenda, commitments, changes, ratings), goals and diagnoses.
`one_on_one(...)` makes a realistic 1:1 through the real service."""

import datetime as _dt

import factory
from django.utils import timezone as _tz

from coaching import models as coaching_models
from tests.support.factories.people import UserFactory


class FocusAreaFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.FocusArea

    name = factory.Sequence(lambda n: f"Focus area {n}")
    behaviours = "Asks two open questions before pitching\nConfirms next steps on the call"
    starts_on = factory.LazyFunction(lambda: _tz.localdate() - _dt.timedelta(days=30))
    ends_on = factory.LazyFunction(lambda: _tz.localdate() + _dt.timedelta(days=60))


class PromptFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.Prompt

    step = "goal"
    kind = ""
    text = factory.Sequence(lambda n: f"Question {n}?")


def one_on_one(coach, coachee, start=None, **kwargs):
    """A 1:1 made by the real service (so notes and participants exist)."""
    from coaching.services import one_on_one_create

    start = start or _tz.now() + _dt.timedelta(days=1)
    return one_on_one_create(coach=coach, coachee=coachee, start=start, **kwargs)


class SessionFactory(factory.django.DjangoModelFactory):
    """A bare session row; prefer `one_on_one(...)` for realistic ones."""

    class Meta:
        model = coaching_models.CoachingSession

    kind = "one_on_one"
    scheduled_start = factory.LazyFunction(lambda: _tz.now() + _dt.timedelta(days=1))
    original_start = factory.SelfAttribute("scheduled_start")
    duration_minutes = 30
    scheduled_end = factory.LazyAttribute(
        lambda o: o.scheduled_start + _dt.timedelta(minutes=o.duration_minutes)
    )


class SessionParticipantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.SessionParticipant

    session = factory.SubFactory(SessionFactory)
    person = factory.SubFactory(UserFactory)
    role = "participant"
    scheduled_start = factory.SelfAttribute("session.scheduled_start")


class SharedNotesFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.SharedNotes

    session = factory.SubFactory(SessionFactory)


class NotesRevisionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.NotesRevision

    notes = factory.SubFactory(SharedNotesFactory)
    version = 1


class PrivateNoteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.PrivateNote

    session = factory.SubFactory(SessionFactory)
    author = factory.SubFactory(UserFactory)
    text = "Private thought"


class AgendaItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.AgendaItem

    session = factory.SubFactory(SessionFactory)
    author = factory.SubFactory(UserFactory)
    text = "Pricing objection on the Acme call"


class CommitmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.Commitment

    owner = factory.SubFactory(UserFactory)
    text = "Ask two open questions before the demo"
    evidence = "Two recorded calls show it"
    due_on = factory.LazyFunction(lambda: _tz.localdate() + _dt.timedelta(days=7))


class SessionChangeFactory(factory.django.DjangoModelFactory):
    """A move of a session by an hour; the service records these (`session_reschedule`)."""

    class Meta:
        model = coaching_models.SessionChange

    session = factory.SubFactory(SessionFactory)
    kind = "moved"
    from_start = factory.SelfAttribute("session.scheduled_start")
    from_minutes = factory.SelfAttribute("session.duration_minutes")
    to_start = factory.LazyAttribute(lambda o: o.from_start + _dt.timedelta(hours=1))
    to_minutes = factory.SelfAttribute("from_minutes")
    sequence = factory.Sequence(lambda n: n + 1)


class GoalFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.Goal

    owner = factory.SubFactory(UserFactory)
    title = "Hold the price on the second call"


class SessionRatingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.SessionRating

    session = factory.SubFactory(SessionFactory)
    rater = factory.SubFactory(UserFactory)
    coach = factory.SubFactory(UserFactory)
    session_start = factory.SelfAttribute("session.scheduled_start")
    closes_at = factory.LazyAttribute(lambda o: o.session_start + _dt.timedelta(days=14))
    score = 4


class UsefulnessReleaseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.UsefulnessRelease

    coach = factory.SubFactory(UserFactory)
    counted_until = factory.LazyFunction(_tz.now)


class DiagnosisFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = coaching_models.Diagnosis

    coachee = factory.SubFactory(UserFactory)
    author = factory.SubFactory(UserFactory)
    knows_how = True
    gap = "skill"
