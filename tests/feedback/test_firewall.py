"""The two streams never mix: who sees what, and what evaluation can reach."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from feedback.models import Feedback, Stream
from feedback.selectors import access_feedback, visible_feedback
from feedback.services import feedback_give, feedback_share, feedback_share_revoke
from people.models import AuditEvent
from people.roles import Role

DEV_TEXT = "DEV-MARKER you interrupted the customer twice"
EVAL_TEXT = "EVAL-MARKER quarterly review: met the call targets"

ROLES = {"hr": {Role.HR, Role.REP}, "head": {Role.MANAGER, Role.MANAGER_OF_MANAGERS}}


def roles_of(org, who):
    return ROLES.get(who, {Role.REP})


@pytest.fixture
def items(org):
    dev = feedback_give(
        author=org.peer, recipient=org.rep, stream=Stream.DEVELOPMENTAL, observation=DEV_TEXT
    )
    ev = feedback_give(
        author=org.manager, recipient=org.rep, stream=Stream.EVALUATIVE, observation=EVAL_TEXT
    )
    return dev, ev


def seen_by(org, who):
    person = getattr(org, who)
    return set(visible_feedback(user=person, roles=roles_of(org, who)).values_list("pk", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "sees_dev", "sees_eval"),
    [
        ("rep", True, True),  # recipient
        ("peer", True, False),  # author of the developmental one
        ("manager", False, True),  # author of the evaluative one, and in the chain
        ("head", False, True),  # skip-level: evaluative only
        ("other_manager", False, False),
        ("other_rep", False, False),
        ("hr", False, True),  # the whole evaluative stream, never developmental
        ("admin", False, False),
    ],
)
def test_who_sees_which_stream(org, items, who, sees_dev, sees_eval):
    dev, ev = items
    seen = seen_by(org, who)
    assert (dev.pk in seen, ev.pk in seen) == (sees_dev, sees_eval)


@pytest.mark.django_db
def test_the_evaluative_manager_can_never_return_developmental_text(org, items):
    assert list(Feedback.evaluative.values_list("observation", flat=True)) == [EVAL_TEXT]
    assert not Feedback.evaluative.filter(stream=Stream.DEVELOPMENTAL).exists()
    assert not Feedback.evaluative.filter(observation=DEV_TEXT).exists()


@pytest.mark.django_db
def test_a_shared_developmental_item_reaches_only_the_named_person_until_revoked(org, items):
    dev, _ = items
    feedback_share(feedback=dev, actor=org.rep, person=org.manager)
    assert dev.pk in seen_by(org, "manager")
    assert dev.pk not in seen_by(org, "head")  # sharing with the coach is not with the chain
    feedback_share_revoke(feedback=dev, actor=org.rep, person=org.manager)
    assert dev.pk not in seen_by(org, "manager")


@pytest.mark.django_db
def test_only_the_recipient_shares_and_evaluative_items_are_not_shared(org, items):
    from django.core.exceptions import ValidationError

    from core.errors import Forbidden

    dev, ev = items
    with pytest.raises(Forbidden):  # not theirs to share
        feedback_share(feedback=dev, actor=org.peer, person=org.manager)
    with pytest.raises(ValidationError):
        feedback_share(feedback=ev, actor=org.rep, person=org.peer)


@pytest.mark.django_db
def test_reading_evaluative_feedback_as_someone_else_is_audited(org, items):
    _, ev = items
    access_feedback(user=org.rep, roles={Role.REP}, pk=ev.pk)  # the recipient: no event
    access_feedback(user=org.hr, roles={Role.HR}, pk=ev.pk, ip="10.0.0.7")
    events = AuditEvent.objects.filter(verb="feedback.evaluative_read")
    assert [(e.actor, e.target_id, e.ip) for e in events] == [(org.hr, str(ev.pk), "10.0.0.7")]
    assert EVAL_TEXT not in str(events[0].data)


@pytest.mark.django_db
def test_hr_cannot_open_developmental_feedback(org, items):
    from django.http import Http404

    dev, _ = items
    with pytest.raises(Http404):
        access_feedback(user=org.hr, roles={Role.HR}, pk=dev.pk)


@pytest.mark.django_db
def test_the_database_refuses_a_stream_that_does_not_exist(org, items):
    dev, _ = items
    with pytest.raises(IntegrityError):
        Feedback.objects.filter(pk=dev.pk).update(stream="both")


@pytest.mark.django_db
def test_the_visibility_rule_is_one_query(org, items):
    with CaptureQueriesContext(connection) as queries:
        list(visible_feedback(user=org.head, roles={Role.MANAGER}))
    assert len(queries) == 1


PEOPLE = ("head", "manager", "other_manager", "rep", "peer", "other_rep", "hr", "admin")


@pytest.mark.django_db
def test_the_rule_gathers_exactly_the_items_each_person_may_read(org):
    """Feedback.visible_to, in both shapes (ids gathered from four indexes, or each
    row tested), must equal the rule read item by item: received or written, shared
    with me (developmental, live share), evaluative about someone below me — or any
    evaluative item for HR."""
    people = [getattr(org, who) for who in PEOPLE]
    for author in people:
        for recipient in people:
            if author != recipient:
                for stream in Stream.values:
                    feedback_give(
                        author=author, recipient=recipient, stream=stream, observation="Seen"
                    )
    developmental = Feedback.objects.filter(stream=Stream.DEVELOPMENTAL)
    kept = developmental.filter(recipient=org.rep).first()
    feedback_share(feedback=kept, actor=org.rep, person=org.manager)
    revoked = developmental.filter(recipient=org.peer).first()
    feedback_share(feedback=revoked, actor=org.peer, person=org.other_rep)
    feedback_share_revoke(feedback=revoked, actor=org.peer, person=org.other_rep)
    below = {
        org.head.pk: {p.pk for p in people if p != org.head},
        org.manager.pk: {org.rep.pk, org.peer.pk},
        org.other_manager.pk: {org.other_rep.pk},
    }
    for person in people:
        for is_hr in (False, True):
            expected = {
                item.pk
                for item in Feedback.objects.all()
                if person.pk in (item.recipient_id, item.author_id)
                or (item.pk == kept.pk and person == org.manager)
                or (
                    item.stream == Stream.EVALUATIVE
                    and (is_hr or item.recipient_id in below.get(person.pk, set()))
                )
            }
            for each_row in (False, True):
                seen = Feedback.objects.visible_to(person, is_hr=is_hr, each_row=each_row)
                assert set(seen.values_list("pk", flat=True)) == expected, (
                    person,
                    is_hr,
                    each_row,
                )
                # Narrowed `within`, as the API's filters do: the same as filtering after.
                for within in (
                    Q(recipient=person),
                    Q(author=person),
                    Q(stream=Stream.DEVELOPMENTAL),
                    Q(stream=Stream.EVALUATIVE, recipient=org.rep),
                ):
                    narrowed = Feedback.objects.visible_to(
                        person, is_hr=is_hr, each_row=each_row, within=within
                    )
                    inside = set(Feedback.objects.filter(within).values_list("pk", flat=True))
                    assert set(narrowed.values_list("pk", flat=True)) == expected & inside, (
                        person,
                        is_hr,
                        each_row,
                        within,
                    )


@pytest.mark.django_db
def test_the_direction_follows_the_reporting_line_at_the_time_of_writing(org):
    made = {
        who: feedback_give(
            author=getattr(org, a),
            recipient=getattr(org, r),
            stream=Stream.DEVELOPMENTAL,
            observation="Saw it",
        ).direction
        for who, (a, r) in {
            "down": ("manager", "rep"),
            "skip": ("head", "rep"),
            "up": ("rep", "manager"),
            "peer": ("rep", "peer"),
            "self": ("rep", "rep"),
            "across": ("rep", "other_rep"),
        }.items()
    }
    assert made == {
        "down": "downward",
        "skip": "downward",
        "up": "upward",
        "peer": "peer",
        "self": "self",
        "across": "peer",
    }
    assert timezone.now() - timedelta(minutes=1) < Feedback.objects.latest("pk").created_at
