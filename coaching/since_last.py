"""What happened since the last 1:1, beside a 1:1 for its coach and its coachee: when
the last one was held and what was to be tried (its Will), the coachee's calls
recorded since — one of them is what the conversation is built around — and how much
developmental feedback came in that the reader may read.

The last 1:1 is the last one the two of them held together, so the reader took part
in it (their own session, whoever else may see it). The calls and the feedback go
through the visibility rule of what they show, for the reader: a coach who is not in
the coachee's reporting line sees the calls of rounds they are in; feedback counts
only the developmental items the reader may read and did not write — for a coach,
those the coachee shared with them. Evaluative feedback never appears beside a 1:1.
Three queries.

The feedback app sits to coaching's right (it links items to goals), so coaching may
not import it: it lends its count when it loads (`count_feedback_with`, from
feedback/apps.py), as forms lend their people sources to people/pickers.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from people.models import User
from scorecards.models import RecordedCall
from scorecards.selectors import calls_of

from .models import (
    CoachingSession,
    ParticipantRole,
    SessionKind,
    SessionParticipant,
    SessionStatus,
)

FIRST_SPAN = timedelta(days=14)  # before a first 1:1: the fortnight before it
CALLS_SHOWN = 4
WILL_SHOWN = 280  # characters of the last Will; the session page has the rest


# (viewer, recipient, since, until) → developmental items `recipient` received in
# [since, until) that `viewer` may read and did not write.
FeedbackCount = Callable[..., int]
_feedback_count: FeedbackCount | None = None


def count_feedback_with(count: FeedbackCount) -> None:
    global _feedback_count
    _feedback_count = count


@dataclass(frozen=True)
class SinceLast:
    since: datetime  # the last 1:1's start, or FIRST_SPAN before this one
    previous: CoachingSession | None  # the last 1:1 the two held together, with its notes
    calls: list[RecordedCall]  # newest first, up to CALLS_SHOWN
    more_calls: bool
    feedback: int | None  # None: no feedback app lent its count
    for_coachee: bool

    @property
    def first_days(self) -> int:
        return FIRST_SPAN.days

    @property
    def will(self) -> str:
        text = self.previous.notes.will.strip() if self.previous else ""
        return text if len(text) <= WILL_SHOWN else text[: WILL_SHOWN - 1].rstrip() + "…"


def applies(session: CoachingSession, viewer_role: str | None) -> bool:
    """Beside 1:1s, for their coach and coachee (the managers above read the notes)."""
    return session.kind == SessionKind.ONE_ON_ONE and viewer_role in (
        ParticipantRole.COACH,
        ParticipantRole.COACHEE,
    )


def for_session(*, session: CoachingSession, viewer: User) -> SinceLast:
    """For a 1:1 `viewer` takes part in (`applies`); `session` with its people."""
    coach, coachee = session.coach, session.coachee
    until = session.scheduled_start

    def in_role(person, role):
        return SessionParticipant.objects.filter(
            person=person, role=role, scheduled_start__lt=until
        ).values("session_id")

    previous = (
        CoachingSession.objects.filter(
            pk__in=in_role(coachee, ParticipantRole.COACHEE),
            kind=SessionKind.ONE_ON_ONE,
            status=SessionStatus.HELD,
            scheduled_start__lt=until,
        )
        .filter(pk__in=in_role(coach, ParticipantRole.COACH))
        .select_related("notes")
        .order_by("-scheduled_start", "-pk")
        .first()
    )
    since = previous.scheduled_start if previous else until - FIRST_SPAN
    tz = timezone.get_current_timezone()
    calls = list(
        calls_of(coachee, viewer=viewer)
        .filter(
            call_date__gte=since.astimezone(tz).date(),
            call_date__lte=until.astimezone(tz).date(),
        )
        .select_related("person")
        .order_by("-call_date", "-pk")[: CALLS_SHOWN + 1]
    )
    feedback = (
        _feedback_count(viewer=viewer, recipient=coachee, since=since, until=until)
        if _feedback_count is not None
        else None
    )
    return SinceLast(
        since=since,
        previous=previous,
        calls=calls[:CALLS_SHOWN],
        more_calls=len(calls) > CALLS_SHOWN,
        feedback=feedback,
        for_coachee=viewer.pk == coachee.pk,
    )
