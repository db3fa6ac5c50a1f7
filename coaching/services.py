"""Every change to sessions, notes, agenda and commitments.

Keyword-only, atomic; bad input or a state that does not allow the change raises
django's ValidationError (pages show it, the API answers 400), a change the actor may
not make at all raises `Forbidden` with the reason from `rules` (pages show it as
they show any refusal, the API answers 403), a stale edit raises StaleEdit (the API
answers 409), and acting on a session one cannot see raises Http404 before anything
else."""

from collections.abc import Sequence
from datetime import date, datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.http import Http404
from django.utils import timezone

from core.errors import Forbidden
from people.models import Team, TeamMembership, User
from people.selectors import is_in_management_chain, leads_or_above, people_below
from scorecards import services as scorecard_services
from scorecards.models import RecordedCall, ScoringRound
from scorecards.models import Template as ScorecardTemplate

from . import ratings, rules, signals
from .models import (
    DEFAULT_DURATION,
    MAX_ACTIVE_GOALS,
    RATING_COMMENT_LIMIT,
    TEXT_LIMIT,
    AgendaItem,
    CancelReason,
    CoachingSession,
    Commitment,
    CommitmentStatus,
    FocusArea,
    Goal,
    GoalStatus,
    NotesRevision,
    ParticipantRole,
    PrivateNote,
    SessionChange,
    SessionChangeKind,
    SessionKind,
    SessionParticipant,
    SessionRating,
    SessionStatus,
    SharedNotes,
)
from .selectors_notes import carried_goal
from .signals import session_changed

# How far from now a session may be placed when created or moved: logging a session
# after the fact is normal, planning it years ahead is a typo.
PAST_LIMIT = timedelta(days=60)
FUTURE_LIMIT = timedelta(days=400)


class StaleEdit(Exception):  # noqa: N818 - reads better at the call site
    """Someone saved first. Carries what is saved now, so nothing is lost: the
    caller shows both texts."""

    def __init__(self, current: dict, version: int, message: str = "", conflicts=None):
        super().__init__(
            message
            or (
                "Someone else changed the same part of these notes since you opened them."
                if conflicts
                else "These notes changed since you opened them."
            )
        )
        self.current = current
        self.version = version
        # {field: {"saved": their text, "yours": this writer's}}: both texts, kept.
        self.conflicts = conflicts or {}


# --- Creating sessions ---------------------------------------------------------------


def _check_start(start: datetime) -> None:
    if start is None or timezone.is_naive(start):
        raise ValidationError({"scheduled_start": "Give a date and time with a time zone."})
    now = timezone.now()
    if start < now - PAST_LIMIT:
        raise ValidationError({"scheduled_start": "That is more than 60 days ago."})
    if start > now + FUTURE_LIMIT:
        raise ValidationError({"scheduled_start": "That is more than a year ahead."})


def _check_duration(kind: str, minutes: int | None) -> int:
    minutes = minutes or DEFAULT_DURATION[SessionKind(kind)]
    if not 5 <= minutes <= 480:
        raise ValidationError({"duration_minutes": "A session lasts 5 to 480 minutes."})
    return minutes


def _check_below(*, manager: User, people: list[User], what: str) -> None:
    below = set(people_below(person=manager).filter(is_active=True).values_list("pk", flat=True))
    # No names in the message: the ids may be of people the caller cannot see.
    if any(p.pk not in below for p in people):
        raise ValidationError(f"{what} must report to you (directly or further down).")


@transaction.atomic
def session_create(
    *,
    kind: str,
    start: datetime,
    participants: Sequence[tuple[User, str]],
    created_by: User | None,
    duration_minutes: int | None = None,
    team: Team | None = None,
    focus_area: FocusArea | None = None,
    presented_call: RecordedCall | None = None,
    scenario: str = "",
    drills: str = "",
) -> CoachingSession:
    """The one place a session row is made (ad hoc here, from plans in the cadence
    engine). Kind-specific checks live in the `*_create` services below."""
    _check_start(start)
    duration = _check_duration(kind, duration_minutes)
    people = [person for person, _ in participants]
    if len({p.pk for p in people}) != len(people):
        raise ValidationError("Each person can take part only once.")
    if any(not p.is_active for p in people):
        raise ValidationError("Deactivated people cannot take part in sessions.")
    _check_lengths({"scenario": scenario, "drills": drills})
    if kind == SessionKind.ROLE_PLAY and focus_area is None:
        raise ValidationError({"focus_area": "A role-play practises one focus area: pick one."})
    session = CoachingSession.objects.create(
        kind=kind,
        scheduled_start=start,
        original_start=start,
        duration_minutes=duration,
        scheduled_end=start + timedelta(minutes=duration),
        team=team,
        focus_area=focus_area,
        presented_call=presented_call,
        scenario=scenario.strip(),
        drills=drills.strip(),
        created_by=created_by,
    )
    SessionParticipant.objects.bulk_create(
        SessionParticipant(
            session=session, person=person, role=role, speaking_order=order, scheduled_start=start
        )
        for order, (person, role) in enumerate(participants)
    )
    # No goal copied in: until it is held, a 1:1 shows the coachee's current goal
    # (`selectors_notes.notes_shown`), as the engine's sessions do.
    SharedNotes.objects.create(session=session)
    return session


