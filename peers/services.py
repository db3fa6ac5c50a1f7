"""Every change to peer pairs: forming one, the agreement each member accepts,
declining, leaving and ending, the pair's private notes, the habits each member
keeps and the partner checks in.

Keyword-only, atomic; nothing is half-written. Acting on a pair one cannot see raises
Http404 first; what the person may not do at all raises `core.errors.Forbidden` with
the reason from `rules` (the API answers 403); what the pair's state or the input does
not allow raises django's ValidationError (400). Pages show either. The cadence
follows through `coaching.signals`, sent inside the transaction: a pair starts meeting
when its last member accepts, and when it ends its untouched future sessions go while
held ones stay."""

from datetime import time

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.http import Http404
from django.utils import timezone

from coaching.models import CoachingSession, FocusArea, SessionStatus
from coaching.programme_content import AGREEMENT
from core.errors import Forbidden
from people.models import User, validate_time_zone
from people.services_audit import audit_record

from . import rules, selectors
from .models import (
    NOTE_LIMIT,
    AgreementTemplate,
    CheckInOutcome,
    Habit,
    HabitCheckIn,
    PairingRationale,
    PairMember,
    PairNote,
    PeerPair,
)
from .services_requests import peer_requests_answered
from .signals import pair_ended, pair_formed, pair_members_changed, pair_started

MIN_MEMBERS, MAX_MEMBERS = 2, 3
MIN_INTERVAL, MAX_INTERVAL = 1, 4
MIN_MINUTES, MAX_MINUTES = 15, 120
DEFAULT_MINUTES = 30
MAX_ACTIVE_HABITS = 3  # small, observable, few: progress, not a to-do list
REASON_LIMIT = 500
HABIT_LIMIT = 300
CHECK_IN_NOTE_LIMIT = 300


def agreement_template_text() -> str:
    """The text a new pair starts from (programme admins edit it in the admin site)."""
    template = AgreementTemplate.objects.order_by("pk").first()
    return template.text if template is not None else AGREEMENT


def _names(people) -> str:
    return ", ".join(p.display_name for p in people)


def _check_members(actor: User, members: list[User]) -> None:
    ids = [m.pk for m in members]
    if len(set(ids)) != len(ids):
        raise ValidationError({"members": "Pick each person once."})
    if not MIN_MEMBERS <= len(members) <= MAX_MEMBERS:
        raise ValidationError(
            {"members": "A pair is two people, or three for a trio: pick two or three."}
        )
    reach = set(selectors.within_reach(user=actor).filter(pk__in=ids).values_list("pk", flat=True))
    outside = [m for m in members if m.pk not in reach]
    if outside:
        raise ValidationError(
            {
                "members": "You can pair people on a team you lead or below you; "
                f"not {_names(outside)}."
            }
        )
    gone = [m for m in members if not m.is_active]
    if gone:
        raise ValidationError({"members": f"{_names(gone)} no longer has an active account."})
    together = (
        PairMember.objects.filter(
            person__in=members, left_at__isnull=True, pair__ended_at__isnull=True
        )
        .order_by()
        .values("pair_id")
        .annotate(n=Count("pk"))
        .filter(n__gte=2)
    )
    if together.exists():
        raise ValidationError(
            {"members": "Two of these people already meet in a pair: pick someone else."}
        )


def _check_cadence(
    *, weekday: int, interval_weeks: int, duration_minutes: int, time_zone: str
) -> None:
    errors = {}
    if weekday not in range(7):
        errors["weekday"] = "Pick a day of the week."
    if not isinstance(interval_weeks, int) or not MIN_INTERVAL <= interval_weeks <= MAX_INTERVAL:
        errors["interval_weeks"] = f"Meet every {MIN_INTERVAL} to {MAX_INTERVAL} weeks."
    if not isinstance(duration_minutes, int) or not MIN_MINUTES <= duration_minutes <= MAX_MINUTES:
        errors["duration_minutes"] = f"Sessions last {MIN_MINUTES} to {MAX_MINUTES} minutes."
    try:
        validate_time_zone(time_zone)
    except ValidationError:
        errors["time_zone"] = "Pick a time zone from the list, e.g. Europe/Berlin."
    if errors:
        raise ValidationError(errors)


