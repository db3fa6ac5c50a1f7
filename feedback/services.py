"""Every change to feedback, shares, requests and wins. Keyword-only, atomic;
bad input is a ValidationError with a message a person can act on, and a change
that is not the person's to make is `Forbidden` with the reason from `rules`.

No service ever changes an item's stream: it is chosen once, at creation."""

import re
from dataclasses import dataclass
from datetime import date, timedelta
from datetime import timezone as dt_timezone

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from coaching.models import FocusArea, Goal
from core.errors import Forbidden
from people.models import Team, User
from people.selectors import is_in_management_chain
from people.services_audit import audit_record_targets

from . import rules
from .models import (
    TEXT_LIMIT,
    Direction,
    Feedback,
    FeedbackRequest,
    FeedbackShare,
    InterpretiveTerm,
    RequestedResponder,
    ResponderStatus,
    Stream,
    Theme,
    Win,
    anonymous_stamp,
    new_public_id,
)
from .signals import feedback_requested

# Anonymous upward feedback needs this many direct reports asked, and is shown only
# once this many answered, so the author cannot be inferred.
ANONYMITY_THRESHOLD = getattr(settings, "FEEDBACK_ANONYMITY_THRESHOLD", 3)

# A request closes at the end of its due date in the last time zone on Earth (UTC−12,
# "anywhere on Earth"): no one asked is told it closed while it is still their due
# date wherever they are, and the moment is the same for every request, so a single
# date compared in SQL decides for all of them (`selectors.held_back_for_others`).
LAST_ZONE = dt_timezone(timedelta(hours=-12))


def earliest_open_due_date() -> date:
    """Requests due on this day or later are still open; earlier ones have closed."""
    return timezone.localdate(timezone=LAST_ZONE)


def request_closed(request: FeedbackRequest) -> bool:
    return request.due_on < earliest_open_due_date()


def direction_between(*, author: User, recipient: User) -> Direction:
    """Derived from the reporting line at the time of writing."""
    if author.pk == recipient.pk:
        return Direction.SELF
    if is_in_management_chain(manager=author, person=recipient):
        return Direction.DOWNWARD
    if is_in_management_chain(manager=recipient, person=author):
        return Direction.UPWARD
    return Direction.PEER


@dataclass(frozen=True)
class LiteracyHint:
    phrase: str
    hint: str


def literacy_hints(text: str) -> list[LiteracyHint]:
    """Interpretive or absolute language in an observation — advice, never a block."""
    lowered = (text or "").lower()
    return [
        LiteracyHint(term.phrase, term.hint)
        for term in InterpretiveTerm.objects.all()
        if re.search(rf"\b{re.escape(term.phrase.lower())}\b", lowered)
    ]


def _clean_text(**fields) -> dict[str, str]:
    cleaned = {name: (value or "").strip() for name, value in fields.items()}
    too_long = {
        name: f"Keep this under {TEXT_LIMIT:,} characters."
        for name, value in cleaned.items()
        if len(value) > TEXT_LIMIT
    }
    if too_long:
        raise ValidationError(too_long)
    return cleaned


@transaction.atomic
def feedback_give(
    *,
    author: User,
    recipient: User,
    stream: str,
    observation: str,
    impact: str = "",
    suggestion: str = "",
    anonymous: bool = False,
    request: FeedbackRequest | None = None,
) -> Feedback:
    if stream not in Stream.values:
        raise ValidationError({"stream": "Choose developmental or evaluative."})
    if not recipient.is_active:
        raise ValidationError({"recipient": "That person is no longer here."})
    text = _clean_text(observation=observation, impact=impact, suggestion=suggestion)
    if not text["observation"]:
        raise ValidationError({"observation": "Say what happened: what you saw or heard."})
    direction = direction_between(author=author, recipient=recipient)
    if anonymous and direction != Direction.UPWARD:
        raise ValidationError({"anonymous": "Only feedback to your manager can be anonymous."})
    if anonymous and (request is None or not request.anonymous):
        raise ValidationError(
            {"anonymous": "Anonymous feedback is given in answer to an anonymous request."}
        )
    anonymity = {}
    if anonymous:
        # No number from the shared sequence and no moment of its own: dated the day
        # the request was made, as every answer to it is, so nothing lines up with the
        # order (or the day) people answered in.
        day = anonymous_stamp(request.created_at)
        anonymity = {"public_id": new_public_id(), "created_at": day}
    return Feedback.objects.create(
        stream=stream,
        direction=direction,
        author=author,
        recipient=recipient,
        anonymous=anonymous,
        request=request,
        **anonymity,
        **text,
    )


KEEP = object()  # "leave as it is", where None means "clear it"


def _check_own_goal(goal: Goal | None, person: User) -> None:
    if goal is not None and goal.owner_id != person.pk:
        raise ValidationError({"goal": "Pick one of your own goals."})