def one_on_one_create(
    *,
    coach: User,
    coachee: User,
    start: datetime,
    duration_minutes: int | None = None,
    focus_area: FocusArea | None = None,
) -> CoachingSession:
    if coach.pk == coachee.pk:
        raise ValidationError({"coachee": "A 1:1 needs two people."})
    _check_below(manager=coach, people=[coachee], what="The coachee")
    return session_create(
        kind=SessionKind.ONE_ON_ONE,
        start=start,
        duration_minutes=duration_minutes,
        focus_area=focus_area,
        participants=[(coach, ParticipantRole.COACH), (coachee, ParticipantRole.COACHEE)],
        created_by=coach,
    )


def next_host(*, team: Team, presenter: User | None = None) -> User | None:
    """Hosting rotates through the team's current members in name order, starting
    after whoever hosted the team's most recent review, skipping the presenter (who
    narrates) and the lead (who speaks last)."""
    members = list(
        User.objects.filter(
            memberships__team=team, memberships__left_at__isnull=True, is_active=True
        )
        .exclude(pk__in=[p.pk for p in (presenter, team.lead) if p is not None])
        .order_by("display_name", "pk")
    )
    if not members:
        return None
    last = (
        SessionParticipant.objects.filter(
            session__team=team,
            session__kind=SessionKind.TEAM_CALL_REVIEW,
            role=ParticipantRole.HOST,
        )
        .order_by("-session__scheduled_start", "-pk")
        .values_list("person_id", flat=True)
        .first()
    )
    ids = [m.pk for m in members]
    if last in ids:
        return members[(ids.index(last) + 1) % len(members)]
    return members[0]


@transaction.atomic
def team_call_review_create(
    *,
    actor: User,
    team: Team,
    start: datetime,
    presenter: User,
    call_url: str,
    call_title: str,
    call_date: date,
    call_timestamps: str = "",
    host: User | None = None,
    focus_area: FocusArea | None = None,
    duration_minutes: int | None = None,
) -> CoachingSession:
    """Peers speak first, the manager last: the presenter narrates, each peer says
    what they would have done differently, then the team lead."""
    lead = team.lead
    if not leads_or_above(user=actor, team=team):
        raise Http404  # someone else's team: not theirs to see, let alone plan
    if lead is None:
        raise ValidationError({"team": f"{team} has no lead to run its call review."})
    members = {
        m.person_id: m.person
        for m in TeamMembership.objects.current()
        .filter(team=team, person__is_active=True)
        .select_related("person")
    }
    members.pop(lead.pk, None)
    if presenter.pk not in members:
        raise ValidationError({"presenter": f"{presenter} is not on {team}."})
    if host is not None and host.pk == presenter.pk:
        raise ValidationError({"host": "The presenter should not also host; pick someone else."})
    host = host or next_host(team=team, presenter=presenter)
    if host is not None and host.pk not in members:
        raise ValidationError({"host": f"{host} is not on {team}."})
    call = RecordedCall(
        person=presenter,
        url=call_url,
        title=call_title.strip(),
        call_date=call_date,
        timestamps=call_timestamps.strip(),
        created_by=actor,
    )
    call.full_clean()
    call.save()
    peers = sorted(
        (m for pk, m in members.items() if pk != presenter.pk),
        key=lambda m: (m.display_name, m.pk),
    )
    participants = [(presenter, ParticipantRole.PRESENTER)]
    participants += [
        (peer, ParticipantRole.HOST if host and peer.pk == host.pk else ParticipantRole.PARTICIPANT)
        for peer in peers
    ]
    participants.append((lead, ParticipantRole.MANAGER))
    return session_create(
        kind=SessionKind.TEAM_CALL_REVIEW,
        start=start,
        duration_minutes=duration_minutes,
        team=team,
        focus_area=focus_area,
        presented_call=call,
        participants=participants,
        created_by=actor,
    )


