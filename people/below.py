"""Who is below someone, worked out once per shape of the reporting lines.

Below an organisation's head of 10,000 people, counting the people below and listing
the managers among them in name order walks 9,600 people (bench/routes.py) — on every
"My team" the head opens, twice. Yet that shape changes only when someone's manager,
activity or name does, which a database trigger marks by giving `ReportingVersion` a
new random value. So the summary is kept in the cache under (that value, person):
a request reads the value (one query) and, unless the reporting lines changed since,
takes the summary from the cache. It stays exact — a change commits with its new
value, so a page that sees the change never reads a summary from before it — and it
holds ids and counts only, nothing private."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace

from django.core.cache import cache

from .models import ReportingVersion, User
from .selectors import has_active_reports, people_below

# Hours: a manager's visits of a morning or an afternoon read it once; after that, or
# once the reporting lines change, it is worked out again (one walk).
KEPT_SECONDS = 6 * 60 * 60


@dataclass(frozen=True)
class Below:
    """The active people below someone (at any depth): how many, and which of them
    have active direct reports of their own — the managers a manager of managers
    reviews — by name, then id."""

    everyone: int
    managers: tuple[int, ...]
    # The reporting lines' version it was worked out under (None: no version yet):
    # what is kept from it per version stays in step with it.
    version: str | None = field(default=None, compare=False)


def below_of(person: User) -> Below:
    """`person`'s summary: one query when the reporting lines are as when it was last
    worked out, two otherwise (the version, one walk)."""
    version = ReportingVersion.objects.filter(pk=1).values_list("value", flat=True).first()
    if version is None:  # a flushed test database, before anyone was added
        return _work_out(person)
    # Kept as plain numbers, not the class, so a release that changes `Below` never
    # reads an old pickle of it.
    key = f"people:below:1:{version}:{person.pk}"
    kept = cache.get(key)
    if kept is not None:
        return Below(*kept, version=version)
    summary = replace(_work_out(person), version=version)
    cache.set(key, (summary.everyone, summary.managers), KEPT_SECONDS)
    return summary


def _work_out(person: User) -> Below:
    rows = (
        people_below(person=person)
        .filter(is_active=True)
        .annotate(manages=has_active_reports())
        .order_by("display_name", "pk")
        .values_list("pk", "manages")
    )
    everyone, managers = 0, []
    for pk, manages in rows:
        everyone += 1
        if manages:
            managers.append(pk)
    return Below(everyone, tuple(managers))


def reporting_changed(*, using: str = "default") -> None:
    """Say the reporting lines changed, for a writer that wrote people with the
    database's triggers off (the scale seed's `COPY` as a superuser)."""
    ReportingVersion.objects.using(using).update_or_create(
        pk=1, defaults={"value": str(uuid.uuid4())}
    )
