"""The audit trail under `GET /api/v1/audit-events/`, for programme admins (404 to
everyone else), as the Audit log page reads it: newest first, filtered by area or
verb, by a person (what they did and what was done to them) and by time, 50 a page
with a `next` link to older events and no total (the trail grows by tens of thousands
of rows with one export). Read-only: no write method exists. One query a page."""

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.pagination import BasePagination
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from core.api import NOT_FOUND, VALIDATION_ERROR, query_params

from .access import HasRole
from .api import PersonRefSerializer
from .api_common import PersonField
from .audit_catalogue import AREA_OF, AREAS, VERBS, verb_label
from .models import User
from .roles import Role
from .selectors_audit import (
    DAY_OUT_OF_RANGE,
    EARLIEST_DAY,
    LATEST_DAY,
    AuditFilters,
    audit_events,
    page_before,
)


class AuditTargetSerializer(serializers.Serializer):
    type = serializers.CharField(help_text="What it was about: app and model, as `people.user`.")
    id = serializers.CharField(help_text="Its id.")
    name = serializers.CharField(help_text="What it was called then.")


class AuditEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    verb = serializers.CharField(help_text="What happened, as a code (docs/security.md).")
    happened = serializers.SerializerMethodField(help_text="What happened, in words.")
    area = serializers.SerializerMethodField(
        help_text="Its area (`area` in the filters); null for a verb no longer written."
    )
    actor = PersonRefSerializer(allow_null=True, help_text="Who did it; null: nobody signed in.")
    target = serializers.SerializerMethodField()
    data = serializers.JSONField(help_text="Ids and counts: never anyone's words.")
    ip = serializers.IPAddressField(allow_null=True, help_text="Where the request came from.")

    def get_happened(self, event) -> str:
        return verb_label(event.verb)

    @extend_schema_field(serializers.ChoiceField(choices=list(AREAS), allow_null=True))
    def get_area(self, event) -> str | None:
        return AREA_OF.get(event.verb)

    @extend_schema_field(AuditTargetSerializer(allow_null=True))
    def get_target(self, event) -> dict | None:
        if event.target_type is None and not event.target_id:
            return None
        kind = event.target_type
        return {
            "type": f"{kind.app_label}.{kind.model}" if kind is not None else "",
            "id": event.target_id,
            "name": event.target_repr,
        }


class AuditSearchSerializer(serializers.Serializer):
    area = serializers.ChoiceField(
        choices=[(key, area.label) for key, area in AREAS.items()],
        required=False,
        help_text="Only this area's verbs.",
    )
    verb = serializers.ChoiceField(
        choices=list(VERBS.items()), required=False, help_text="Only this verb."
    )
    person = PersonField(
        queryset=User.objects.all(),
        required=False,
        help_text="What this person did, and what was done to them (deactivated people too).",
        error_messages={"does_not_exist": "No person with id {pk_value}."},
    )
    since = serializers.DateTimeField(required=False, help_text="At or after.")
    until = serializers.DateTimeField(required=False, help_text="Before.")

    def _in_range(self, moment):
        if not EARLIEST_DAY <= moment.date() <= LATEST_DAY:
            raise serializers.ValidationError(DAY_OUT_OF_RANGE)
        return moment

    validate_since = validate_until = _in_range

    def validate(self, attrs):
        if attrs.get("since") and attrs.get("until") and attrs["since"] >= attrs["until"]:
            raise serializers.ValidationError({"until": "Give a time after `since`."})
        return attrs


class OlderEventsPagination(BasePagination):
    """50 events a page and a `next` link to older ones, by position (the last event's
    time and id, as the page's "Older events" link): `{"next": …, "results": […]}`. Not
    DRF's cursor, which keeps the time alone and skips ties by an offset it caps at
    1,000 — and one export writes tens of thousands of reads at one time. No total and
    no `previous`: counting the trail would cost more than the page."""

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        try:
            page = page_before(queryset, before=request.query_params.get("before", ""))
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"before": exc.messages}) from exc
        self.older = page.older
        return page.events

    def get_paginated_response(self, data):
        return Response({"next": self._next(), "results": data})

    def _next(self) -> str | None:
        if self.older is None:
            return None
        return replace_query_param(self.request.build_absolute_uri(), "before", self.older)

    def get_paginated_response_schema(self, schema):
        return {
            "type": "object",
            "required": ["next", "results"],
            "properties": {
                "next": {
                    "type": "string",
                    "format": "uri",
                    "nullable": True,
                    "description": "The page of older events; null at the oldest.",
                },
                "results": schema,
            },
        }

    def get_schema_operation_parameters(self, view):
        return [
            {
                "name": "before",
                "in": "query",
                "required": False,
                "schema": {"type": "string"},
                "description": "Where the previous page ended (from its `next` link): "
                "events older than it.",
            }
        ]


@extend_schema_view(
    get=extend_schema(
        operation_id="audit_events_list",
        summary="The audit trail, newest first, 50 a page (follow `next`): programme admins",
        parameters=[AuditSearchSerializer],
        responses={200: AuditEventSerializer(many=True), 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
)
class AuditEventList(ListAPIView):
    """Who did what, to whom and when."""

    permission_classes = [HasRole.of(Role.PROGRAMME_ADMIN)]
    serializer_class = AuditEventSerializer
    pagination_class = OlderEventsPagination

    def get_queryset(self):
        return audit_events(AuditFilters(**query_params(AuditSearchSerializer, self.request)))