@transaction.atomic
def call_review_scoring_open(
    *, session: CoachingSession, actor: User, template: ScorecardTemplate
) -> ScoringRound:
    """Everyone in a team call review scores the presented call against one template:
    the presenter as the subject, the team lead last (revealed once the others are
    done), the peers in between. Opened by whoever runs the review."""
    _refuse(rules.why_not_open_review_scoring(actor, session))
    session = _lock(session)
    if session.kind != SessionKind.TEAM_CALL_REVIEW or session.presented_call is None:
        raise ValidationError("Only a team call review with a presented call is scored here.")
    if session.status == SessionStatus.CANCELLED:
        raise ValidationError("This review was cancelled.")
    everyone = list(session.participants.select_related("person"))
    manager = next((p.person for p in everyone if p.role == ParticipantRole.MANAGER), None)
    return scorecard_services.team_review_scoring_open(
        actor=actor,
        work=session.presented_call,
        template=template,
        session_id=session.pk,
        manager=manager,
        participants=[p.person for p in everyone if p.person.is_active],
    )


def role_play_create(
    *,
    coach: User,
    participants: list[User],
    focus_area: FocusArea,
    start: datetime,
    scenario: str,
    drills: str = "",
    team: Team | None = None,
    duration_minutes: int | None = None,
) -> CoachingSession:
    if not participants:
        raise ValidationError({"participants": "Pick at least one person to practise."})
    if not scenario.strip():
        raise ValidationError({"scenario": "Describe the scenario you will play."})
    _check_below(manager=coach, people=participants, what="Everyone practising")
    if team is not None and not leads_or_above(user=coach, team=team):
        raise ValidationError({"team": "Pick a team you or someone below you leads."})
    return session_create(
        kind=SessionKind.ROLE_PLAY,
        start=start,
        duration_minutes=duration_minutes,
        team=team,
        focus_area=focus_area,
        scenario=scenario,
        drills=drills,
        participants=[(coach, ParticipantRole.COACH)]
        + [(p, ParticipantRole.PARTICIPANT) for p in participants],
        created_by=coach,
    )


def manager_review_create(
    *, coach: User, manager: User, start: datetime, duration_minutes: int | None = None
) -> CoachingSession:
    """A manager of managers coaches a manager on their coaching."""
    _check_below(manager=coach, people=[manager], what="The manager you review")
    if not User.objects.filter(reports_to=manager, is_active=True).exists():
        raise ValidationError({"coachee": f"{manager} has nobody reporting to them to coach."})
    return session_create(
        kind=SessionKind.MANAGER_REVIEW,
        start=start,
        duration_minutes=duration_minutes,
        participants=[(coach, ParticipantRole.COACH), (manager, ParticipantRole.COACHEE)],
        created_by=coach,
    )


def peer_session_create(
    *, actor: User, peer: User, start: datetime, duration_minutes: int | None = None
) -> CoachingSession:
    if actor.pk == peer.pk:
        raise ValidationError({"peer": "Peer coaching needs two people."})
    return session_create(
        kind=SessionKind.PEER,
        start=start,
        duration_minutes=duration_minutes,
        participants=[(actor, ParticipantRole.PEER), (peer, ParticipantRole.PEER)],
        created_by=actor,
    )


# --- Running sessions ----------------------------------------------------------------


def _lock(session: CoachingSession) -> CoachingSession:
    """Re-read the session under a row lock, with participants for the rules."""
    return CoachingSession.objects.select_for_update().get(pk=session.pk)


def _refuse(refusal: str | None) -> None:
    """A change the actor may not make at all (a 403 in the API), from `rules`."""
    if refusal:
        raise Forbidden(refusal)


def _require_running(session: CoachingSession, actor: User, verb: str) -> None:
    _refuse(rules.why_not_run(actor, session, verb))


def _require_changeable(session: CoachingSession, actor: User, verb: str) -> None:
    _require_running(session, actor, verb)
    if refusal := rules.why_not_change(actor, session, verb):
        raise ValidationError(refusal)


@transaction.atomic
def session_mark_held(
    *,
    session: CoachingSession,
    actor: User,
    held_at: datetime | None = None,
    notes: dict | None = None,
) -> CoachingSession:
    session = _lock(session)
    _require_running(session, actor, "log")
    _save_notes_first(session, actor, notes)
    now = timezone.now()
    if refusal := rules.why_not_log_held(actor, session, now):
        raise ValidationError(refusal)
    held_at = held_at or now
    if held_at > now + timedelta(minutes=5):
        raise ValidationError("A session cannot be logged as held in the future.")
    session.status = SessionStatus.HELD
    session.held_at, session.held_by = held_at, actor
    session.held_but_empty = is_held_but_empty(session)
    session.save(update_fields=["status", "held_at", "held_by", "held_but_empty"])
    goal = carried_goal(session)
    if goal:
        # A held session keeps the goal it was held under, whatever the goal becomes.
        SharedNotes.objects.filter(session=session, goal="").update(goal=goal)
    return session


def is_held_but_empty(session: CoachingSession) -> bool:
    """Coaching theatre: nothing written and nothing committed, or the notes are a
    copy of the previous session's between the same people."""
    notes = SharedNotes.objects.get(session=session)
    written = {f: notes.content()[f].strip() for f in SharedNotes.SESSION_FIELDS}
    if not any(written.values()):
        return not Commitment.objects.filter(created_in=session).exists()
    previous = _previous_notes(session)
    if previous is None:
        return False
    return all(written[f] == getattr(previous, f).strip() for f in SharedNotes.SESSION_FIELDS)


