"""Changes to plans and policies. Keyword-only, atomic; refusals are ValidationError.

A plan is never deleted: ending one needs a reason, which the health metrics show.
Editing a plan's rule regenerates only future occurrences nobody has touched."""

from datetime import date, time

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone

from coaching.models import SessionKind
from peers.models import PeerPair
from people.models import Team, TeamMembership, User
from people.roles import Role
from people.selectors import people_below, roles_of
from people.services_audit import audit_record, audit_record_each, audit_record_many

from . import engine, withdrawals
from .models import CadencePlan, CadencePolicy, EndReason, PolicyAssignment, Recurrence
from .placement import place, policy_placement
from .policy_plans import (
    PLAN_EXCLUDE,
    _live_assignment,
    _members,
    _plan_built,
    _plans_missing,
    check_rule,
)

RULE_FIELDS = (
    "recurrence",
    "weekday",
    "interval_weeks",
    "week_of_month",
    "local_time",
    "duration_minutes",
    "time_zone",
)


def may_manage(*, actor: User, plan: CadencePlan) -> bool:
    """The coach adjusts their own plans; anyone above the coach may too, and programme
    admins may adjust any (Programme → Plans; their roles are read only when the
    reporting line does not already decide)."""
    return (
        plan.coach_id == actor.pk
        or people_below(person=actor).filter(pk=plan.coach_id).exists()
        or Role.PROGRAMME_ADMIN in roles_of(actor)
    )


@transaction.atomic
def plan_create(
    *,
    kind: str,
    coach: User,
    local_time: time,
    weekday: int,
    coachee: User | None = None,
    team: Team | None = None,
    recurrence: str = Recurrence.WEEKLY,
    interval_weeks: int = 1,
    week_of_month: int = 1,
    duration_minutes: int | None = None,
    time_zone: str | None = None,
    starts_on: date | None = None,
    ends_on: date | None = None,
    assignment: PolicyAssignment | None = None,
    pair=None,
    actor: User | None = None,
    generate: bool = True,
) -> CadencePlan:
    """A new plan, in the coach's time zone unless told otherwise. A peer pair's plan
    names the pair: its sessions are for the pair's current members."""
    plan = _plan_built(
        kind=kind,
        coach=coach,
        coachee=coachee,
        team=team,
        recurrence=recurrence,
        interval_weeks=interval_weeks,
        week_of_month=week_of_month,
        weekday=weekday,
        local_time=local_time,
        duration_minutes=duration_minutes,
        time_zone=time_zone,
        starts_on=starts_on,
        ends_on=ends_on,
        assignment=assignment,
        pair=pair,
    )
    try:
        with transaction.atomic():
            plan.save()
    except IntegrityError:
        raise ValidationError("There is already a live plan of this kind for them.") from None
    audit_record(actor=actor, verb="plan.created", target=plan, data={"kind": kind})
    if generate:
        transaction.on_commit(lambda: engine.occurrences_generate(plan_ids=[plan.pk]))
    return plan


@transaction.atomic
def plan_update(*, plan: CadencePlan, actor: User, check: bool = True, **changes) -> CadencePlan:
    """Change day, time, rule or length. Future untouched occurrences are replaced;
    held, cancelled, moved or prepared ones stay exactly as they are."""
    if check and not may_manage(actor=actor, plan=plan):
        raise Http404
    plan = CadencePlan.objects.select_for_update().get(pk=plan.pk)
    if not plan.is_live:
        raise ValidationError("This plan has ended.")
    unknown = set(changes) - set(RULE_FIELDS) - {"paused", "ends_on"}
    if unknown:
        raise ValidationError(f"Cannot change: {', '.join(sorted(unknown))}.")
    for name, value in changes.items():
        setattr(plan, name, value)
    check_rule(plan, exclude=PLAN_EXCLUDE)
    rule_changed = bool(set(changes) & set(RULE_FIELDS)) or "ends_on" in changes
    if rule_changed:
        engine.occurrences_discard_untouched(plan=plan, actor_id=actor.pk)
        plan.generated_until = None
    plan.updated_at = timezone.now()
    plan.save()
    audit_record(
        actor=actor,
        verb="plan.changed",
        target=plan,
        data={"fields": sorted(changes), "admin": not check},
    )
    if rule_changed or changes.get("paused") is False:
        transaction.on_commit(lambda: engine.occurrences_generate(plan_ids=[plan.pk]))
    return plan


@transaction.atomic
def plan_end(
    *, plan: CadencePlan, actor: User | None, reason: str, note: str = "", check: bool = True
) -> CadencePlan:
    """End a plan with a reason. Future untouched sessions go; history stays."""
    if check and (actor is None or not may_manage(actor=actor, plan=plan)):
        raise Http404
    ended = plans_end(plans=[plan], actor=actor, reason=reason, note=note)
    return ended[0] if ended else CadencePlan.objects.get(pk=plan.pk)