@transaction.atomic
def feedback_acknowledge(
    *,
    feedback: Feedback,
    actor: User,
    reflection: str = "",
    themes: list[str] | None = None,
    goal: Goal | None = KEEP,
) -> Feedback:
    """The recipient's "Thank you, I'll think about it", with an optional private
    reflection, themes to spot patterns, and a link to one of their own goals."""
    if refusal := rules.why_not_acknowledge(actor, feedback):
        raise Forbidden(refusal)
    fields = ["reflection", "acknowledged_at"]
    if goal is not KEEP:
        _check_own_goal(goal, actor)
        feedback.goal = goal
        fields.append("goal")
    feedback.reflection = _clean_text(reflection=reflection)["reflection"]
    feedback.acknowledged_at = feedback.acknowledged_at or timezone.now()
    feedback.save(update_fields=fields)
    if themes is not None:
        names = {t.strip()[:60] for t in themes if t.strip()}
        feedback.themes.set([Theme.objects.get_or_create(name=n)[0] for n in sorted(names)])
    return feedback


SHARE_SOMEONE_ELSE = "Pick someone else to share it with."
NOT_WITH_THOSE_ASKED = (
    "An anonymous answer is not shown to anyone who was asked for it: pick someone else."
)


def share_refusal(*, feedback: Feedback, person: User) -> str | None:
    """Why `feedback` may not be shown to `person`, or None. On an anonymous answer
    everyone asked for it is refused alike, in the same words and with the same
    query — its author among them — so no answer singles the author out."""
    if person.pk == feedback.recipient_id or not person.is_active:
        return SHARE_SOMEONE_ELSE
    if feedback.anonymous:
        asked = RequestedResponder.objects.filter(request_id=feedback.request_id, responder=person)
        return NOT_WITH_THOSE_ASKED if asked.exists() else None
    return SHARE_SOMEONE_ELSE if person.pk == feedback.author_id else None


@transaction.atomic
def feedback_share(*, feedback: Feedback, actor: User, person: User) -> FeedbackShare:
    """The recipient shows one developmental item to a named person (e.g. their coach)."""
    if refusal := rules.why_not_share(actor, feedback):
        raise Forbidden(refusal)
    if feedback.stream != Stream.DEVELOPMENTAL:
        raise ValidationError("Evaluative feedback is not shared this way.")
    refusal = share_refusal(feedback=feedback, person=person)
    if refusal:
        raise ValidationError({"person": refusal})
    share = FeedbackShare.objects.filter(
        feedback=feedback, person=person, revoked_at__isnull=True
    ).first()
    return share or FeedbackShare.objects.create(feedback=feedback, person=person)