def _previous_notes(session: CoachingSession) -> SharedNotes | None:
    earlier = SharedNotes.objects.filter(
        session__kind=session.kind,
        session__status=SessionStatus.HELD,
        session__scheduled_start__lt=session.scheduled_start,
    ).exclude(session=session)
    coachee = session.coachee
    if coachee is not None:
        earlier = earlier.filter(
            session__participants__person=coachee,
            session__participants__role=ParticipantRole.COACHEE,
        )
    elif session.team_id:
        earlier = earlier.filter(session__team_id=session.team_id)
    else:
        coach = session.coach
        earlier = earlier.filter(session__participants__person=coach) if coach else earlier.none()
    return earlier.order_by("-session__scheduled_start").first()


@transaction.atomic
def session_cancel(
    *, session: CoachingSession, actor: User, reason: str, note: str = "", notes: dict | None = None
) -> CoachingSession:
    session = _lock(session)
    _require_running(session, actor, "cancel")
    _save_notes_first(session, actor, notes)
    _require_changeable(session, actor, "cancel")
    if reason not in CancelReason.values:
        raise ValidationError({"reason": "Pick a reason from the list."})
    note = note.strip()
    if reason == CancelReason.OTHER and not note:
        raise ValidationError({"note": "Say briefly why, when the reason is “Other”."})
    if len(note) > 500:
        raise ValidationError({"note": "Keep the note under 500 characters."})
    session.status = SessionStatus.CANCELLED
    session.cancelled_at, session.cancelled_by = timezone.now(), actor
    session.cancel_reason, session.cancel_note = reason, note
    session.sequence += 1
    session.save(
        update_fields=[
            "status",
            "cancelled_at",
            "cancelled_by",
            "cancel_reason",
            "cancel_note",
            "sequence",
        ]
    )
    _record_change(
        session,
        actor=actor,
        kind=SessionChangeKind.CANCELLED,
        start=session.scheduled_start,
        minutes=session.duration_minutes,
        at=session.cancelled_at,
        cancel_reason=reason,
        cancel_note=note,
    )
    return session


def _record_change(
    session: CoachingSession, *, actor: User, kind: str, start: datetime, minutes: int, **extra
) -> SessionChange:
    """The change history's row for a move or cancellation (`session.sequence` already
    raised), and the signal the cadence engine tells the other participants by."""
    change = SessionChange.objects.create(
        session=session,
        kind=kind,
        actor=actor,
        to_start=session.scheduled_start,
        to_minutes=session.duration_minutes,
        from_start=start,
        from_minutes=minutes,
        sequence=session.sequence,
        **extra,
    )
    session_changed.send(sender=CoachingSession, change=change)
    return change


@transaction.atomic
def session_reschedule(
    *,
    session: CoachingSession,
    actor: User,
    start: datetime,
    duration_minutes: int | None = None,
    notes: dict | None = None,
) -> CoachingSession:
    """Move a scheduled session. The original slot is kept for the on-time rate."""
    session = _lock(session)
    _require_running(session, actor, "move")
    _save_notes_first(session, actor, notes)
    _require_changeable(session, actor, "move")
    _check_start(start)
    was_start, was_minutes = session.scheduled_start, session.duration_minutes
    duration = _check_duration(session.kind, duration_minutes or session.duration_minutes)
    if (start, duration) == (was_start, was_minutes):
        raise ValidationError({"scheduled_start": "The session is at that time already."})
    signals.session_moving.send(
        sender=CoachingSession,
        session=session,
        start=start,
        end=start + timedelta(minutes=duration),
        actor=actor,
    )
    session.scheduled_start = start
    session.duration_minutes = duration
    session.scheduled_end = start + timedelta(minutes=session.duration_minutes)
    session.sequence += 1
    session.save(update_fields=["scheduled_start", "duration_minutes", "scheduled_end", "sequence"])
    session.participants.update(scheduled_start=start)
    _record_change(
        session, actor=actor, kind=SessionChangeKind.MOVED, start=was_start, minutes=was_minutes
    )
    return session


# --- Notes ---------------------------------------------------------------------------


def _check_lengths(values: dict[str, str], limit: int = TEXT_LIMIT) -> None:
    too_long = {
        k: f"Keep this under {limit:,} characters." for k, v in values.items() if len(v) > limit
    }
    if too_long:
        raise ValidationError(too_long)