@transaction.atomic
def plans_end(*, plans, actor: User | None, reason: str, note: str = "") -> list[CadencePlan]:
    """End the live ones among `plans` with one reason, set-based (a team's plans when
    its policy ends, a pair's): locked together, their untouched future sessions gone,
    stamped in one update, audited in one insert — a fixed number of queries however
    many. History stays. Returns the plans it ended."""
    if reason not in EndReason.values:
        raise ValidationError({"reason": "Pick a reason from the list."})
    note = (note or "").strip()
    if reason == EndReason.OTHER and not note:
        raise ValidationError({"note": "Say briefly why, when the reason is “Other”."})
    live = list(
        CadencePlan.objects.select_for_update(of=("self",))
        .filter(pk__in=[getattr(p, "pk", p) for p in plans], ended_at__isnull=True)
        .select_related("coach", "coachee", "team")
        .order_by("pk")
    )
    if not live:
        return []
    engine.occurrences_discard_untouched(
        plans=live, why=withdrawals.PLAN_ENDED, actor_id=getattr(actor, "pk", None)
    )
    stamp = {"ended_at": timezone.now(), "ended_by": actor, "end_reason": reason,
             "end_note": note[:500]}  # fmt: skip
    CadencePlan.objects.filter(pk__in=[p.pk for p in live]).update(**stamp)
    for plan in live:
        for field, value in stamp.items():
            setattr(plan, field, value)
    audit_record_many(actor=actor, verb="plan.ended", targets=live, data={"reason": reason})
    return live


@transaction.atomic
def plan_restart(*, plan: CadencePlan, actor: User) -> CadencePlan:
    """An ended plan again, with its times: a new plan between the same people (or for
    the same team), on the same day, time, rhythm, length and zone, from today; the
    ended one stays as history. Refused while it runs, when someone in it has left,
    for a peer pair's plan (it follows the pair) and when they have a live plan of the
    kind already."""
    if not may_manage(actor=actor, plan=plan):
        raise Http404
    plan = CadencePlan.objects.select_related("coach", "coachee", "team", "assignment").get(
        pk=plan.pk
    )
    if plan.is_live:
        raise ValidationError("This plan is running: there is nothing to restart.")
    if plan.pair_id is not None:
        raise ValidationError("A peer pair's plan follows the pair: the pair restarts it.")
    gone = [p.display_name for p in (plan.coach, plan.coachee) if p is not None and not p.is_active]
    if gone:
        raise ValidationError(f"{' and '.join(gone)} no longer take part (deactivated).")
    assignment = plan.assignment if plan.assignment and plan.assignment.ended_at is None else None
    return plan_create(
        kind=plan.kind,
        coach=plan.coach,
        coachee=plan.coachee,
        team=plan.team,
        assignment=assignment,
        actor=actor,
        **{field: getattr(plan, field) for field in RULE_FIELDS},
    )


# --- Policies ---------------------------------------------------------------------------


def _plans_for_member(assignment: PolicyAssignment, person: User, actor) -> list[CadencePlan]:
    """The person's 1:1 plan with the lead, unless they have it."""
    return _plans_from_policy(assignment, members=[person], actor=actor)


@transaction.atomic
def policy_apply(*, policy: CadencePolicy, team: Team, actor: User | None) -> PolicyAssignment:
    """Make the team's plans from the policy: a 1:1 per current member with the lead,
    one call review and one role-play for the team, a manager review between the lead
    and the lead's manager — each where `placement.policy_placement` lays it (the read
    the preview shows: each 1:1 in a slot of its own, clear of everyone's other plans).
    Plans that already exist are kept, not doubled. Another policy the team keeps ends
    first; the one it keeps already makes only what is missing, and is refused when
    nothing is (`policy_apply_check`). The assignment says how many plans this made
    (`plans_made`), whether the team kept the policy already (`kept_already`: what was
    missing was made) and who could not be placed, and why (`unplaced`)."""
    placement = policy_placement(policy=policy, team=team)
    current = placement.current
    if placement.replacing:
        policy_assignment_end(assignment=current, actor=actor)
        current = None
    assignment = current or PolicyAssignment.objects.create(
        policy=policy, team=team, applied_by=actor
    )
    plans = [placed.plan for placed in placement.placed]
    for plan in plans:
        plan.assignment = assignment
    assignment.kept_already = current is not None
    assignment.plans_made = len(_plans_saved(plans, actor=actor))
    assignment.unplaced = placement.unplaced
    audit_record(actor=actor, verb="policy.applied", target=team, data={"policy_id": policy.pk})
    return assignment