def _clean_text(value: str, *, field: str, limit: int, required: bool, what: str) -> str:
    text = (value or "").strip()
    if required and not text:
        raise ValidationError({field: f"Write {what}."})
    if len(text) > limit:
        raise ValidationError({field: f"Keep it to {limit} characters (it has {len(text)})."})
    return text


@transaction.atomic
def pair_create(
    *,
    actor: User,
    members: list[User],
    rationale: str,
    weekday: int,
    local_time: time,
    rationale_note: str = "",
    focus_area: FocusArea | None = None,
    time_zone: str | None = None,
    interval_weeks: int = 2,
    duration_minutes: int = DEFAULT_MINUTES,
    agreement_text: str | None = None,
) -> PeerPair:
    """A programme admin, or a lead for people on a team they lead or below them,
    forms a pair (or a trio). Nobody is committed yet: each member reads the
    agreement and accepts or declines; the pair meets once all accepted."""
    if refusal := rules.why_not_form_pairs(actor):
        raise Forbidden(refusal)
    members = list(members)
    _check_members(actor, members)
    if rationale not in PairingRationale.values:
        raise ValidationError({"rationale": "Say why these people: complementary or similar."})
    rationale_note = _clean_text(
        rationale_note, field="rationale_note", limit=500, required=False, what="why"
    )
    if focus_area is not None and not (
        selectors.current_focus_areas().filter(pk=focus_area.pk).exists()
    ):
        raise ValidationError({"focus_area": "Pick a current focus area, or none."})
    time_zone = time_zone or members[0].time_zone
    _check_cadence(
        weekday=weekday,
        interval_weeks=interval_weeks,
        duration_minutes=duration_minutes,
        time_zone=time_zone,
    )
    if agreement_text is None:
        agreement_text = agreement_template_text()
    agreement_text = _clean_text(
        agreement_text,
        field="agreement_text",
        limit=NOTE_LIMIT,
        required=True,
        what="the agreement the pair accepts",
    )
    pair = PeerPair.objects.create(
        rationale=rationale,
        rationale_note=rationale_note,
        focus_area=focus_area,
        agreement_text=agreement_text,
        weekday=weekday,
        local_time=local_time,
        time_zone=time_zone,
        interval_weeks=interval_weeks,
        duration_minutes=duration_minutes,
        created_by=actor,
    )
    PairMember.objects.bulk_create(PairMember(pair=pair, person=m) for m in members)
    audit_record(actor=actor, verb="pair.created", target=pair, data={"members": len(members)})
    pair_formed.send(sender=PeerPair, pair=pair, actor=actor)
    return pair


def _lock(pair: PeerPair, actor: User) -> PeerPair:
    """The pair, locked, if `actor` may see it (else 404)."""
    if not PeerPair.objects.visible_to(actor).filter(pk=pair.pk).exists():
        raise Http404
    return PeerPair.objects.select_for_update().get(pk=pair.pk)


def _membership(pair: PeerPair, actor: User, doing: str) -> PairMember:
    """`actor`'s current membership, or the refusal naming what they tried."""
    if refusal := rules.why_not_act_as_member(actor, pair, doing):
        raise Forbidden(refusal)
    return PairMember.objects.get(pair=pair, person=actor)


def _require_live(pair: PeerPair) -> None:
    if pair.ended_at is not None:
        raise ValidationError("This pair has ended.")


@transaction.atomic
def pair_agreement_update(*, pair: PeerPair, actor: User, text: str) -> PeerPair:
    """Whoever formed the pair adjusts the agreement — only until someone accepted
    it: nobody's acceptance may be of a text that then changed."""
    pair = _lock(pair, actor)
    _require_live(pair)
    if refusal := rules.why_not_edit_agreement(actor, pair):
        raise Forbidden(refusal)
    if pair.members.filter(accepted_at__isnull=False).exists():
        raise ValidationError("Someone already accepted this agreement, so it stays as it is.")
    pair.agreement_text = _clean_text(
        text,
        field="agreement_text",
        limit=NOTE_LIMIT,
        required=True,
        what="the agreement the pair accepts",
    )
    pair.save(update_fields=["agreement_text"])
    return pair


