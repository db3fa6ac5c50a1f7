"""What a cadence policy asks of a team, worked out without saving anything: whether it
may be applied (`policy_apply_check`), the plans it would make that the team lacks
(`plans_wanted`), and a plan built and checked but not saved (`_plan_built`,
`check_rule`). `services` saves what this works out; `placement` lays out where the
wanted plans fall — both read it, neither is read by it, so the two never import
each other."""

from collections.abc import Sequence
from datetime import date, time
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils import timezone

from coaching.models import DEFAULT_DURATION, SessionKind
from people.models import Team, User

from .models import (
    CadencePlan,
    CadencePolicy,
    PolicyAssignment,
    PolicyItem,
    Recurrence,
    Weekday,
)


def check_rule(rule, *, exclude: list[str], constraints: bool = True) -> None:
    """A rule (a plan's or a policy item's) in words a person can act on, field by
    field, before the model's own checks (whose constraint messages name no field;
    `constraints=False` leaves them to the database, as Django checks each with a
    query of its own); the database's constraints stay the last word."""
    errors = {}
    if rule.recurrence not in Recurrence.values:
        errors["recurrence"] = "Pick how often it recurs."
    if rule.weekday not in Weekday.values:
        errors["weekday"] = "Pick a day of the week."
    if not _within(rule.interval_weeks, 1, 8):
        errors["interval_weeks"] = "Every 1 to 8 weeks."
    if not _within(rule.week_of_month, 1, 4):
        errors["week_of_month"] = "The 1st to the 4th."
    if not _within(rule.duration_minutes, 5, 480):
        errors["duration_minutes"] = "Between 5 and 480 minutes."
    if not isinstance(rule.local_time, time):
        errors["local_time"] = "Pick a time of day."
    if errors:
        raise ValidationError(errors)
    try:
        rule.full_clean(exclude=exclude, validate_constraints=constraints)
    except ValidationError as exc:
        raise ValidationError(exc.message_dict) from None


