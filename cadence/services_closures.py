"""Closed days — when the whole programme pauses (a winter break, a company holiday) —
made and removed by programme admins, from the Closed days page and the API alike.

Made: the generator plans no session there from then on, so nothing falls due, is
missed or escalated, and a worker removes the untouched sessions already planned on
those days (queued at once, made up for by the hourly generation if the message is
lost): at 10,000 people that is tens of thousands of rows, seconds no request should
wait for (`closures.closure_clear`). Removed: the plans are planned again from now, by
the next generation (queued at once)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from people.models import User
from people.services_audit import audit_record

from . import engine
from .models import CadencePlan, Closure
from .tasks import clear_closed_days, generate_occurrences

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


@transaction.atomic
def closure_remove(*, actor: User, closure: Closure) -> None:
    """Open those days again: every live plan that had planned past the closure's first
    day plans again from now (the days' sessions come back by the generation queued
    here; held, moved and prepared ones were never removed). A removal still under way
    finishes first."""
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
