"""What is waiting for one person, in one place on every home: the 1:1 to prepare for,
scores to give, feedback asked of them, pair invitations to answer, sessions to rate and
escalations to act on — one line each, worded as a link to where it is done. Always the
signed-in person's own, in a fixed number of queries (seven at most; the homes that
already read the feedback inbox or the sessions to rate hand them in)."""

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, OuterRef, Subquery
from django.db.models import Window as Over
from django.urls import reverse
from django.utils import dateformat, timezone

from cadence import escalations
from coaching.models import ParticipantRole, SessionParticipant, SessionStatus
from coaching.ratings import sessions_to_rate
from feedback import selectors as feedback
from peers.selectors import invitations_for
from people.models import User
from people.roles import Role
from scorecards import selectors as scorecards

SHOWN = 3  # of each kind; beyond, a line leads to the whole list


@dataclass
class WaitingLine:
    kind: str  # prepare, score, feedback, pair, rate, escalation, more
    text: str  # the link's words: what to do, with whom, by when
    url: str
    extra_text: str = ""  # a second link on the line (an escalation's review)
    extra_url: str = ""


@dataclass
class Waiting:
    lines: list[WaitingLine] = field(default_factory=list)

    def __len__(self) -> int:
        return sum(line.kind != "more" for line in self.lines)


def _day(moment: datetime) -> str:
    return dateformat.format(timezone.localtime(moment), "D j M, H:i")


def _date(moment: datetime) -> str:
    return dateformat.format(timezone.localtime(moment), "j M")


def _next_to_prepare(person: User, now: datetime) -> SessionParticipant | None:
    """My next session as coachee not prepared yet (one query, from my participations
    by time: `participant_by_person_time`)."""
    coach = SessionParticipant.objects.filter(
        session=OuterRef("session_id"), role=ParticipantRole.COACH
    ).values("person__display_name")[:1]
    return (
        SessionParticipant.objects.filter(
            person=person,
            role=ParticipantRole.COACHEE,
            scheduled_start__gte=now,
            session__status=SessionStatus.SCHEDULED,
        )
        .select_related("session__notes")
        .annotate(coach_name=Subquery(coach))
        .order_by("scheduled_start", "session_id")
        .first()
    )


def waiting_for(
    *, person: User, now: datetime | None = None, inbox=None, to_rate=None, roles=None
) -> Waiting:
    """Everything waiting for `person`. `inbox` (their feedback inbox's first rows, each
    with `total`) and `to_rate` (`sessions_to_rate`) are read here unless handed in;
    with their `roles` known, escalations are read only for someone with reports (only
    a coach's manager is told of a run of misses)."""
    now = now or timezone.now()
    lines: list[WaitingLine] = []

    mine = _next_to_prepare(person, now)
    if mine is not None:
        session = mine.session
        notes = getattr(session, "notes", None)
        if notes is None or notes.coachee_prepared_at is None:
            who = f" with {mine.coach_name}" if mine.coach_name else ""
            lines.append(
                WaitingLine(
                    "prepare",
                    f"Prepare for your {session.get_kind_display()}{who} on "
                    f"{_day(session.scheduled_start)}",
                    reverse("coaching:session_prepare", args=[session.pk]),
                )
            )

    rounds = list(scorecards.waiting_on(user=person).order_by("-created_at")[: SHOWN + 1])
    for r in rounds[:SHOWN]:
        whose = "" if r.work.person_id == person.pk else f" ({r.work.person.display_name})"
        lines.append(
            WaitingLine(
                "score",
                f"Score “{r.work.title}”{whose}",
                reverse("scorecards:round_detail", args=[r.pk]),
            )
        )
    if len(rounds) > SHOWN:
        lines.append(
            WaitingLine("more", "More scorecards waiting", reverse("scorecards:scorecard_home"))
        )

    if inbox is None:
        inbox = list(feedback.feedback_inbox(user=person).annotate(total=Over(Count("pk")))[:SHOWN])
    for asked in inbox[:SHOWN]:
        request = asked.request
        lines.append(
            WaitingLine(
                "feedback",
                f"Answer {request.requester.display_name}’s feedback request, by "
                f"{dateformat.format(request.due_on, 'j M')}"
                + (", overdue" if request.due_on < timezone.localdate(now) else ""),
                reverse("feedback:feedback_request_detail", args=[asked.request_id]),
            )
        )
    if inbox and inbox[0].total > SHOWN:
        lines.append(
            WaitingLine(
                "more",
                f"All {inbox[0].total} feedback requests",
                reverse("feedback:feedback_inbox"),
            )
        )

    for pair in invitations_for(user=person)[:SHOWN]:
        lines.append(
            WaitingLine(
                "pair",
                f"Answer {pair.created_by.display_name}’s peer pair invitation",
                reverse("peers:pair_detail", args=[pair.pk]),
            )
        )

    if to_rate is None:
        to_rate = sessions_to_rate(person=person, now=now)
    for s in to_rate[:SHOWN]:
        who = f" with {s.coach_name}" if s.coach_name else ""
        lines.append(
            WaitingLine(
                "rate",
                f"Rate your {s.get_kind_display()}{who} on {_date(s.scheduled_start)}",
                reverse("coaching:session_detail", args=[s.pk]) + "#rating",
            )
        )

    if roles is not None and Role.MANAGER not in roles:
        return Waiting(lines)
    # Unread escalations about coaches who still report to them.
    unread = escalations.escalations_to(person).filter(
        read_at__isnull=True, plan__coach__reports_to=person
    )[:SHOWN]
    for e in escalations.escalated(unread):
        lines.append(
            WaitingLine(
                "escalation",
                e.text,
                e.url,
                extra_text=f"Plan a manager review with {e.coach}",
                extra_url=e.review_url,
            )
        )
    return Waiting(lines)
