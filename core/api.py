"""API plumbing shared by every app: the exception handler, strict input serializers,
the common error responses for the schema, and small field types. (A person by id and
the "programme admins write" permission need people: `people.api_common`.)"""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import Forbidden
from .queries import in_order

# The largest id a column holds (bigint). An id filter or list of ids beyond it is
# refused (or unknown) before it reaches the database, which would fail on it.
MAX_ID = 2**63 - 1
# What a wall-clock time field takes (10:00, 10:00:00, 10:00:00.000).
WALL_TIME_FORMATS = ["%H:%M", "%H:%M:%S", "%H:%M:%S.%f"]


def exception_handler(exc, context):
    """Services raise django's ValidationError for bad input; the API answers it as a
    400 with the same message a page would show. `Forbidden` (visible, but not this
    person's to do) is a 403 with its reason as the detail. A body Django refuses to read (over
    DATA_UPLOAD_MAX_MEMORY_SIZE, or too many form fields) is a 400 saying so, rather
    than an error Django logs with its traceback."""
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = exceptions.ValidationError(detail=detail)
    elif isinstance(exc, Forbidden):
        exc = PermissionDenied(exc.reason)
    elif isinstance(exc, RequestDataTooBig):
        exc = exceptions.ParseError(
            "The request body is too large: at most "
            f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes."
        )
    elif isinstance(exc, TooManyFieldsSent):
        exc = exceptions.ParseError(
            f"Too many fields: at most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:,}."
        )
    return drf_exception_handler(exc, context)


def validated(serializer_class, request, **context) -> dict:
    serializer = serializer_class(data=request.data, context={"request": request, **context})
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def query_params(serializer_class, request) -> dict:
    """Validated query parameters, leaving out the ones not given."""
    serializer = serializer_class(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return {k: v for k, v in serializer.validated_data.items() if v not in (None, "")}


def page_by_ids(view, listed, rows) -> list:
    """`view`'s page of `listed` (a filtered, ordered queryset): its ids cut first,
    then those rows read by id from `rows` (the same model with its joins and
    prefetches), in page order. The planner, joining before it sorts, would join every
    visible row for a page of 50: 200,000 scorecards for the head of 10,000 people
    (measured by bench/routes.py)."""
    return in_order(rows, view.paginate_queryset(listed.values_list("pk", flat=True)))


def client_ip(request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def refuse_unknown_fields(serializer: serializers.Serializer) -> None:
    """A misspelt field, or one that belongs to another kind of object, is a 400
    rather than silently ignored."""
    unknown = sorted(set(getattr(serializer, "initial_data", {})) - set(serializer.fields))
    if unknown:
        raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})


# Input serializers refuse keys they do not know. (A comment, not a docstring:
# drf-spectacular would show a docstring as every subclass's description.)
class StrictSerializer(serializers.Serializer):
    def validate(self, attrs):
        attrs = super().validate(attrs)
        refuse_unknown_fields(self)
        return attrs


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


# The exception handler answers a service refusal without a field as a list of
# messages, and field errors as an object of field → messages.
VALIDATION_ERROR = OpenApiResponse(
    response={
        "oneOf": [
            {"type": "object", "additionalProperties": {}},
            {"type": "array", "items": {"type": "string"}},
        ]
    },
    description="Bad input or a refused change: an object of field → messages, or a "
    "list of messages. Nothing was saved.",
)
NOT_FOUND = OpenApiResponse(DetailSerializer, description="No such object visible to you.")
ADMINS_ONLY = OpenApiResponse(DetailSerializer, description="Only programme admins may write.")


def inline_enum(values, *, nullable: bool = False) -> dict:
    """An enum schema kept inline. drf-spectacular names every enum component after
    its field and warns when one set of choices gets two names (`role` on a
    participant, `viewer_role` on a session); inside allOf the enum is left alone."""
    schema: dict[str, object] = {"allOf": [{"type": "string", "enum": list(values)}]}
    if nullable:
        schema["nullable"] = True
    return schema