def _plans_for_team(assignment: PolicyAssignment, team: Team, actor) -> list[CadencePlan]:
    """The plans the policy makes for the team and its lead, those that exist kept:
    the ones made."""
    return _plans_from_policy(assignment, members=_members(team), actor=actor, team_plans=True)


def _plans_from_policy(
    assignment: PolicyAssignment, *, members: list[User], actor, team_plans: bool = False
) -> list[CadencePlan]:
    """What the policy makes — each member's 1:1s with the lead and, with `team_plans`,
    the team's sessions and the lead's review with their manager — less the live plans
    that exist, made together: the live ones read in one query, one insert, one audit
    insert, one generation once committed, however large the team (a new lead for a
    team of ten was 449 queries). Each item's rule was checked when it was saved, with
    the same constraints, so the plans' are left to the database, the last word."""
    placed, _ = place(
        _plans_missing(assignment, members=members, team_plans=team_plans),
        team_members=members,
    )
    return _plans_saved([p.plan for p in placed], actor=actor)


def _plans_saved(plans: list[CadencePlan], *, actor) -> list[CadencePlan]:
    """New plans inserted together, audited together, generated once committed."""
    if not plans:
        return []
    try:
        with transaction.atomic():
            CadencePlan.objects.bulk_create(plans)
    except IntegrityError:
        raise ValidationError("There is already a live plan of this kind for them.") from None
    audit_record_each(
        actor=actor, verb="plan.created", events=[(plan, {"kind": plan.kind}) for plan in plans]
    )
    ids = [plan.pk for plan in plans]
    transaction.on_commit(lambda: engine.occurrences_generate(plan_ids=ids))
    return plans


@transaction.atomic
def team_policy_end(*, team: Team, actor: User | None) -> PolicyAssignment:
    """End whatever policy the team keeps now; a team keeping none is refused."""
    assignment = _live_assignment(team)
    if assignment is None:
        raise ValidationError(f"{team} keeps no policy now.")
    policy_assignment_end(assignment=assignment, actor=actor)
    return assignment


@transaction.atomic
def policy_assignment_end(*, assignment: PolicyAssignment, actor: User | None) -> None:
    """The team stops keeping the policy: its plans end (sessions already held stay)."""
    plans_end(plans=assignment.plans.live(), actor=actor, reason=EndReason.POLICY_ENDED)
    assignment.ended_at = timezone.now()
    assignment.save(update_fields=["ended_at"])
    audit_record(
        actor=actor,
        verb="policy.ended",
        target=assignment.team,
        data={"policy_id": assignment.policy_id},
    )


# --- Following the team -----------------------------------------------------------------


@transaction.atomic
def follow_membership(*, membership: TeamMembership) -> None:
    """Someone joined or left a team with a policy: create or end their 1:1 plan. The
    sessions already held stay untouched."""
    assignment = (
        PolicyAssignment.objects.filter(team_id=membership.team_id, ended_at__isnull=True)
        .select_related("team__lead", "policy")
        .first()
    )
    if assignment is None:
        return
    person = membership.person
    if membership.left_at is None and person.is_active:
        _plans_for_member(assignment, person, actor=None)
        return
    plans_end(
        plans=assignment.plans.live().filter(coachee=person, kind=SessionKind.ONE_ON_ONE),
        actor=None,
        reason=EndReason.LEFT_TEAM,
    )


def follow_lead(*, team: Team) -> None:
    """A team with a policy has a new lead (or none): the plans its policy made with
    the lead before end ("New manager") — the members' 1:1s, the team's sessions, the
    old lead's review with their manager — and the new lead's are made as applying the
    policy would. Sessions already held stay."""
    assignment = _live_assignment(team)
    if assignment is None:
        return
    review = Q(kind=SessionKind.MANAGER_REVIEW)
    lead_id = assignment.team.lead_id
    stale = assignment.plans.live().filter(
        (review & ~Q(coachee_id=lead_id)) | (~review & ~Q(coach_id=lead_id))
    )
    plans_end(plans=stale, actor=None, reason=EndReason.NEW_MANAGER)
    if assignment.team.lead_id is not None:
        _plans_for_team(assignment, assignment.team, actor=None)


def follow_manager(*, person: User) -> None:
    """`person` reports to someone else now (or nobody): the manager reviews a team
    policy made between them and their old manager end ("New manager"), and for each
    team they lead that keeps a policy, the review with the new manager is made. A
    review someone planned by hand is theirs to change. A policy makes a review only
    with a team's lead (and `follow_lead` ends it when they stop leading), so someone
    who leads no team — most of a reorganisation — is answered by one small query."""
    teams = list(Team.objects.filter(lead=person).select_related("lead__reports_to"))
    if not teams:
        return
    stale = (
        CadencePlan.objects.live()
        .filter(kind=SessionKind.MANAGER_REVIEW, coachee=person, assignment__isnull=False)
        .exclude(coach_id=person.reports_to_id)
    )
    with transaction.atomic():
        plans_end(plans=stale, actor=None, reason=EndReason.NEW_MANAGER)
        for team in teams:
            assignment = _live_assignment(team)
            if assignment is not None:
                _plans_for_team(assignment, team, actor=None)


