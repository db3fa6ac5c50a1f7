"""The organisation's cadence health as of a moment, computed once and kept for a few
minutes: a small rollup refreshed by beat, so HR's overview reads finished numbers
instead of aggregating a year of sessions on every request.

Exact as of its moment: the same selectors as ever, run with `now` at the start of
the current `DASHBOARD_REFRESH_MINUTES` slot (5 by default), for a window ending then.
Pages, CSV exports and the API read the same snapshot, so a download always matches
the page it came from; each says "as of" when. Kept in Django's cache (Redis in the
distributed shape, shared by every web process and the worker that warms it); beat
warms the default window in every time zone an HR person or programme admin reads in,
at the start of each slot — its numbers and its page body, rendered once (the body
names no reader). Other windows, one team's page and a page of the managers below a
manager of managers (`dashboards.team.managers_review`) are computed on the first
request of a slot and kept for it.

One process computes a slot's snapshot; while it does — and in the default window's
first minute, which is left to beat — readers get the slot before's, stated "as of" its
own time, instead of each computing it again (`core.slots.this_slot_or_the_last`)."""

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone

from cadence import selectors_rollout
from cadence.selectors_rollout import Overview
from core.slots import (
    COMPUTING_SECONDS,  # noqa: F401 - tests hold a slot's computation with it
    LEFT_TO_BEAT,
    kept_seconds,
    slot_start,
    this_slot_or_the_last,
)
from core.slots import kept_per_slot as keep_per_slot
from people.models import Team, User
from people.roles import GROUP_FOR_ROLE, Role

from . import org, org_feedback, org_skills
from .privacy import MIN_GROUP
from .windows import DEFAULT_WEEKS, window_ending

VERSION = 3  # change when what a snapshot holds changes
PREFIX = f"dashboards:v{VERSION}"
PAGE_BODY = "dashboards/_organisation.html"


@dataclass(frozen=True)
class OrganisationSnapshot:
    as_of: datetime
    health: org.Health
    heatmap: org.Heatmap
    attention: org.Attention
    rollout: Overview
    people: dict

    @property
    def window(self):
        return self.health.window


@dataclass(frozen=True)
class TeamSnapshot:
    as_of: datetime
    health: org.Health

    @property
    def window(self):
        return self.health.window


def _key(*parts) -> str:
    return ":".join([PREFIX, *(str(p) for p in parts)])


def _left_to_beat(weeks: int, as_of: datetime, now: datetime | None, shared) -> bool:
    """Whether a reader leaves this slot to beat: the default window, in the slot's
    first minute, and not beat's own warming (which passes `shared`)."""
    return (
        shared is None and weeks == DEFAULT_WEEKS and (now or timezone.now()) - as_of < LEFT_TO_BEAT
    )


# The organisation's snapshot is kept as its parts, written together: an API call or
# a download reads the part it shows, not the whole (at 10,000 people the heatmap and
# the install plans are about 1 MB each; bench/routes.py measures the reads).
PARTS = ("health", "heatmap", "attention", "rollout", "people")


@dataclass(frozen=True)
class ZoneFree:
    """What every time zone's snapshot of one slot and window has in common: a window
    is a span of instants, so its numbers, each team's, the attention list and the
    head counts are the same everywhere — only calendar weeks and today's date
    (the install plans) depend on the zone. Worked out once when beat warms several
    zones (measured by bench/slot_start.py at 10,000 people)."""

    health: org.WindowNumbers
    teams: org.TeamWindows
    attention: org.Attention
    people: dict


def zone_free(*, weeks: int, now: datetime | None = None) -> ZoneFree:
    as_of = slot_start(now)
    window = window_ending(weeks=weeks, now=as_of)
    return ZoneFree(
        health=org.organisation_numbers(window=window, now=as_of),
        teams=org.team_windows(window=window, now=as_of),
        attention=org.attention(window=window, now=as_of),
        people=org.people_count(),
    )


