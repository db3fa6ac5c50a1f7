"""Feedback's part of a person's data (see `people.privacy`).

The download: what they received on both streams (they are the recipient) with their
reflections, themes and shares, less anonymous answers still held back from everyone;
an anonymous answer stays unnamed, numberless and dated by the day (its share
history cannot name its author either: no one asked for it can be shown it). What they
gave, on both streams. Their requests (on an anonymous one, whether enough answered —
never who, nor how many) and what they were asked.
Wins they shared. Never someone else's developmental feedback, even one shared with
them: it is addressed to someone else, and theirs to share or take back.

Erasure: developmental feedback they gave or received goes (with its shares, themes
and the requests they made for it); on evaluative feedback they received, their
private reflection, themes and goal link are removed and the record kept."""

from datetime import UTC

from django.db.models import Prefetch, Q

from people.models import User
from people.privacy import Erasure, erasure_part, export_section, ref, when

from .models import (
    Feedback,
    FeedbackRequest,
    FeedbackShare,
    RequestedResponder,
    Stream,
    Win,
)
from .selectors import answered_band, author_shown, held_back_for_others, responders_in_order


def _item(item: Feedback, person: User) -> dict:
    """As the API names and dates it: an anonymous answer by its random ref and its
    day only, to its author too (nothing more of it is kept)."""
    return {
        "id": None if item.anonymous else item.pk,
        "ref": item.ref,
        "stream": item.stream,
        "direction": item.direction,
        "author": ref(author_shown(item, person)),
        "recipient": ref(item.recipient),
        "anonymous": item.anonymous,
        "request_id": item.request_id,
        "observation": item.observation,
        "impact": item.impact,
        "suggestion": item.suggestion,
        "created_at": None if item.anonymous else when(item.created_at),
        "created_on": when(item.created_at.astimezone(UTC).date()),
    }


@export_section("feedback_received")
def feedback_received(person: User) -> list:
    received = (
        Feedback.objects.filter(recipient=person)
        .exclude(held_back_for_others(person))
        .select_related("author", "recipient", "goal")
        .prefetch_related(
            "themes",
            Prefetch("shares", queryset=FeedbackShare.objects.select_related("person")),
        )
        .order_by("created_at", "public_id", "pk")  # anonymous answers of a day: shuffled
    )
    return [
        {
            **_item(item, person),
            "acknowledged_at": when(item.acknowledged_at),
            "reflection": item.reflection,
            "themes": [t.name for t in item.themes.all()],
            "goal_id": item.goal_id,
            "shared_with": [
                {**ref(s.person), "shared_at": when(s.created_at), "revoked_at": when(s.revoked_at)}
                for s in item.shares.all()
            ],
        }
        for item in received
    ]


@export_section("feedback_given")
def feedback_given(person: User) -> list:
    given = (
        Feedback.objects.filter(author=person)
        .select_related("author", "recipient")
        .order_by("created_at", "public_id", "pk")  # anonymous answers of a day: shuffled
    )
    return [_item(item, person) for item in given]


@export_section("feedback_requests")
def feedback_requests(person: User) -> dict:
    made = (
        FeedbackRequest.objects.filter(requester=person)
        .select_related("focus_area")
        .prefetch_related(Prefetch("responders", queryset=responders_in_order()))
        .order_by("created_at", "pk")
    )
    asked = (
        RequestedResponder.objects.filter(responder=person)
        .select_related("request", "request__requester")
        .order_by("request__created_at", "pk")
    )

    def responders(req):
        rows = list(req.responders.all())
        if req.anonymous:
            # Who answered an anonymous request is nobody's to know, nor how many did
            # (a count taken twice tells who answered between): as on the page.
            answered = sum(r.status == "answered" for r in rows)
            return {"asked": len(rows), "answered": answered_band(answered)}
        return [{**ref(r.responder), "status": r.status} for r in rows]

    return {
        "made": [
            {
                "id": req.pk,
                "stream": req.stream,
                "question": req.question,
                "topic": req.topic,
                "goal_id": req.goal_id,
                "focus_area": req.focus_area.name if req.focus_area else None,
                "anonymous": req.anonymous,
                "due_on": when(req.due_on),
                "created_at": when(req.created_at),
                "responders": responders(req),
            }
            for req in made
        ],
        "asked_of_me": [
            {
                "request_id": row.request_id,
                "requester": ref(row.request.requester),
                "stream": row.request.stream,
                "question": row.request.question,
                "topic": row.request.topic,
                "due_on": when(row.request.due_on),
                "status": row.status,
                "answered_at": when(row.answered_at),
                "declined_at": when(row.declined_at),
            }
            for row in asked
        ],
    }


@export_section("wins_shared")
def wins_shared(person: User) -> list:
    return [
        {
            "team": w.team.name,
            "title": w.title,
            "link": w.link,
            "text": w.text,
            "created_at": when(w.created_at),
        }
        for w in Win.objects.filter(author=person).select_related("team")
    ]


@erasure_part
def erase(person: User) -> Erasure:
    developmental = Feedback.objects.filter(stream=Stream.DEVELOPMENTAL).filter(
        Q(author=person) | Q(recipient=person)
    )
    evaluative_received = Feedback.evaluative.filter(recipient=person)
    return Erasure(
        delete=[
            developmental,
            FeedbackRequest.objects.filter(requester=person, stream=Stream.DEVELOPMENTAL),
            # Someone else's developmental item they were shown: the share goes with them.
            FeedbackShare.objects.filter(person=person),
            Feedback.themes.through.objects.filter(feedback__in=evaluative_received),
        ],
        anonymise=[
            (
                evaluative_received.filter(~Q(reflection="") | Q(goal__isnull=False)),
                {"reflection": "", "goal": None},
            ),
        ],
        keep=[
            Feedback.evaluative.filter(author=person).exclude(recipient=person),
            evaluative_received.filter(reflection="", goal__isnull=True),
            FeedbackRequest.objects.filter(requester=person, stream=Stream.EVALUATIVE),
            RequestedResponder.objects.filter(responder=person),
            Win.objects.filter(author=person),
        ],
    )