def _within(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


PLAN_EXCLUDE = ["coach", "coachee", "team", "assignment", "ended_by"]


def _plan_built(
    *,
    kind: str,
    coach: User,
    coachee: User | None = None,
    team: Team | None = None,
    duration_minutes: int | None = None,
    time_zone: str | None = None,
    starts_on: date | None = None,
    constraints: bool = True,
    **rule,
) -> CadencePlan:
    """A plan not yet saved, checked (`check_rule`; the model's constraints too unless
    `constraints` is False, for a rule checked already)."""
    if kind in (SessionKind.ONE_ON_ONE, SessionKind.MANAGER_REVIEW, SessionKind.PEER):
        if coachee is None or coachee.pk == coach.pk:
            raise ValidationError({"coachee": "This kind of plan is between two people."})
    elif team is None:
        raise ValidationError({"team": "This kind of plan belongs to a team."})
    plan = CadencePlan(
        kind=kind,
        coach=coach,
        coachee=coachee,
        team=team if kind in (SessionKind.TEAM_CALL_REVIEW, SessionKind.ROLE_PLAY) else None,
        duration_minutes=duration_minutes or DEFAULT_DURATION[SessionKind(kind)],
        time_zone=time_zone or coach.time_zone,
        starts_on=starts_on or timezone.localdate(),
        **rule,
    )
    check_rule(plan, exclude=PLAN_EXCLUDE, constraints=constraints)
    return plan


def lead_left(team: Team) -> bool:
    """The team's lead was deactivated (left the organisation, long leave): a policy
    makes nothing with them (`_plans_missing`), so the team needs a new lead before its
    cadence runs. Reads `team.lead`: select it with the team."""
    return team.lead_id is not None and not team.lead.is_active


def lead_left_reason(team: Team) -> str:
    """`lead_left` in words: Team cadence's note, and the reason the page, the API and
    the admin site refuse to apply a policy."""
    return (
        f"{team.lead}, the lead of {team}, is deactivated (left, or on long leave): {team} "
        f"needs a new lead, or {team.lead} back, before its cadence runs."
    )


def policy_apply_check(*, policy: CadencePolicy, team: Team) -> PolicyAssignment | None:
    """Why `policy` cannot be applied to `team` (a ValidationError by field): the team
    has no lead, or its lead is deactivated (`lead_left`: the policy would make no plan, and
    another one the team keeps would end for nothing), or it keeps that policy already
    with every plan it makes — applying it again would change nothing (its plans follow
    the team's members and lead by themselves). Applied again, it only makes what is
    missing: the kinds the policy gained since, a plan someone ended. Returns the
    team's live assignment, or None."""
    if team.lead_id is None:
        raise ValidationError({"team": f"{team} needs a lead before it can keep a cadence."})
    if lead_left(team):
        raise ValidationError({"team": lead_left_reason(team)})
    current = _live_assignment(team)
    if (
        current is not None
        and current.policy_id == policy.pk
        and not _plans_missing(current, members=_members(team), team_plans=True)
    ):
        raise ValidationError(
            {
                "policy": f"{team} already keeps “{policy}”, with every plan it makes. "
                "Pick another policy to apply instead, or end this one."
            }
        )
    return current


def team_members(team: Team) -> list[User]:
    """The team's current, active members but its lead, by name."""
    return sorted(_members(team), key=lambda p: (p.display_name, p.pk))


def plans_wanted(
    assignment: PolicyAssignment, *, members: list[User], ending: Sequence[int] = ()
) -> list[CadencePlan]:
    """What applying the assignment's policy to its team would make, unsaved, at the
    policy's own days and times: its plans the team lacks, the plans in `ending` (those
    of a policy it replaces) counted as gone."""
    return _plans_missing(assignment, members=members, team_plans=True, ending=ending)


def _members(team: Team) -> list[User]:
    """The team's current, active members but its lead."""
    return list(
        User.objects.filter(
            memberships__team=team, memberships__left_at__isnull=True, is_active=True
        ).exclude(pk=team.lead_id)
    )


def _plans_missing(
    assignment: PolicyAssignment,
    *,
    members: list[User],
    team_plans: bool,
    ending: Sequence[int] = (),
) -> list[CadencePlan]:
    """What `_plans_from_policy` would make, unsaved: one query for the live plans.
    Nothing with someone deactivated: a lead who left runs nothing until the team has
    a new one (`follow_lead`), a manager who left holds no review."""
    lead = assignment.team.lead
    if lead is None or not lead.is_active:
        return []
    wanted: list[tuple[PolicyItem, dict[str, Any]]] = []
    for item in assignment.policy.items.all():
        if item.kind == SessionKind.ONE_ON_ONE:
            wanted += [(item, {"coachee": p}) for p in members if p.pk != lead.pk]
        elif not team_plans:
            continue
        elif item.kind == SessionKind.MANAGER_REVIEW:
            if lead.reports_to is not None and lead.reports_to.is_active:
                wanted.append((item, {"coach": lead.reports_to, "coachee": lead}))
        else:
            wanted.append((item, {"team": assignment.team}))
    taken = _live_plan_keys(
        coachees=[who["coachee"].pk for _, who in wanted if "coachee" in who],
        team=assignment.team,
        ending=ending,
    )
    plans = []
    for item, who in wanted:
        plan = _plan_built(
            kind=item.kind,
            **{"coach": lead, **who},
            assignment=assignment,
            recurrence=item.recurrence,
            weekday=item.weekday,
            interval_weeks=item.interval_weeks,
            week_of_month=item.week_of_month,
            local_time=item.local_time,
            duration_minutes=item.duration_minutes,
            constraints=False,
        )
        key = plan_key(plan.kind, plan.coach_id, plan.coachee_id, plan.team_id)
        if key not in taken:
            taken.add(key)
            plans.append(plan)
    return plans


def plan_key(kind: str, coach_id: int, coachee_id: int | None, team_id: int | None) -> tuple:
    """What the database keeps one live plan of: per pair and kind, or per team and kind."""
    return (kind, coach_id, coachee_id) if coachee_id is not None else (kind, "team", team_id)


def _live_plan_keys(*, coachees: list[int], team: Team, ending: Sequence[int] = ()) -> set[tuple]:
    rows = (
        CadencePlan.objects.live()
        .filter(Q(coachee_id__in=coachees) | Q(team=team, coachee__isnull=True))
        .exclude(pk__in=list(ending))
        .values_list("kind", "coach_id", "coachee_id", "team_id")
    )
    return {plan_key(*row) for row in rows}


def _live_assignment(team: Team) -> PolicyAssignment | None:
    return (
        PolicyAssignment.objects.filter(team=team, ended_at__isnull=True)
        .select_related("policy", "team")
        .first()
    )