def organisation_parts(
    *names: str,
    weeks: int,
    tz: tzinfo,
    now: datetime | None = None,
    shared: Callable[[], ZoneFree] | None = None,
) -> dict[str, Any]:
    """The parts `names` of the organisation's snapshot, read together, and under
    "as_of" the slot they are of: this slot's, or the slot before's while another
    process computes this one (`core.slots.this_slot_or_the_last`). All of them from the cache
    or, if any is missing, every part computed afresh and kept — so parts read
    together always come from one computation. `shared` gives the slot's `ZoneFree`
    (beat's warming of several zones); without it they are worked out here."""
    as_of = slot_start(now)

    def keys(slot: datetime) -> dict[str, str]:
        return {
            name: _key("organisation", name, weeks, str(tz), slot.isoformat()) for name in PARTS
        }

    def read(slot: datetime) -> dict[str, Any] | None:
        kept = keys(slot)
        found = cache.get_many([kept[name] for name in names])
        if len(found) < len(names):
            return None
        return {"as_of": slot, **{name: found[kept[name]] for name in names}}

    def compute() -> dict[str, Any]:
        window = window_ending(weeks=weeks, now=as_of)
        common = shared() if shared else zone_free(weeks=weeks, now=as_of)
        computed = {
            "health": org.organisation_health(window=window, now=as_of, tz=tz, known=common.health),
            "heatmap": org.heatmap(window=window, now=as_of, tz=tz, known=common.teams),
            "attention": common.attention,
            "rollout": selectors_rollout.organisation_overview(tz=tz, now=as_of),
            "people": common.people,
        }
        kept = keys(as_of)
        cache.set_many(
            {kept[name]: part for name, part in computed.items()}, timeout=kept_seconds()
        )
        return {"as_of": as_of, **{name: computed[name] for name in names}}

    computing = _key("organisation-computing", weeks, str(tz), as_of.isoformat())
    return this_slot_or_the_last(
        as_of,
        read=read,
        compute=compute,
        computing=computing,
        left_to_beat=_left_to_beat(weeks, as_of, now, shared),
    )


def organisation(
    *,
    weeks: int,
    tz: tzinfo,
    now: datetime | None = None,
    shared: Callable[[], ZoneFree] | None = None,
) -> OrganisationSnapshot:
    """The whole snapshot (the page body's; a single table needs only its part)."""
    return OrganisationSnapshot(
        **organisation_parts(*PARTS, weeks=weeks, tz=tz, now=now, shared=shared)
    )


def organisation_context(snapshot: OrganisationSnapshot) -> dict:
    """What the organisation's page body shows, from a snapshot."""
    return {
        "snapshot": snapshot,
        "window": snapshot.window,
        "people": snapshot.people,
        "health": snapshot.health,
        "heatmap": snapshot.heatmap,
        "attention": snapshot.attention,
        "rollout": snapshot.rollout,
        "min_group": MIN_GROUP,
        "quiet_days": org.QUIET_DAYS,
        "drop_points": org.COVERAGE_DROP_POINTS,
        "escalate_after": settings.CADENCE_ESCALATE_AFTER,
        "refresh_minutes": settings.DASHBOARD_REFRESH_MINUTES,
    }


def organisation_page(
    *,
    weeks: int,
    tz: tzinfo,
    now: datetime | None = None,
    shared: Callable[[], ZoneFree] | None = None,
) -> str:
    """The organisation's page body as HTML, rendered once per slot: the same for every
    reader in `tz` (it names no reader and holds no form), and a page of 900 teams
    takes longer to render than to read — so it is the slot before's while another
    process computes or renders this one. Kept under the slot its snapshot is of."""
    as_of = slot_start(now)

    def key(slot: datetime) -> str:
        return _key("organisation-page", weeks, str(tz), slot.isoformat())

    def compute() -> str:
        snapshot = organisation(weeks=weeks, tz=tz, now=now, shared=shared)
        with timezone.override(tz):
            body = render_to_string(PAGE_BODY, organisation_context(snapshot))
        cache.set(key(snapshot.as_of), body, timeout=kept_seconds())
        return body

    computing = _key("organisation-page-computing", weeks, str(tz), as_of.isoformat())
    return this_slot_or_the_last(
        as_of,
        read=lambda slot: cache.get(key(slot)),
        compute=compute,
        computing=computing,
        left_to_beat=_left_to_beat(weeks, as_of, now, shared),
    )


