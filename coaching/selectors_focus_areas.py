"""Focus areas as the programme admin's page lists them: now, coming and ended, each
with its teams and criteria — three queries however many there are."""

from dataclasses import dataclass
from datetime import date

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404

from scorecards.models import Criterion

from .models import FocusArea


@dataclass(frozen=True)
class FocusAreas:
    now: list[FocusArea]
    coming: list[FocusArea]
    ended: list[FocusArea]


def focus_areas_by_state(*, today: date) -> FocusAreas:
    areas = list(
        FocusArea.objects.prefetch_related(
            "teams", Prefetch("criteria", queryset=Criterion.objects.labelled())
        ).order_by("-starts_on", "name", "pk")
    )
    coming = [a for a in areas if a.starts_on > today]
    ended = [a for a in areas if a.ends_on is not None and a.ends_on < today]
    return FocusAreas(
        now=[a for a in areas if a not in coming and a not in ended],
        coming=sorted(coming, key=lambda a: a.starts_on),
        ended=ended,
    )


def access_focus_area(*, pk: int) -> FocusArea:
    """A focus area by id (programme admins reach every one); 404 when there is none."""
    return get_object_or_404(FocusArea.objects.prefetch_related("teams", "criteria"), pk=pk)
