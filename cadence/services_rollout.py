"""Changes to a team's install plan: starting it, and the lead ticking (or
un-ticking) the items the data cannot tell. Keyword-only, atomic; bad input is a
ValidationError, a change that is not the person's to make `Forbidden` (`rules`)."""

from datetime import date, timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import Forbidden
from people.models import Team, User
from people.services_audit import audit_record

from . import rules
from .models import Rollout, RolloutTick
from .rollout import BY_KEY, MANUAL

# A rollout may be recorded after the fact (the team started last quarter) or planned
# a little ahead; a start years away is a typo.
START_PAST_LIMIT = timedelta(days=365)
START_FUTURE_LIMIT = timedelta(days=90)


@transaction.atomic
def rollout_start(*, team: Team, actor: User, starts_on: date) -> Rollout:
    """Start a team's 30/60/90-day install plan, counted from `starts_on`."""
    if refusal := rules.why_not_start_rollout(actor, team):
        raise Forbidden(refusal)
    today = timezone.localdate()
    if starts_on is None:
        raise ValidationError({"starts_on": "Give the day the rollout starts."})
    if starts_on < today - START_PAST_LIMIT:
        raise ValidationError({"starts_on": "Start it at most a year ago."})
    if starts_on > today + START_FUTURE_LIMIT:
        raise ValidationError({"starts_on": "Start it within the next 90 days."})
    existing = Rollout.objects.filter(team=team).first()
    if existing is not None:
        started = f"{existing.starts_on:%-d %b %Y}"
        raise ValidationError(f"{team}'s rollout already started on {started}.")
    try:
        with transaction.atomic():
            rollout = Rollout.objects.create(team=team, starts_on=starts_on, created_by=actor)
    except IntegrityError:  # started at the same moment by someone else
        raise ValidationError(f"{team}'s rollout has already started.") from None
    audit_record(
        actor=actor, verb="rollout.started", target=rollout, data={"starts_on": str(starts_on)}
    )
    return rollout


def _check_manual(item: str) -> None:
    if item not in MANUAL:
        names = " and ".join(f"“{BY_KEY[key].title}”" for key in MANUAL)
        raise ValidationError(
            {"item": f"Only {names} are ticked by hand; the rest tick themselves from the data."}
        )


def _check_lead(rollout: Rollout, actor: User) -> None:
    if refusal := rules.why_not_tick_rollout(actor, rollout):
        raise Forbidden(refusal)


@transaction.atomic
def rollout_tick(*, rollout: Rollout, actor: User, item: str) -> RolloutTick:
    """Mark a by-hand item done. Ticking it again changes nothing."""
    _check_lead(rollout, actor)
    _check_manual(item)
    tick, _ = RolloutTick.objects.get_or_create(
        rollout=rollout, item=item, defaults={"ticked_by": actor}
    )
    return tick


@transaction.atomic
def rollout_untick(*, rollout: Rollout, actor: User, item: str) -> None:
    """Take a tick back (the recordings were switched off again, say)."""
    _check_lead(rollout, actor)
    _check_manual(item)
    RolloutTick.objects.filter(rollout=rollout, item=item).delete()