def team(*, team: Team, weeks: int, tz: tzinfo, now: datetime | None = None) -> TeamSnapshot:
    """One team's snapshot: this slot's, or the slot before's while another process
    computes this one."""

    def work(as_of: datetime) -> TeamSnapshot:
        window = window_ending(weeks=weeks, now=as_of)
        return TeamSnapshot(as_of, org.team_health(team=team, window=window, now=as_of, tz=tz))

    return kept_per_slot("team", team.pk, weeks, tz=tz, now=now, work=work)


@dataclass(frozen=True)
class SkillsSnapshot:
    as_of: datetime
    skills: org_skills.OrgSkills


def skills(*, tz: tzinfo, below: User | None = None, now: datetime | None = None) -> SkillsSnapshot:
    """Skills across the organisation (`org_skills`) — or across the people `below` a
    manager — as of this slot, in the reader's time zone (its months are calendar
    months there): too slow per request at 10,000 people (half of it the six months'
    1:1s, for the lift; bench/routes.py), so computed once a slot and kept, like a
    team's page, and the page, its CSVs and the API agree."""
    scope = "organisation" if below is None else f"below-{below.pk}"

    def work(as_of: datetime) -> SkillsSnapshot:
        today = as_of.astimezone(tz).date()
        found = org_skills.organisation_skills(today=today, tz=tz, until=as_of, below=below)
        return SkillsSnapshot(as_of, found)

    return kept_per_slot("skills", scope, tz=tz, now=now, work=work)


@dataclass(frozen=True)
class FeedbackSnapshot:
    as_of: datetime
    feedback: org_feedback.OrgFeedback


def feedback(*, tz: tzinfo, now: datetime | None = None) -> FeedbackSnapshot:
    """Feedback across the organisation (`org_feedback`) as of this slot, in the
    reader's time zone: too slow per request at 10,000 people (bench/routes.py), so kept
    per slot like skills."""

    def work(as_of: datetime) -> FeedbackSnapshot:
        today = as_of.astimezone(tz).date()
        return FeedbackSnapshot(
            as_of, org_feedback.organisation_feedback(today=today, tz=tz, until=as_of)
        )

    return kept_per_slot("feedback", "organisation", tz=tz, now=now, work=work)


def kept_per_slot(kind: str, *scope, tz: tzinfo, now: datetime | None, work):
    """`work(as_of)` for this slot of `kind` and `scope` in `tz` (`core.slots`)."""
    return keep_per_slot(PREFIX, kind, *scope, tz=tz, now=now, work=work)


def readers_time_zones() -> list[str]:
    """The time zones HR people and programme admins read in (one query)."""
    groups = [GROUP_FOR_ROLE[Role.HR], GROUP_FOR_ROLE[Role.PROGRAMME_ADMIN]]
    return sorted(
        set(
            User.objects.filter(is_active=True, groups__name__in=groups).values_list(
                "time_zone", flat=True
            )
        )
    )


def warm(*, now: datetime | None = None) -> list[str]:
    """Compute the default window's snapshot and page of this slot in every readers'
    time zone (beat, at the start of each slot), what the zones share worked out once
    — and only if some zone's page is not kept yet. Returns the zones warmed."""
    as_of = slot_start(now)
    shared = functools.cache(lambda: zone_free(weeks=DEFAULT_WEEKS, now=as_of))
    zones = readers_time_zones()
    for zone in zones:
        organisation_page(weeks=DEFAULT_WEEKS, tz=ZoneInfo(zone), now=as_of, shared=shared)
    return zones


__all__ = [
    "PARTS",
    "OrganisationSnapshot",
    "TeamSnapshot",
    "ZoneFree",
    "organisation",
    "organisation_context",
    "organisation_parts",
    "organisation_page",
    "readers_time_zones",
    "slot_start",
    "team",
    "warm",
    "zone_free",
]
