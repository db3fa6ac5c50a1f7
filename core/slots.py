"""Numbers worked out once per refresh slot and kept in the shared cache: the start of
a slot, how long what is computed for it is kept, and the rule that one process
computes a slot while the others read the slot before's. Dashboards (HR's pages, the
managers below) and the install plans' overview keep what they compute this way.

A slot is `DASHBOARD_REFRESH_MINUTES` long (5 by default), in whole minutes from the
hour, UTC. What is kept for it is exact as of its start: readers say "as of" when."""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, tzinfo

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

# How long a computation may hold its slot: past this another reader starts one (the
# first died). Above the longest compute measured at 10,000 people on a busy machine
# (bench/slot_start.py measures it).
COMPUTING_SECONDS = 120
# Beat warms HR's default window as each slot starts; for this long readers leave the
# slot to it rather than start a computation of their own beside beat's.
LEFT_TO_BEAT = timedelta(minutes=1)


def slot_start(now: datetime | None = None) -> datetime:
    """The start of the refresh slot `now` falls in (UTC, whole minutes)."""
    now = (now or timezone.now()).astimezone(UTC)
    minutes = settings.DASHBOARD_REFRESH_MINUTES
    return now.replace(minute=now.minute - now.minute % minutes, second=0, microsecond=0)


def kept_seconds() -> int:
    # Two slots: a request at the very end of one still finds its snapshot, and the
    # next slot's readers find it while that slot's is computed.
    return 2 * settings.DASHBOARD_REFRESH_MINUTES * 60


def this_slot_or_the_last(
    as_of: datetime, *, read, compute, computing: str, left_to_beat: bool = False
):
    """This slot's value, `read(as_of)`, if kept; else `compute()` it here — unless
    another process is computing it already (the key `computing` says so) or it is
    `left_to_beat`: then the slot before's value while the cache still holds it,
    rather than a second computation. Beat's warming of a slot takes a few seconds of
    a worker at 10,000 people; without this every reader of those seconds computed it
    again in their web worker. With nothing earlier kept, the reader computes."""
    found = read(as_of)
    if found is not None:
        return found
    mine = not left_to_beat and cache.add(computing, True, timeout=COMPUTING_SECONDS)
    if not mine:
        earlier = read(as_of - timedelta(minutes=settings.DASHBOARD_REFRESH_MINUTES))
        if earlier is not None:
            return earlier
    try:
        return compute()
    finally:
        if mine:
            cache.delete(computing)


def kept_per_slot(prefix: str, kind: str, *scope, tz: tzinfo, now: datetime | None, work: Callable):
    """`work(as_of)` for this slot of `kind` and `scope` in `tz`, kept under `prefix`
    (the keeper's name and the version of what it keeps): computed by the slot's
    first reader and kept for the rest (or the slot before's while another process
    computes it)."""
    as_of = slot_start(now)

    def key(slot: datetime, what: str = kind) -> str:
        return ":".join([prefix, what, *(str(p) for p in scope), str(tz), slot.isoformat()])

    def compute():
        value = work(as_of)
        cache.set(key(as_of), value, timeout=kept_seconds())
        return value

    return this_slot_or_the_last(
        as_of,
        read=lambda slot: cache.get(key(slot)),
        compute=compute,
        computing=key(as_of, f"{kind}-computing"),
    )
