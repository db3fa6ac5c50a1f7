"""The feedback-review world: who wrote what, who may read it, and a bigger one for
query counts; shared by the review pages' and the review API's tests."""

from datetime import timedelta

from django.utils import timezone

from feedback.models import Stream
from feedback.services import (
    feedback_acknowledge,
    feedback_give,
    feedback_request_answer,
    feedback_request_create,
    feedback_share,
)
from tests.support.factories import UserFactory

READ = "feedback.evaluative_read"


DEV = "DEVMARKER you let the buyer finish before the demo"


REFLECTION = "REFLECTIONMARKER I rush when the price comes up"


THEME = "thememarker"


EVAL_REP = "EVALREP 11 of 12 calls followed the structure"


EVAL_OTHER = "EVALOTHER closed the quarter at 104 percent"


ANON = "ANONMARKER you cancel our 1:1s when the quarter gets busy"


HELD = "HELDMARKER an answer still waiting for others"


SECRET_AUTHOR = "Zed Secret"


EVAL_MARKERS = {"rep": EVAL_REP, "other": EVAL_OTHER, "anon": ANON}


# What each reader finds: the chain below them (HR: everyone), never their own.
SEES = {
    "manager": {"rep"},
    "head": {"rep", "other", "anon"},  # skip-level: the rep, the other team, the manager
    "other_manager": {"other"},
    "hr": {"rep", "other", "anon"},
}


NOT_REVIEWERS = ["rep", "peer", "other_rep", "admin"]


def build_world(org):
    """Evaluative items to the rep, to the other team's rep and (anonymously, upward)
    to the manager; a developmental item to the rep, shared with the manager; the
    rep's reflection and themes; an anonymous answer still held back."""
    zed = UserFactory(display_name=SECRET_AUTHOR, manager=org.manager)
    dev = feedback_give(
        author=org.peer,
        recipient=org.rep,
        stream=Stream.DEVELOPMENTAL,
        observation=DEV,
        impact=f"{DEV} impact",
        suggestion=f"{DEV} suggestion",
    )
    feedback_share(feedback=dev, actor=org.rep, person=org.manager)
    ev = feedback_give(
        author=org.peer,
        recipient=org.rep,
        stream=Stream.EVALUATIVE,
        observation=EVAL_REP,
        impact="More demos booked",
        suggestion="Keep the agenda slide",
    )
    for item in (dev, ev):
        feedback_acknowledge(feedback=item, actor=org.rep, reflection=REFLECTION, themes=[THEME])
    feedback_give(
        author=org.peer, recipient=org.other_rep, stream=Stream.EVALUATIVE, observation=EVAL_OTHER
    )
    reports = [org.rep, org.peer, zed]
    shown = ask_anonymously(org.manager, reports)
    for author in reports:
        feedback_request_answer(request=shown, responder=author, observation=ANON)
    held = ask_anonymously(org.manager, reports)
    feedback_request_answer(request=held, responder=zed, observation=HELD)
    return zed


def ask_anonymously(manager, reports):
    return feedback_request_create(
        requester=manager,
        responders=reports,
        due_on=timezone.localdate() + timedelta(days=7),
        stream=Stream.EVALUATIVE,
        anonymous=True,
    )


def expected_reads(who) -> int:
    """Items shown to this reader: one each, three anonymous answers to the manager."""
    return sum(3 if key == "anon" else 1 for key in SEES[who])


def reviews_world(size):
    """A manager over a manager over `size` reps, each with one evaluative item from a
    peer (and a developmental one that must not count)."""
    head = UserFactory()
    middle = UserFactory(manager=head)
    for _ in range(size):
        rep, peer = UserFactory(manager=middle), UserFactory()
        for stream in Stream.values:
            feedback_give(author=peer, recipient=rep, stream=stream, observation="Saw it")
    return head