def _remaining(pair: PeerPair) -> list[PairMember]:
    return list(pair.members.filter(left_at__isnull=True, person__is_active=True).order_by("pk"))


def _start_if_everyone_accepted(pair: PeerPair, actor: User) -> None:
    remaining = _remaining(pair)
    if len(remaining) >= MIN_MEMBERS and all(m.accepted_at for m in remaining):
        pair.started_at = timezone.now()
        pair.save(update_fields=["started_at"])
        peer_requests_answered(people=[m.person_id for m in remaining])
        audit_record(actor=actor, verb="pair.started", target=pair)
        try:
            pair_started.send(sender=PeerPair, pair=pair, actor=actor)
        except ValidationError:
            raise ValidationError(
                "These people already have a peer cadence together; end that one first."
            ) from None


@transaction.atomic
def pair_accept(*, pair: PeerPair, actor: User) -> PeerPair:
    """A member accepts the agreement. When the last one does, the pair starts: the
    cadence engine plans its sessions."""
    pair = _lock(pair, actor)
    _require_live(pair)
    member = _membership(pair, actor, "accept its agreement")
    if member.accepted_at is not None:
        raise ValidationError("You already accepted this agreement.")
    member.accepted_at = timezone.now()
    member.save(update_fields=["accepted_at"])
    if pair.started_at is None:
        _start_if_everyone_accepted(pair, actor)
    return pair


def _step_out(pair: PeerPair, member: PairMember, actor: User, reason: str) -> PeerPair:
    member.left_at = timezone.now()
    member.left_reason = _clean_text(
        reason, field="reason", limit=REASON_LIMIT, required=False, what="a reason"
    )
    member.save(update_fields=["left_at", "left_reason"])
    remaining = _remaining(pair)
    if len(remaining) < MIN_MEMBERS:
        return _end(pair, actor)
    if pair.started_at is None:
        # A trio whose third declined: the other two may all have accepted already.
        _start_if_everyone_accepted(pair, actor)
    else:
        pair_members_changed.send(sender=PeerPair, pair=pair, actor=actor)
    return pair


def _end(pair: PeerPair, actor: User) -> PeerPair:
    pair.ended_at = timezone.now()
    pair.save(update_fields=["ended_at"])
    audit_record(actor=actor, verb="pair.ended", target=pair)
    pair_ended.send(sender=PeerPair, pair=pair, actor=actor)
    return pair


@transaction.atomic
def pair_decline(*, pair: PeerPair, actor: User, reason: str = "") -> PeerPair:
    """A member says no before the pair starts — no reason needed; one given is for
    programme admins only. Fewer than two left: the pair ends."""
    pair = _lock(pair, actor)
    _require_live(pair)
    member = _membership(pair, actor, "decline it")
    if pair.started_at is not None:
        raise ValidationError("This pair has already started: leave it instead.")
    return _step_out(pair, member, actor, reason)


@transaction.atomic
def pair_leave(*, pair: PeerPair, actor: User, reason: str = "") -> PeerPair:
    """A member leaves a pair that started — voluntary, no reason needed; one given is
    for programme admins only. A trio keeps meeting with two; a pair of one ends
    (held sessions stay, untouched future ones go)."""
    pair = _lock(pair, actor)
    _require_live(pair)
    member = _membership(pair, actor, "leave it")
    if pair.started_at is None:
        raise ValidationError("This pair has not started yet: decline it instead.")
    return _step_out(pair, member, actor, reason)


@transaction.atomic
def pair_end(*, pair: PeerPair, actor: User) -> PeerPair:
    """Whoever formed the pair, or a programme admin, closes it. Its history stays."""
    if refusal := rules.why_not_end_pair(actor, pair):
        if not PeerPair.objects.visible_to(actor).filter(pk=pair.pk).exists():
            raise Http404
        raise Forbidden(refusal)
    pair = PeerPair.objects.select_for_update().get(pk=pair.pk)
    _require_live(pair)
    return _end(pair, actor)


