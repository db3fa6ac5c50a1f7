"""Clearing closed days: the worker's half of closing them (`services_closures` makes
and removes closures and queues this). Run by `tasks.clear_closed_days`, and by the
hourly generation for a closure whose message was lost."""

from django.db import transaction

from people.services_audit import audit_record

from . import engine
from .models import CadencePlan, Closure


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
