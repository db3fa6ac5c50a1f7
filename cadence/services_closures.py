"""Closed days — when the whole programme pauses (a winter break, a company holiday) —
made and removed by programme admins, from the Closed days page and the API alike.

Made: the generator plans no session there from then on, so nothing falls due, is
missed or escalated, and a worker removes the untouched sessions already planned on
those days (queued at once, made up for by the hourly generation if the message is
lost): at 10,000 people that is tens of thousands of rows, seconds no request should
wait for. Removed: the plans are planned again from now, by the next generation
(queued at once)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from people.models import User
from people.services import audit_record

from . import engine
from .models import CadencePlan, Closure

NAME_LIMIT = cast(int, Closure._meta.get_field("name").max_length)
LONGEST_DAYS = 31
FURTHEST_DAYS = 731  # two years ahead: further, nothing is planned yet anyway


def _checked(name: str, first_day: date, last_day: date, *, today: date) -> str:
    name = (name or "").strip()
    errors = {}
    if not name:
        errors["name"] = "Name the closure, e.g. “Winter break”."
    elif len(name) > NAME_LIMIT:
        errors["name"] = f"Keep the name under {NAME_LIMIT} characters."
    if last_day < first_day:
        errors["last_day"] = "The last day comes on or after the first."
    elif last_day < today:
        errors["last_day"] = "These days have passed: nothing is planned on them any more."
    elif first_day > today + timedelta(days=FURTHEST_DAYS):
        errors["first_day"] = "Close days within the next two years."
    elif (last_day - first_day).days + 1 > LONGEST_DAYS:
        errors["last_day"] = (
            f"A closure is at most {LONGEST_DAYS} days. For a longer break, pause the plans "
            "(My cadence, or Programme → Plans)."
        )
    if errors:
        raise ValidationError(errors)
    overlapping = Closure.objects.filter(first_day__lte=last_day, last_day__gte=first_day).first()
    if overlapping is not None:
        raise ValidationError(
            {"first_day": f"These days overlap “{overlapping.name}”: remove it first, or pick "
             "other days."}
        )  # fmt: skip
    return name


def closure_create(*, actor: User, name: str, first_day: date, last_day: date) -> Closure:
    """Close the programme from `first_day` to `last_day` (both included) and queue the
    removal of what is planned there. The closure's `removed` is None until a worker is
    done: read once the closure is committed, it already says how many when the worker
    was that quick (an eager one always is)."""
    from .tasks import clear_closed_days

    today = timezone.localdate()
    with transaction.atomic():
        name = _checked(name, first_day, last_day, today=today)
        closure = Closure.objects.create(
            name=name, first_day=first_day, last_day=last_day, created_by=actor
        )
        audit_record(
            actor=actor,
            verb="closure.created",
            target=closure,
            data={"first_day": first_day.isoformat(), "last_day": last_day.isoformat()},
        )
        clear_closed_days.delay_on_commit(closure.pk)
    closure.refresh_from_db(fields=["removed"])
    return closure


def closure_clear(closure_id: int) -> int | None:
    """The worker's half of closing days: remove the untouched sessions planned on them
    and record how many. Returns that count, or None when there was nothing to do: the
    closure was cleared already (a repeated message) or opened again meanwhile."""
    with transaction.atomic():
        # Closure first, then plans: closure_remove takes them in the same order.
        closure = (
            Closure.objects.select_for_update().filter(pk=closure_id, removed__isnull=True).first()
        )
        if closure is None:
            return None
        # Wait for a generation under way (it locks plans in id order too): a batch that
        # read the closures before this one was made commits first, and what it planned
        # on these days is removed below; every later batch plans nothing there.
        list(CadencePlan.objects.live().select_for_update().order_by("pk").values_list("pk"))
        closure.removed = engine.occurrences_discard_closed(closure)
        closure.save(update_fields=["removed"])
        audit_record(
            actor=None,
            verb="closure.cleared",
            target=closure,
            data={"sessions_removed": closure.removed},
        )
    return closure.removed


def closures_clear_pending() -> int:
    """Clear the closures whose worker message was lost; how many. Run by the hourly
    generation, so a lost message delays the removal by an hour at most. (A handful of
    rows at most: the table holds a few closures a year.)"""
    pending = (
        Closure.objects.filter(removed__isnull=True).order_by("pk").values_list("pk", flat=True)
    )
    return sum(1 for pk in list(pending) if closure_clear(pk) is not None)


@transaction.atomic
def closure_remove(*, actor: User, closure: Closure) -> None:
    """Open those days again: every live plan that had planned past the closure's first
    day plans again from now (the days' sessions come back by the generation queued
    here; held, moved and prepared ones were never removed). A removal still under way
    finishes first."""
    from .tasks import generate_occurrences

    # The closure's row first, as closure_clear takes it: waits for a worker clearing it.
    list(Closure.objects.select_for_update().filter(pk=closure.pk).values_list("pk"))
    audit_record(
        actor=actor,
        verb="closure.removed",
        target=closure,
        data={"first_day": closure.first_day.isoformat(), "last_day": closure.last_day.isoformat()},
    )
    since = engine.utc_midnight(closure.first_day - timedelta(days=1))
    CadencePlan.objects.live().filter(generated_until__gt=since).update(generated_until=None)
    closure.delete()
    generate_occurrences.delay_on_commit()