# --- Notes, habits, check-ins ------------------------------------------------------------------


@transaction.atomic
def pair_note_add(*, pair: PeerPair, actor: User, text: str) -> PairNote:
    """A note between sessions, for the pair's eyes only."""
    pair = _lock(pair, actor)
    _require_live(pair)
    _membership(pair, actor, "write its notes")
    text = _clean_text(text, field="text", limit=NOTE_LIMIT, required=True, what="the note")
    return PairNote.objects.create(pair=pair, author=actor, text=text)


@transaction.atomic
def habit_add(*, pair: PeerPair, actor: User, text: str) -> Habit:
    """A small observable habit or milestone a member commits to, for themselves."""
    pair = _lock(pair, actor)
    _require_live(pair)
    _membership(pair, actor, "keep habits in it")
    text = _clean_text(text, field="text", limit=HABIT_LIMIT, required=True, what="the habit")
    active = Habit.objects.active().filter(pair=pair, owner=actor).count()
    if active >= MAX_ACTIVE_HABITS:
        raise ValidationError(
            f"Keep at most {MAX_ACTIVE_HABITS} habits at a time: retire one before adding another."
        )
    return Habit.objects.create(pair=pair, owner=actor, text=text)


def _lock_habit(habit: Habit, actor: User) -> Habit:
    if not Habit.objects.visible_to(actor).filter(pk=habit.pk).exists():
        raise Http404
    PeerPair.objects.select_for_update().filter(pk=habit.pair_id).first()
    return Habit.objects.select_for_update().select_related("pair").get(pk=habit.pk)


@transaction.atomic
def habit_retire(*, habit: Habit, actor: User) -> Habit:
    """Its owner lets a habit go (it stuck, or it no longer matters)."""
    habit = _lock_habit(habit, actor)
    if refusal := rules.why_not_retire_habit(actor, habit):
        raise Forbidden(refusal)
    if habit.retired_at is not None:
        raise ValidationError("This habit is already retired.")
    habit.retired_at = timezone.now()
    habit.save(update_fields=["retired_at"])
    return habit


@transaction.atomic
def habit_check_in(
    *,
    habit: Habit,
    actor: User,
    outcome: str,
    note: str = "",
    session: CoachingSession | None = None,
) -> HabitCheckIn:
    """The partner — never the habit's owner — checks a habit in: kept, partly, not
    yet. Optionally for one of the pair's sessions, once per habit and session."""
    habit = _lock_habit(habit, actor)
    pair = habit.pair
    _require_live(pair)
    _membership(pair, actor, "check its habits in")
    if refusal := rules.why_not_check_in_habit(actor, habit):
        raise Forbidden(refusal)
    if habit.retired_at is not None:
        raise ValidationError("This habit is retired.")
    if outcome not in CheckInOutcome.values:
        raise ValidationError({"outcome": "Pick kept, partly or not yet."})
    note = _clean_text(note, field="note", limit=CHECK_IN_NOTE_LIMIT, required=False, what="")
    checked_on = timezone.localdate(timezone=actor.tzinfo)
    if session is not None:
        session = (
            selectors.pair_sessions(pair=pair)
            .filter(pk=session.pk, participants__person=actor)
            .first()
        )
        if session is None:
            raise ValidationError({"session": "Pick one of this pair's sessions you were in."})
        if session.status == SessionStatus.CANCELLED:
            raise ValidationError({"session": "That session was cancelled."})
        if HabitCheckIn.objects.filter(habit=habit, session=session).exists():
            raise ValidationError({"session": "This habit is already checked in for that session."})
        checked_on = min(checked_on, session.scheduled_start.astimezone(actor.tzinfo).date())
    try:
        with transaction.atomic():
            return HabitCheckIn.objects.create(
                habit=habit,
                checked_by=actor,
                session=session,
                outcome=outcome,
                note=note,
                checked_on=checked_on,
            )
    except IntegrityError:
        raise ValidationError(
            {"session": "This habit is already checked in for that session."}
        ) from None