def notes_save(
    *, session: CoachingSession, actor: User, base_version: int, changes: dict[str, str]
) -> SharedNotes:
    """Save shared notes typed from `base_version`, merged per field with what others
    saved since: a field only this writer changed is saved, one only others changed
    is kept. A field both changed is not overwritten: StaleEdit carries both texts
    (`conflicts`), after the other fields are saved — so nobody loses a word."""
    notes, conflicts = _notes_merge(
        session=session, actor=actor, base_version=base_version, changes=changes
    )
    if conflicts:
        raise StaleEdit(current=notes.content(), version=notes.version, conflicts=conflicts)
    return notes


def _save_notes_first(session: CoachingSession, actor: User, notes: dict | None) -> None:
    """Held, moved or cancelled with the notes typed so far, in the same transaction:
    a field both people changed refuses the whole action (StaleEdit rolls it back)."""
    if notes is None:
        return
    changes = dict(notes)
    base_version = changes.pop("version", None)
    if not isinstance(base_version, int) or base_version < 0:
        raise ValidationError({"version": "Send the version of the notes you started from."})
    saved, to_write, conflicts = _merge_plan(
        session=session, actor=actor, base_version=base_version, changes=changes
    )
    if conflicts:
        raise StaleEdit(current=saved.content(), version=saved.version, conflicts=conflicts)
    if to_write:
        _notes_write(session, saved, actor, to_write)


def _one_newline(text: str) -> str:
    return text.replace("\r\n", "\n")


def _check_notes_input(session: CoachingSession, actor: User, changes: dict) -> dict[str, str]:
    _refuse(rules.why_not_edit_notes(actor, session))
    unknown = set(changes) - set(SharedNotes.FIELDS)
    if unknown:
        raise ValidationError(f"Unknown note fields: {', '.join(sorted(unknown))}.")
    if any(v is not None and not isinstance(v, str) for v in changes.values()):
        raise ValidationError("Note fields are text.")
    changes = {k: _one_newline(v or "").strip() for k, v in changes.items()}
    _check_lengths(changes)
    if changes.get("reality_evidence_url"):
        probe = SharedNotes(reality_evidence_url=changes["reality_evidence_url"])
        probe.clean_fields(
            exclude=[f.name for f in SharedNotes._meta.fields if f.name != "reality_evidence_url"]
        )
    return changes


def _content_at(notes: SharedNotes, version: int) -> dict[str, str]:
    """The notes as they were at `version` (its revision; before the first save, the
    revision 0 kept then, or nothing written)."""
    if version == notes.version:
        return notes.content()
    revision = NotesRevision.objects.filter(notes=notes, version=version).first()
    if revision is None:
        return dict.fromkeys(SharedNotes.FIELDS, "")
    names = {"notes": "notes_text"}  # a revision's column for the free notes
    return {f: getattr(revision, names.get(f, f)) for f in SharedNotes.FIELDS}


def _keep_revision(notes: SharedNotes, actor: User | None, version: int | None = None) -> None:
    content = notes.content()
    content["notes_text"] = content.pop("notes")
    NotesRevision.objects.create(
        notes=notes,
        version=notes.version if version is None else version,
        saved_by=actor,
        **content,
    )


def _merge_plan(
    *, session: CoachingSession, actor: User, base_version: int, changes: dict[str, str]
) -> tuple[SharedNotes, dict[str, str], dict[str, dict]]:
    """The notes (locked), what this writer adds to them, and the fields both changed."""
    changes = _check_notes_input(session, actor, changes)
    notes = SharedNotes.objects.select_for_update().get(session=session)
    if base_version > notes.version:
        raise ValidationError({"version": "These notes never had that version: reload them."})
    # Browsers send CRLF, the API LF: the same words must compare equal.
    base = {k: _one_newline(v) for k, v in _content_at(notes, base_version).items()}
    saved = {k: _one_newline(v) for k, v in notes.content().items()}
    # With no goal of its own a session not held shows the coachee's current one,
    # live: sent back unchanged it must not pin that goal to this session.
    carries = not (saved["goal"] or base["goal"]) and session.status != SessionStatus.HELD
    if "goal" in changes and carries:
        base["goal"] = saved["goal"] = carried_goal(session)
    to_write, conflicts = {}, {}
    for name, mine in changes.items():
        was, now = base[name], saved[name]
        if mine in (was, now):
            continue  # not changed by this writer, or the same words already saved
        if now == was:
            to_write[name] = mine
        else:
            conflicts[name] = {"saved": now, "yours": mine}
    return notes, to_write, conflicts


@transaction.atomic
def _notes_merge(
    *, session: CoachingSession, actor: User, base_version: int, changes: dict[str, str]
) -> tuple[SharedNotes, dict[str, dict]]:
    notes, to_write, conflicts = _merge_plan(
        session=session, actor=actor, base_version=base_version, changes=changes
    )
    if to_write:
        _notes_write(session, notes, actor, to_write)
    return notes, conflicts


