"""What the dashboard endpoints share: the `weeks` and page parameters and how a wrong
one is refused, the window and the health counts as they are serialized."""

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from core.paging import parse_page

from .paging import MANAGERS_PER_PAGE
from .windows import DEFAULT_WEEKS, WEEK_CHOICES, Window, parse_weeks, window_ending

WEEKS = OpenApiParameter(
    "weeks",
    OpenApiTypes.INT,
    OpenApiParameter.QUERY,
    enum=list(WEEK_CHOICES),
    default=DEFAULT_WEEKS,
    description="The window: the last this many weeks (a trend compares it with the "
    "same length before).",
)
RATE = {"allow_null": True, "min_value": 0, "max_value": 1}


def _page_parameter(name: str) -> OpenApiParameter:
    return OpenApiParameter(
        name,
        OpenApiTypes.INT,
        OpenApiParameter.QUERY,
        default=1,
        description=f"Which page of the managers below, {MANAGERS_PER_PAGE} at a time, by "
        "name (past the last page: the last).",
    )


def page_from(request, name: str) -> int:
    """The asked-for page; a wrong one is a 400 naming the parameter."""
    try:
        return parse_page(request.query_params.get(name))
    except DjangoValidationError as exc:
        raise serializers.ValidationError({name: exc.messages}) from exc


MANAGERS_PAGE, PAGE = _page_parameter("managers_page"), _page_parameter("page")


def weeks_from(request) -> int:
    """The asked-for number of weeks; a wrong `weeks` is a 400 naming the parameter."""
    try:
        return parse_weeks(request.query_params.get("weeks"))
    except DjangoValidationError as exc:
        raise serializers.ValidationError({"weeks": exc.messages}) from exc


def window_from(request) -> Window:
    return window_ending(weeks=weeks_from(request))


class WindowSerializer(serializers.Serializer):
    weeks = serializers.IntegerField()
    since = serializers.DateTimeField()
    until = serializers.DateTimeField()


class HealthCountsSerializer(serializers.Serializer):
    due = serializers.IntegerField()
    held = serializers.IntegerField()
    on_time = serializers.IntegerField()
    held_but_empty = serializers.IntegerField()
    missed = serializers.IntegerField()
    cancelled = serializers.IntegerField()
    unresolved = serializers.IntegerField(help_text="Due, not yet logged held or missed.")
    reps = serializers.IntegerField(help_text="People coverage is counted over.")
    covered = serializers.IntegerField(help_text="…with a held 1:1 in the last 14 days.")
    commitments_made = serializers.IntegerField()
    commitments_done = serializers.IntegerField()
    cancellations = serializers.DictField(
        child=serializers.IntegerField(), help_text="Cancelled sessions by reason."
    )