@transaction.atomic
def feedback_share_revoke(*, feedback: Feedback, actor: User, person: User) -> None:
    if refusal := rules.why_not_unshare(actor, feedback):
        raise Forbidden(refusal)
    FeedbackShare.objects.filter(feedback=feedback, person=person, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


READ_VERB = "feedback.evaluative_read"


def evaluative_read_record(*, feedback: Feedback, reader: User, ip: str | None = None) -> None:
    """Every read of evaluative content by someone other than its recipient or
    author is audited (ids only)."""
    if feedback.stream == Stream.EVALUATIVE and reader.pk not in (
        feedback.recipient_id,
        feedback.author_id,
    ):
        audit_record_targets(
            actor=reader, verb=READ_VERB, model=Feedback, targets=[_audit_target(feedback)], ip=ip
        )


def _audit_target(item: Feedback) -> tuple[str, str]:
    """How the audit trail names an item: by `Feedback.ref`, so an anonymous answer's
    number never reaches a reader's data download either."""
    return item.ref, str(item)


# --- Requests ------------------------------------------------------------------------------


@transaction.atomic
def feedback_request_create(
    *,
    requester: User,
    responders: list[User],
    due_on: date,
    question: str = "",
    stream: str = Stream.DEVELOPMENTAL,
    topic: str = "",
    anonymous: bool = False,
    goal: Goal | None = None,
    focus_area: FocusArea | None = None,
) -> FeedbackRequest:
    if stream not in Stream.values:
        raise ValidationError({"stream": "Choose developmental or evaluative."})
    if not responders:
        raise ValidationError({"responders": "Ask at least one person."})
    ids = [r.pk for r in responders]
    if len(set(ids)) != len(ids):
        raise ValidationError({"responders": "Each person can be asked once."})
    if requester.pk in ids:
        raise ValidationError({"responders": "Ask someone other than yourself."})
    if any(not r.is_active for r in responders):
        raise ValidationError({"responders": "Someone you picked is no longer here."})
    today = timezone.localdate(timezone=requester.tzinfo)
    if due_on is None or due_on < today:
        raise ValidationError({"due_on": "The due date is in the past."})
    if due_on > today + timedelta(days=180):
        raise ValidationError({"due_on": "Pick a due date within six months."})
    if anonymous:
        below = [r for r in responders if r.reports_to_id == requester.pk]
        if len(below) != len(responders) or len(below) < ANONYMITY_THRESHOLD:
            raise ValidationError(
                {
                    "anonymous": (
                        f"Anonymous upward feedback needs at least {ANONYMITY_THRESHOLD} of your "
                        "direct reports asked, and only them — otherwise the author could be "
                        "guessed."
                    )
                }
            )
    _check_own_goal(goal, requester)
    if focus_area is not None and not (
        FocusArea.objects.active_on(today).for_person(requester).filter(pk=focus_area.pk).exists()
    ):
        raise ValidationError({"focus_area": "Pick a current focus area that applies to you."})
    text = _clean_text(question=question or "", topic=topic)
    if len(text["question"]) > 500 or len(text["topic"]) > 200:
        raise ValidationError("Keep the question under 500 and the topic under 200 characters.")
    request = FeedbackRequest.objects.create(
        requester=requester,
        question=text["question"] or FeedbackRequest._meta.get_field("question").default,
        stream=stream,
        topic=text["topic"],
        goal=goal,
        focus_area=focus_area,
        anonymous=anonymous,
        due_on=due_on,
    )
    RequestedResponder.objects.bulk_create(
        RequestedResponder(request=request, responder=r) for r in responders
    )
    feedback_requested.send(sender=FeedbackRequest, request=request)
    return request


def _asked(request: FeedbackRequest, responder: User) -> RequestedResponder:
    asked = (
        RequestedResponder.objects.select_for_update()
        .filter(request=request, responder=responder)
        .first()
    )
    if asked is None:
        raise Forbidden(rules.NOT_ASKED)
    if asked.status != ResponderStatus.WAITING:
        raise ValidationError(f"You have already {asked.get_status_display().lower()} this.")
    return asked


def closed_to_answers(request: FeedbackRequest) -> str:
    due = f"{request.due_on.day} {request.due_on:%b %Y}"
    return (
        f"This request closed on {due}. Answers to an anonymous request are not taken "
        "after it closes: they would appear on their own."
    )


@transaction.atomic
def feedback_request_answer(
    *,
    request: FeedbackRequest,
    responder: User,
    observation: str,
    impact: str = "",
    suggestion: str = "",
) -> Feedback:
    """Answer in the request's stream; anonymous requests get anonymous answers, and
    only until they close: their answers are released once, all together, when the
    request is over (`selectors.held_back_for_others`), and one arriving after that
    would appear alone — so whoever the requester knew to be late would be named."""
    asked = _asked(request, responder)
    if request.anonymous and request_closed(request):
        raise ValidationError(closed_to_answers(request))
    feedback = feedback_give(
        author=responder,
        recipient=request.requester,
        stream=request.stream,
        observation=observation,
        impact=impact,
        suggestion=suggestion,
        anonymous=request.anonymous,
        request=request,
    )
    # As the answer itself: an anonymous one keeps the request's day only.
    asked.status = ResponderStatus.ANSWERED
    asked.answered_at = feedback.created_at if request.anonymous else timezone.now()
    asked.save(update_fields=["status", "answered_at"])
    return feedback


@transaction.atomic
def feedback_request_decline(*, request: FeedbackRequest, responder: User) -> None:
    asked = _asked(request, responder)
    asked.status, asked.declined_at = ResponderStatus.DECLINED, timezone.now()
    asked.save(update_fields=["status", "declined_at"])


# --- Wins ------------------------------------------------------------------------------------


@transaction.atomic
def win_share(*, author: User, team: Team, title: str, link: str = "", text: str = "") -> Win:
    from people.models import TeamMembership

    on_team = TeamMembership.objects.current().filter(team=team, person=author).exists()
    if not (on_team or team.lead_id == author.pk):
        raise ValidationError({"team": "Share wins with a team you are on."})
    cleaned = _clean_text(title=title, text=text)
    if not cleaned["title"]:
        raise ValidationError({"title": "Give the win a title."})
    if len(cleaned["title"]) > 200:
        raise ValidationError({"title": "Keep the title under 200 characters."})
    win = Win(
        author=author, team=team, title=cleaned["title"], link=link.strip(), text=cleaned["text"]
    )
    win.full_clean()
    win.save()
    return win


# --- Reads recorded in bulk (the feedback API's list) ------------------------------------


def evaluative_reads_record(*, items, reader: User, ip: str | None = None) -> int:
    """`evaluative_read_record` for a page of a list: one audit event per evaluative
    item shown to someone other than its recipient or author, written in one INSERT
    so a list costs the same number of queries whatever its length. Returns how many
    events were written."""
    read = [
        item
        for item in items
        if item.stream == Stream.EVALUATIVE and reader.pk not in (item.recipient_id, item.author_id)
    ]
    return audit_record_targets(
        actor=reader,
        verb=READ_VERB,
        model=Feedback,
        targets=[_audit_target(item) for item in read],
        data={"via": "list"},
        ip=ip,
    )
