"""factory-boy factories for every model. Import from here in tests."""

import datetime as _dt
import uuid

import factory
from django.contrib.auth.models import Group
from django.utils import timezone as _tz

from coaching import models as coaching_models
from feedback import models as feedback_models
from people.models import AuditEvent, ReportingLine, Team, TeamMembership, User
from people.roles import GROUP_FOR_ROLE, Role
from scorecards.models import RecordedCall

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


# --- coaching ----------------------------------------------------------------------


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


class RecordedCallFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RecordedCall

    person = factory.SubFactory(UserFactory)
    url = "https://calls.example.com/recordings/123"
    title = "Discovery call with Northwind"
    call_date = factory.LazyFunction(lambda: _tz.localdate() - _dt.timedelta(days=2))


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


# --- feedback -------------------------------------------------------------------------


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