def _notes_write(
    session: CoachingSession, notes: SharedNotes, actor: User, to_write: dict[str, str]
) -> None:
    if notes.version == 0 and any(notes.content().values()):
        _keep_revision(notes, None, version=0)  # the base of anyone who opened it unsaved
    now = timezone.now()
    if (
        rules.role_in(actor, session) == ParticipantRole.COACHEE
        and session.status == SessionStatus.SCHEDULED
    ):
        notes.coachee_prepared_at = now
    for name, text in to_write.items():
        setattr(notes, name, text)
    notes.written = {
        **(notes.written or {}),
        **{name: {"by": actor.pk, "at": now.isoformat()} for name in to_write},
    }
    notes.version += 1
    notes.updated_at, notes.updated_by = now, actor
    notes.save()
    _keep_revision(notes, actor)
    if session.status == SessionStatus.HELD:
        # Writing up after the session can lift (or set) the "held but empty" flag.
        CoachingSession.objects.filter(pk=session.pk).update(
            held_but_empty=is_held_but_empty(session)
        )


@transaction.atomic
def private_note_save(
    *, session: CoachingSession, author: User, text: str, base_version: int
) -> PrivateNote:
    _refuse(rules.why_not_keep_private_note(author, session))
    text = (text or "").strip()
    _check_lengths({"text": text})
    note, _ = PrivateNote.objects.get_or_create(session=session, author=author)
    updated = PrivateNote.objects.filter(pk=note.pk, version=base_version).update(
        text=text, version=F("version") + 1, updated_at=timezone.now()
    )
    note.refresh_from_db()
    if not updated:
        raise StaleEdit(current={"text": note.text}, version=note.version)
    return note


# --- Agenda --------------------------------------------------------------------------


@transaction.atomic
def agenda_item_add(*, session: CoachingSession, actor: User, text: str) -> AgendaItem:
    _refuse(rules.why_not_add_agenda_item(actor, session))
    text = (text or "").strip()
    if not text:
        raise ValidationError({"text": "Write what you want to talk about."})
    if len(text) > 500:
        raise ValidationError({"text": "Keep an agenda item under 500 characters."})
    return AgendaItem.objects.create(session=session, author=actor, text=text)


@transaction.atomic
def agenda_item_set_done(*, item: AgendaItem, actor: User, done: bool) -> AgendaItem:
    _refuse(rules.why_not_tick_agenda_item(actor, item))
    item.done = bool(done)
    item.save(update_fields=["done"])
    return item


@transaction.atomic
def agenda_item_delete(*, item: AgendaItem, actor: User) -> None:
    _refuse(rules.why_not_remove_agenda_item(actor, item))
    item.delete()


# --- Commitments ---------------------------------------------------------------------


def _check_due(due_on: date, person: User) -> None:
    if due_on is None:
        raise ValidationError({"due_on": "Give a due date."})
    today = timezone.localdate(timezone=person.tzinfo)
    if due_on < today:
        raise ValidationError({"due_on": "The due date is in the past."})
    if due_on > today + timedelta(days=366):
        raise ValidationError({"due_on": "Pick a due date within a year."})


def _check_commitment_text(text: str, evidence: str) -> tuple[str, str]:
    text, evidence = (text or "").strip(), (evidence or "").strip()
    errors = {}
    if not text:
        errors["text"] = "Say what will be done."
    if not evidence:
        errors["evidence"] = "Say how you will both know it happened."
    errors.update(
        {
            k: "Keep this under 500 characters."
            for k, v in (("text", text), ("evidence", evidence))
            if len(v) > 500
        }
    )
    if errors:
        raise ValidationError(errors)
    return text, evidence


@transaction.atomic
def commitment_create(
    *,
    session: CoachingSession,
    actor: User,
    text: str,
    evidence: str,
    due_on: date,
    owner: User | None = None,
) -> Commitment:
    """Record the Will step. The owner is the coachee unless said otherwise, and
    must be in the session."""
    _refuse(rules.why_not_make_commitment(actor, session))
    owner = owner or session.coachee or actor
    if not rules.is_participant(owner, session):
        raise ValidationError({"owner": "Whoever owns a commitment must be in the session."})
    text, evidence = _check_commitment_text(text, evidence)
    _check_due(due_on, actor)
    commitment = Commitment.objects.create(
        owner=owner,
        text=text,
        evidence=evidence,
        due_on=due_on,
        created_in=session,
        created_by=actor,
    )
    if session.status == SessionStatus.HELD and session.held_but_empty:
        CoachingSession.objects.filter(pk=session.pk).update(
            held_but_empty=is_held_but_empty(session)
        )
    return commitment


def _check_may_change(commitment: Commitment, actor: User) -> None:
    if not Commitment.objects.visible_to(actor).filter(pk=commitment.pk).exists():
        raise Http404


