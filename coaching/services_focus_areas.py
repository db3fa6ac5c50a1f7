"""Focus areas — the one behaviour that matters most right now — configured by
programme admins: from the programme's pages, the API and the admin site alike.
Each change is audited (ids and dates only; a focus area's words are programme
copy, not anyone's private words, but the trail keeps to ids as everywhere)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from people.models import Team, User
from people.services_audit import audit_record
from scorecards.models import Criterion

from .models import TEXT_LIMIT, FocusArea

NAME_LIMIT = cast(int, FocusArea._meta.get_field("name").max_length)
SPAN_DAYS = 5 * 366  # a start this near today, an end this near the start


@transaction.atomic
def focus_area_save(
    *,
    actor: User | None,
    area: FocusArea | None = None,
    name: str,
    behaviours: str,
    starts_on: date,
    ends_on: date | None = None,
    teams: Sequence[Team] = (),
    criteria: Sequence[Criterion] = (),
) -> FocusArea:
    """Create a focus area (`area` None) or change one. No teams: the whole
    organisation. Raises ValidationError, having written nothing, on a bad field."""
    name, behaviours = name.strip(), behaviours.strip()
    errors = {}
    if not name:
        errors["name"] = "Name the focus area."
    elif len(name) > NAME_LIMIT:
        errors["name"] = f"Keep the name under {NAME_LIMIT} characters."
    if not behaviours:
        errors["behaviours"] = "Say what good looks like: one observable behaviour per line."
    elif len(behaviours) > TEXT_LIMIT:
        errors["behaviours"] = f"Keep the behaviours under {TEXT_LIMIT:,} characters."
    today = timezone.localdate()
    if starts_on is None:
        errors["starts_on"] = "Pick the day it starts."
    elif abs((starts_on - today).days) > SPAN_DAYS:
        errors["starts_on"] = "Pick a start within five years of today."
    elif ends_on is not None and ends_on < starts_on:
        errors["ends_on"] = "A focus area ends on or after the day it starts."
    elif ends_on is not None and (ends_on - starts_on).days > SPAN_DAYS:
        errors["ends_on"] = "Pick an end within five years of the start."
    if errors:
        raise ValidationError(errors)
    created = area is None
    area = area or FocusArea()
    area.name, area.behaviours = name, behaviours
    area.starts_on, area.ends_on = starts_on, ends_on
    area.save()
    area.teams.set(teams)
    area.criteria.set(criteria)
    audit_record(
        actor=actor,
        verb="focus_area.created" if created else "focus_area.changed",
        target=area,
        data={
            "starts_on": starts_on.isoformat(),
            "ends_on": ends_on.isoformat() if ends_on else None,
            "teams": sorted(t.pk for t in teams),
            "criteria": sorted(c.pk for c in criteria),
        },
    )
    return area


@transaction.atomic
def focus_area_end(*, actor: User | None, area: FocusArea, on: date | None = None) -> FocusArea:
    """End a focus area today (or `on`): it stays on the sessions, goals and trends
    that used it, and stops being offered. One that has not started yet cannot end
    before it starts: change its dates instead."""
    on = on or timezone.localdate()
    area = FocusArea.objects.select_for_update().get(pk=area.pk)
    if area.starts_on > on:
        raise ValidationError(
            f"“{area.name}” starts on {area.starts_on:%-d %b %Y}: change its dates instead."
        )
    if area.ends_on is not None and area.ends_on <= on:
        raise ValidationError(f"“{area.name}” ended on {area.ends_on:%-d %b %Y} already.")
    area.ends_on = on
    area.save(update_fields=["ends_on"])
    audit_record(
        actor=actor, verb="focus_area.ended", target=area, data={"ends_on": on.isoformat()}
    )
    return area
