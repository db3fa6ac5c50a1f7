"""The error answers every API operation can give, declared once for the whole schema
(a drf-spectacular postprocessing hook) rather than on each view.

What each status means here, and when an operation can answer it:

- 400: bad input, or a change a service refused; nothing was saved. Operations that
  take input (a body or query parameters).
- 401: no valid credentials (an unknown, revoked or deactivated person's token), with
  `WWW-Authenticate: Token`. Every operation: none is open to anonymous callers.
- 403: signed in, but this person may not do this (or a session-authenticated write
  without a CSRF token). Every operation.
- 404: no such object visible to you — the same answer for one that does not exist and
  one you may not see — or a page past the end of a list. Operations with parameters.
- 415: a request body in a media type the operation does not read.
- 429: the per-person rate limit (`API_USER_RATE`), with `Retry-After`. Every operation.
- 503: the database cannot be reached right now, with `Retry-After`. Every operation.

A view that declares one of these itself (a 403 with a specific description, a 409 for
a stale versioned update) keeps its own declaration.

`AutoSchema` corrects two things drf-spectacular's own mapping gets wrong for this app,
so that responses match the schema honestly:

- A time of day is a local wall time ("09:30:00", read in a time zone given beside it),
  not RFC 3339's `full-time`, which requires an offset: a pattern, not `format: time`.
- DRF drops `allow_blank` from read-only model fields, so a `blank=True` choice or URL
  (a session's `cancel_reason`, a win's `link`) was declared as never empty, though ""
  is what it holds when unset.
"""

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from drf_spectacular import openapi
from rest_framework import serializers

WALL_TIME = r"^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,6})?)?$"
# What drf-spectacular puts beside a field's type: it stays on the outside.
META_KEYS = {"readOnly", "writeOnly", "nullable", "title", "description", "default"}


class AutoSchema(openapi.AutoSchema):
    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if not isinstance(schema, dict):
            return schema
        if isinstance(field, serializers.TimeField) and schema.get("format") == "time":
            schema = {k: v for k, v in schema.items() if k != "format"}
            schema["pattern"] = WALL_TIME
        if field.read_only and _blank_model_field(field):
            if "enum" in schema and "" not in schema["enum"]:
                schema["enum"] = [*schema["enum"], ""]
            elif "format" in schema or "minLength" in schema:
                outer = {k: v for k, v in schema.items() if k in META_KEYS}
                inner = {k: v for k, v in schema.items() if k not in META_KEYS}
                schema = {**outer, "oneOf": [inner, {"type": "string", "maxLength": 0}]}
        return schema


def _blank_model_field(field) -> bool:
    """A serializer field read from a text column that may hold ""."""
    parent = getattr(field, "parent", None)
    model = getattr(getattr(parent, "Meta", None), "model", None)
    if model is None or not field.source or "." in field.source or field.source == "*":
        return False
    try:
        model_field = model._meta.get_field(field.source)
    except FieldDoesNotExist:  # a property or an annotation, not a column
        return False
    return isinstance(model_field, models.CharField | models.TextField) and model_field.blank


DETAIL = "#/components/schemas/Detail"
ERROR = "#/components/schemas/ValidationErrorResponse"


def _detail(description: str, **headers) -> dict:
    response = {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": DETAIL}}},
    }
    if headers:
        response["headers"] = {
            name: {"schema": {"type": "string"}, "required": True, "description": text}
            for name, text in headers.items()
        }
    return response


BAD_REQUEST = {
    "description": "Bad input or a refused change: an object of field → messages, or a "
    "list of messages. Nothing was saved.",
    "content": {"application/json": {"schema": {"$ref": ERROR}}},
}
UNAUTHENTICATED = _detail(
    "No valid credentials: sign in, or send `Authorization: Token <key>`.",
    **{"WWW-Authenticate": "The scheme to authenticate with: `Token`."},
)
FORBIDDEN = _detail("You may not do this.")
NOT_FOUND = _detail("No such object visible to you, or no such page of the list.")
UNSUPPORTED_MEDIA_TYPE = _detail("The request body is in a media type this does not read.")
THROTTLED = _detail(
    "Too many requests from this person; try again later.",
    **{"Retry-After": "Seconds to wait before trying again."},
)
UNAVAILABLE = _detail(
    "The database cannot be reached right now; try again shortly.",
    **{"Retry-After": "Seconds to wait before trying again."},
)

SCHEMAS = {
    "Detail": {
        "type": "object",
        "properties": {"detail": {"type": "string"}},
        "required": ["detail"],
    },
    "ValidationErrorResponse": {
        "oneOf": [
            {
                "type": "object",
                "description": "Field → messages (a nested object or list for nested "
                "input; `non_field_errors` for the input as a whole; `detail` for a "
                "body that could not be parsed).",
                "additionalProperties": {},
            },
            {
                "type": "array",
                "description": "Messages of a refusal that concerns no single field.",
                "items": {"type": "string"},
            },
        ]
    },
}


def declare_error_responses(result, generator, request, public):
    """drf-spectacular POSTPROCESSING_HOOKS entry: add the common error answers to every
    operation that does not declare them itself."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in SCHEMAS.items():
        schemas.setdefault(name, schema)
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            parameters = operation.get("parameters", [])
            takes_input = "requestBody" in operation or any(
                p.get("in") == "query" for p in parameters
            )
            common = {
                "401": UNAUTHENTICATED,
                "403": FORBIDDEN,
                "429": THROTTLED,
                "503": UNAVAILABLE,
            }
            if takes_input:
                common["400"] = BAD_REQUEST
            if parameters:
                common["404"] = NOT_FOUND
            if "requestBody" in operation:
                common["415"] = UNSUPPORTED_MEDIA_TYPE
            responses = operation["responses"]
            for status, response in common.items():
                responses.setdefault(status, response)
            operation["responses"] = dict(sorted(responses.items()))
    return result