@transaction.atomic
def commitment_close(
    *,
    commitment: Commitment,
    actor: User,
    status: str,
    reason: str = "",
    session: CoachingSession | None = None,
) -> Commitment:
    """Done, or dropped with a reason. Closing stops the carry-forward."""
    _check_may_change(commitment, actor)
    commitment = Commitment.objects.select_for_update().get(pk=commitment.pk)
    if commitment.status != CommitmentStatus.OPEN:
        raise ValidationError("This commitment is already closed.")
    if session is not None and not rules.is_participant(commitment.owner, session):
        raise ValidationError({"session": "Close it in a session its owner takes part in."})
    if status not in (CommitmentStatus.DONE, CommitmentStatus.DROPPED):
        raise ValidationError({"status": "Close a commitment as done or dropped."})
    reason = (reason or "").strip()
    if status == CommitmentStatus.DROPPED and not reason:
        raise ValidationError({"reason": "Say why it is being dropped."})
    if len(reason) > 500:
        raise ValidationError({"reason": "Keep the reason under 500 characters."})
    Commitment.objects.filter(pk=commitment.pk).update(
        status=status,
        drop_reason=reason if status == CommitmentStatus.DROPPED else "",
        closed_at=timezone.now(),
        closed_in=session,
        version=F("version") + 1,
    )
    commitment.refresh_from_db()
    return commitment


@transaction.atomic
def commitment_reopen(*, commitment: Commitment, actor: User) -> Commitment:
    """Undo Done or Dropped in the minute after (`rules.UNDO_CLOSE`): open again, as
    if never closed, so it is carried forward again."""
    _check_may_change(commitment, actor)
    commitment = Commitment.objects.select_for_update().get(pk=commitment.pk)
    refusal = rules.why_not_reopen(commitment, timezone.now())
    if refusal:
        raise ValidationError(refusal)
    Commitment.objects.filter(pk=commitment.pk).update(
        status=CommitmentStatus.OPEN,
        drop_reason="",
        closed_at=None,
        closed_in=None,
        version=F("version") + 1,
    )
    commitment.refresh_from_db()
    return commitment


@transaction.atomic
def commitment_update(
    *,
    commitment: Commitment,
    actor: User,
    base_version: int,
    text: str,
    evidence: str,
    due_on: date,
) -> Commitment:
    _check_may_change(commitment, actor)
    if commitment.status != CommitmentStatus.OPEN:
        raise ValidationError("A closed commitment cannot be edited.")
    text, evidence = _check_commitment_text(text, evidence)
    if due_on != commitment.due_on:
        _check_due(due_on, actor)
    updated = Commitment.objects.filter(pk=commitment.pk, version=base_version).update(
        text=text, evidence=evidence, due_on=due_on, version=F("version") + 1
    )
    commitment.refresh_from_db()
    if not updated:
        raise StaleEdit(
            current={
                "text": commitment.text,
                "evidence": commitment.evidence,
                "due_on": commitment.due_on.isoformat(),
            },
            version=commitment.version,
            message="This commitment changed since you opened it.",
        )
    return commitment


# --- Development goals -------------------------------------------------------------------


def _may_keep_goals_of(actor: User, owner: User) -> bool:
    """The owner, or someone above them who writes it down in a 1:1."""
    return actor.pk == owner.pk or is_in_management_chain(manager=actor, person=owner)


def _check_goal_fields(
    *, owner: User, title: str, success: str, focus_area, kept_focus_area=None
) -> dict:
    title, success = (title or "").strip(), (success or "").strip()
    errors = {}
    if not title:
        errors["title"] = "Say what you want to get better at."
    elif len(title) > 200:
        errors["title"] = "Keep the goal under 200 characters."
    if len(success) > 500:
        errors["success"] = "Keep this under 500 characters."
    # A focus area that has ended since may be kept, not newly picked.
    if focus_area is not None and focus_area != kept_focus_area:
        today = timezone.localdate(timezone=owner.tzinfo)
        applies = FocusArea.objects.active_on(today).for_person(owner).filter(pk=focus_area.pk)
        if not applies.exists():
            errors["focus_area"] = "Pick a current focus area that applies to this person."
    if errors:
        raise ValidationError(errors)
    return {"title": title, "success": success, "focus_area": focus_area}


def _check_room_for_active_goal(owner: User, exclude: Goal | None = None) -> None:
    active = Goal.objects.active().filter(owner=owner)
    if exclude is not None:
        active = active.exclude(pk=exclude.pk)
    if active.count() >= MAX_ACTIVE_GOALS:
        raise ValidationError(
            f"Work on at most {MAX_ACTIVE_GOALS} goals at a time: mark one achieved or "
            "drop it first. Coaching everything means nothing sticks."
        )


