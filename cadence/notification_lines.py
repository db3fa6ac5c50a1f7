"""The in-app lines of the cadence's notification kinds (`notifications.kinds`: `line`,
`related`, `lines_prefetch`): "Session tomorrow: 1:1 with Rita Rep, Tue 8 Dec, 10:00",
a move, a cancellation, a withdrawal, an escalation, a weekly digest — kinds, names and
times in the reader's zone, never anyone's words. Of a session no longer the reader's
to see (a new manager), nothing about the others and no link."""

from datetime import datetime

from django.db.models import Prefetch, prefetch_related_objects
from django.urls import reverse
from django.utils import timezone

from coaching.models import CoachingSession, SessionKind, SessionParticipant
from coaching.zones import zoned
from notifications.kinds import Line
from notifications.models import Notification, NotificationKind
from people.models import User

from . import escalations

WHEN_FORMAT = "D j M, H:i"

# What the session kinds' lines read along the row, joined to the list's one query.
SESSION_RELATED = (
    "session__team",
    "plan__coach",
    "plan__coachee",
    "plan__team",
    "session_change__actor",
)


def prefetch(rows: list[Notification], viewer: User) -> None:
    """For a page's rows about sessions, at once: their participants and people (one
    query), which of the sessions `viewer` may still see — the page's few checked one
    by one (`visible_for_lists`): gathering every session the head may see, a million,
    to keep fifty was the page's whole cost — and each escalation's run of misses (one
    more, when there is one)."""
    about = [row for row in rows if row.session_id is not None]
    prefetch_related_objects(
        about,
        Prefetch(
            "session__participants", queryset=SessionParticipant.objects.select_related("person")
        ),
    )
    ids = {row.session_id for row in about}
    visible = (
        set(
            CoachingSession.objects.visible_for_lists(viewer)
            .filter(pk__in=ids)
            .values_list("pk", flat=True)
        )
        if ids
        else set()
    )
    runs = escalations.miss_runs(
        [row.session_id for row in about if row.kind == NotificationKind.ESCALATION]
    )
    for row in rows:
        row.session_visible = row.session_id in visible
        row.miss_run = runs.get(row.session_id, 0)


def _visible(row: Notification, viewer: User) -> bool:
    if not hasattr(row, "session_visible"):  # not prefetched with its page
        prefetch([row], viewer)
    return row.session_visible


def _when(
    session: CoachingSession,
    viewer: User,
    *,
    visible: bool = True,
    moment: datetime | None = None,
    fmt: str = WHEN_FORMAT,
) -> str:
    """When the session starts (or `moment`, a time it was moved from or to), for
    `viewer`, naming their zone when someone else in it reads another time then
    (`coaching.zones`); of a session no longer theirs to see, nothing about the
    others, their zones neither."""
    people = [p.person for p in session.participants.all()] if visible else []
    return zoned(moment or session.scheduled_start, fmt, reader=viewer, among=people)


def _upcoming_label(sent: datetime, starts: datetime) -> str:
    """A reminder says when the session is as of the moment it was sent, in the
    reader's time zone: the reminder window (CADENCE_REMINDER_HOURS) also holds
    sessions later the same day, planned at short notice or sent just before."""
    days = (timezone.localtime(starts).date() - timezone.localtime(sent).date()).days
    return {0: "Session today", 1: "Session tomorrow"}.get(days, "Session coming up")


def _with_whom(session: CoachingSession, viewer: User) -> str:
    if session.team_id and session.kind != SessionKind.ONE_ON_ONE:
        return session.team.name
    names = [p.person.display_name for p in session.participants.all() if p.person_id != viewer.pk]
    return ", ".join(names[:3]) + (" and others" if len(names) > 3 else "")


def _session_line(row: Notification, viewer: User, label: str) -> Line:
    session = row.session
    if not _visible(row, viewer):  # no longer theirs to see (e.g. a new manager)
        return Line(
            f"{label}: {session.get_kind_display()} on {_when(session, viewer, visible=False)}"
        )
    about = session.get_kind_display()
    who = _with_whom(session, viewer)
    about += f" with {who}" if who else ""
    return Line(
        f"{label}: {about}, {_when(session, viewer)}",
        reverse("coaching:session_detail", args=[session.pk]),
    )


def session_line(row: Notification, viewer: User) -> Line:
    """A missed session, a calendar invitation."""
    if row.session is None:
        return Line(row.get_kind_display())
    return _session_line(row, viewer, row.get_kind_display())


def upcoming_line(row: Notification, viewer: User) -> Line:
    if row.session is None:
        return Line(row.get_kind_display())
    return _session_line(row, viewer, _upcoming_label(row.created_at, row.session.scheduled_start))


def escalation_line(row: Notification, viewer: User) -> Line:
    if row.session is None:
        return Line(row.get_kind_display())
    if row.plan_id and _visible(row, viewer):
        # The run and the place to act, as the email and the digest say them.
        return Line(
            f"{row.get_kind_display()}: "
            f"{escalations.in_words(row.plan, getattr(row, 'miss_run', 0))}",
            escalations.act_url(row.plan),
        )
    return _session_line(row, viewer, row.get_kind_display())


def change_line(row: Notification, viewer: User) -> Line:
    """ "Session moved by Carla Coach: 1:1 with Rita Rep, Tue 8 Dec, 10:00 → Wed 9 Dec,
    14:00" in the reader's zone; a cancellation names the reason from the list, never
    the note (lines carry no one's words)."""
    if row.session is None:
        return Line(row.get_kind_display())
    if row.session_change_id is None:
        return _session_line(row, viewer, row.get_kind_display())
    change, session = row.session_change, row.session
    shown = _visible(row, viewer)
    if change.actor_id is None:
        by = ""
    elif change.actor_id == viewer.pk:  # told for their calendar's sake (`invitations`)
        by = " by you"
    else:
        by = f" by {change.actor.display_name}"
    about = session.get_kind_display()
    if shown:
        who = _with_whom(session, viewer)
        # A 1:1 moved by the other person reads "by Sofia Alvarez: 1:1", not twice.
        if who and not (change.actor_id and who == change.actor.display_name):
            about += f" with {who}"
    if row.kind == NotificationKind.SESSION_MOVED:
        was, now = timezone.localtime(change.from_start), timezone.localtime(change.to_start)
        to_fmt = "H:i" if was.date() == now.date() else WHEN_FORMAT
        to = _when(session, viewer, visible=shown, moment=now, fmt=to_fmt)
        was_when = _when(session, viewer, visible=shown, moment=was)
        text = f"Session moved{by}: {about}, {was_when} → {to}"
    else:
        cancelled = _when(session, viewer, visible=shown, moment=change.from_start)
        text = f"Session cancelled{by}: {about}, {cancelled} ({change.get_cancel_reason_display()})"
    return Line(text, reverse("coaching:session_detail", args=[session.pk]) if shown else None)


def withdrawn_line(row: Notification, viewer: User) -> Line:
    facts = row.withdrawn
    when = zoned(datetime.fromisoformat(facts["start"]), WHEN_FORMAT, reader=viewer)
    return Line(
        f"{row.get_kind_display()}: {facts['summary']}, {when} ({facts['why']})",
        reverse("coaching:session_list"),
    )


def digest_line(row: Notification, viewer: User) -> Line:
    return Line(
        f"{row.get_kind_display()} for the week {row.period}",
        reverse("cadence:digest_detail", args=[row.period]),
    )