# --- Following people who leave and come back ------------------------------------------

# Why someone was deactivated (people.services.DEACTIVATION_REASONS) → why their plans end.
_END_REASON_OF_LEAVING = {"departed": EndReason.DEPARTED, "leave": EndReason.LEAVE}


def _their_plans():
    return CadencePlan.objects.live().filter(pair__isnull=True)


@transaction.atomic
def follow_leaver(*, person: User, reason: str) -> dict:
    """Someone was deactivated: every live plan they coach or are coached in ends —
    sessions with someone gone would only be marked missed, remind and escalate (their
    reps' 1:1s come back with a new lead, `follow_lead`) — and each pair they were in
    is drafted again for who remains. Held sessions stay. {"plans_ended": n} for the
    deactivation's audit event."""
    why = _END_REASON_OF_LEAVING.get(reason, EndReason.DEACTIVATED)
    ended = plans_end(
        plans=_their_plans().filter(Q(coach=person) | Q(coachee=person)), actor=None, reason=why
    )
    pairs = PeerPair.objects.filter(
        pk__in=CadencePlan.objects.live()
        .filter(pair__members__person=person, pair__members__left_at__isnull=True)
        .values("pair_id")
    ).order_by("pk")
    for pair in pairs:
        pair_cadence_restart(pair=pair)
    return {"plans_ended": len(ended) + len(pairs)}


@transaction.atomic
def follow_returner(*, person: User) -> dict:
    """Someone was reactivated: each team they are on that keeps a policy makes their
    1:1 with its lead again, and a team they lead gets the plans its policy makes with
    its lead. A pair carries on with who remained (re-forming it brings them back).
    {"plans_made": n} for the reactivation's audit event."""
    theirs = _their_plans().filter(Q(coach=person) | Q(coachee=person))
    before = theirs.count()
    for membership in TeamMembership.objects.current().filter(person=person).order_by("pk"):
        follow_membership(membership=membership)
    for team in Team.objects.filter(lead=person).order_by("pk"):
        follow_lead(team=team)
    return {"plans_made": theirs.count() - before}


# --- Programme admins, notifications ----------------------------------------------------


@transaction.atomic
def plan_update_as_admin(*, plan: CadencePlan, actor: User, **changes) -> CadencePlan:
    """`plan_update` for the admin site: programme admins adjust any plan, though they
    are not in the coach's reporting line."""
    if not actor.has_perm("cadence.change_cadenceplan"):
        raise Http404
    return plan_update(plan=plan, actor=actor, check=False, **changes)


# --- Peer pairs -------------------------------------------------------------------------------


def _pair_plan_from(pair, members: list[User], actor) -> CadencePlan:
    return plan_create(
        kind=SessionKind.PEER,
        coach=members[0],
        coachee=members[1],
        pair=pair,
        weekday=pair.weekday,
        local_time=pair.local_time,
        time_zone=pair.time_zone,
        interval_weeks=pair.interval_weeks,
        duration_minutes=pair.duration_minutes,
        actor=actor,
    )


def _current_members(pair) -> list[User]:
    return [
        m.person
        for m in pair.members.filter(left_at__isnull=True, person__is_active=True)
        .select_related("person")
        .order_by("pk")
    ]


@transaction.atomic
def pair_cadence_start(*, pair, actor: User | None = None) -> CadencePlan | None:
    """The pair's plan, once every member accepted: its sessions are for the pair's
    current members, at the pair's day, time and frequency."""
    if CadencePlan.objects.live().filter(pair=pair).exists():
        return None
    members = _current_members(pair)
    if len(members) < 2:
        return None
    return _pair_plan_from(pair, members, actor)


@transaction.atomic
def pair_cadence_end(*, pair, actor: User | None = None) -> None:
    """No more sessions: future untouched ones go, held ones stay as history."""
    plans_end(plans=CadencePlan.objects.live().filter(pair=pair), actor=actor,
              reason=EndReason.PAIR_ENDED)  # fmt: skip


@transaction.atomic
def pair_cadence_restart(*, pair, actor: User | None = None) -> CadencePlan | None:
    """Someone left a trio: the sessions ahead are drafted again for who remains."""
    plans_end(
        plans=CadencePlan.objects.live().filter(pair=pair),
        actor=actor,
        reason=EndReason.REPLACED,
        note="A member left the pair.",
    )
    return pair_cadence_start(pair=pair, actor=actor)
