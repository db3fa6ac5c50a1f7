"""Reads of closed days: the programme admin's list (those not over yet, then the
latest past ones), one for the API, and those coming up that everyone's My cadence
mentions. Anyone may read closures (names and dates, the same for everyone); only
programme admins reach their page and the API."""

from datetime import date, timedelta

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from .models import Closure

PAST_SHOWN = 12
COMING_DAYS = 60


def closures() -> QuerySet[Closure]:
    """Every closure, the latest first (the API's list)."""
    return Closure.objects.order_by("-first_day", "-pk")


def closures_not_over(today: date | None = None) -> list[Closure]:
    today = today or timezone.localdate()
    return list(
        Closure.objects.filter(last_day__gte=today)
        .select_related("created_by")
        .order_by("first_day", "pk")
    )


def closures_past(today: date | None = None) -> list[Closure]:
    """The latest PAST_SHOWN closures already over (the audit log keeps the rest)."""
    today = today or timezone.localdate()
    return list(
        Closure.objects.filter(last_day__lt=today)
        .select_related("created_by")
        .order_by("-first_day", "-pk")[:PAST_SHOWN]
    )


def closures_coming(today: date | None = None) -> list[Closure]:
    """Closures now or within COMING_DAYS, for My cadence and My coaching (one query)."""
    today = today or timezone.localdate()
    return list(
        Closure.objects.filter(
            last_day__gte=today, first_day__lte=today + timedelta(days=COMING_DAYS)
        ).order_by("first_day", "pk")
    )


def access_closure(*, pk: int) -> Closure:
    return get_object_or_404(Closure, pk=pk)