@transaction.atomic
def goal_create(
    *, owner: User, actor: User, title: str, success: str = "", focus_area=None
) -> Goal:
    if not _may_keep_goals_of(actor, owner):
        raise ValidationError({"owner": "Set goals for yourself or for people below you."})
    if not owner.is_active:
        raise ValidationError({"owner": "That person is no longer here."})
    fields = _check_goal_fields(owner=owner, title=title, success=success, focus_area=focus_area)
    # Lock the owner's row: two goals added at once cannot both pass the limit.
    User.objects.select_for_update().filter(pk=owner.pk).first()
    _check_room_for_active_goal(owner)
    return Goal.objects.create(owner=owner, created_by=actor, **fields)


def _lock_goal(goal: Goal, actor: User) -> Goal:
    if not Goal.objects.visible_to(actor).filter(pk=goal.pk).exists():
        raise Http404
    return Goal.objects.select_for_update().select_related("owner").get(pk=goal.pk)


@transaction.atomic
def goal_update(*, goal: Goal, actor: User, title: str, success: str = "", focus_area=None) -> Goal:
    goal = _lock_goal(goal, actor)
    fields = _check_goal_fields(
        owner=goal.owner,
        title=title,
        success=success,
        focus_area=focus_area,
        kept_focus_area=goal.focus_area,
    )
    for name, value in fields.items():
        setattr(goal, name, value)
    goal.save(update_fields=list(fields))
    return goal


@transaction.atomic
def goal_close(*, goal: Goal, actor: User, status: str) -> Goal:
    """Achieved, or dropped (no reason asked: a goal that no longer matters is
    worth letting go of)."""
    goal = _lock_goal(goal, actor)
    if status not in (GoalStatus.ACHIEVED, GoalStatus.DROPPED):
        raise ValidationError({"status": "Close a goal as achieved or dropped."})
    if goal.status != GoalStatus.ACTIVE:
        raise ValidationError("This goal is already closed.")
    goal.status, goal.closed_at = status, timezone.now()
    goal.save(update_fields=["status", "closed_at"])
    return goal


@transaction.atomic
def goal_reopen(*, goal: Goal, actor: User) -> Goal:
    goal = _lock_goal(goal, actor)
    if goal.status == GoalStatus.ACTIVE:
        raise ValidationError("This goal is already active.")
    User.objects.select_for_update().filter(pk=goal.owner_id).first()
    _check_room_for_active_goal(goal.owner)
    goal.status, goal.closed_at = GoalStatus.ACTIVE, None
    goal.save(update_fields=["status", "closed_at"])
    return goal


# --- Session usefulness ------------------------------------------------------------------


def _check_may_rate(session: CoachingSession, rater: User) -> None:
    """Only the coachee of a held 1:1 or manager review, for RATING_DAYS after it was
    held. The coach is never asked: their only view is an aggregate."""
    if refusal := rules.why_not_rate(rater, session):
        raise Forbidden(refusal)
    if session.status != SessionStatus.HELD:
        raise ValidationError("A session can be rated once it has been held.")
    if not ratings.is_open_for_rating(session):
        raise ValidationError(
            f"Ratings are open for {ratings.RATING_DAYS} days after a session; "
            "this one can no longer be rated or changed."
        )


def _check_rating(score, comment: str) -> tuple[int, str]:
    errors = {}
    if isinstance(score, bool) or not isinstance(score, int) or score not in ratings.SCORES:
        errors["score"] = "Rate it from 1 (not useful) to 5 (very useful)."
    comment = (comment or "").strip()
    if len(comment) > RATING_COMMENT_LIMIT:
        errors["comment"] = f"Keep the comment under {RATING_COMMENT_LIMIT:,} characters."
    if errors:
        raise ValidationError(errors)
    return score, comment


@transaction.atomic
def session_rating_save(
    *, session: CoachingSession, rater: User, score: int, comment: str = ""
) -> SessionRating:
    """Rate a held session, or change one's rating while it is open: one row per
    session and rater. The coach, the start and when rating closes are copied from
    the session, so summaries group by coach on one index."""
    session = _lock(session)
    _check_may_rate(session, rater)
    score, comment = _check_rating(score, comment)
    coach = session.coach
    if coach is None:
        raise ValidationError("This session has no coach to rate.")
    rating, _ = SessionRating.objects.update_or_create(
        session=session,
        rater=rater,
        defaults={"score": score, "comment": comment, "updated_at": timezone.now()},
        create_defaults={
            "score": score,
            "comment": comment,
            "coach": coach,
            "session_start": session.scheduled_start,
            "closes_at": ratings.rating_closes_at(session),
        },
    )
    return rating


@transaction.atomic
def session_rating_delete(*, session: CoachingSession, rater: User) -> None:
    """Take one's rating back while the session is still open for rating."""
    session = _lock(session)
    _check_may_rate(session, rater)
    deleted, _ = SessionRating.objects.filter(session=session, rater=rater).delete()
    if not deleted:
        raise ValidationError("You have not rated this session.")
