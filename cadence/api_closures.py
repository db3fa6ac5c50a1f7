"""Closed days under /api/v1/closed-days/, for programme admins (404 to everyone else,
as the page): list (latest first), read, close days (each closure says how many planned
sessions went, null while a worker removes them), and open them again (DELETE). Bad
input → 400, nothing saved."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response

from core.api import NOT_FOUND, VALIDATION_ERROR, StrictSerializer, validated
from people.access import HasRole
from people.roles import Role

from . import services_closures as services
from .selectors_closures import closures

CLOSURE_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)


class ClosedDaysSerializer(serializers.Serializer):
    """A closure as anyone reads it (My coaching's API too)."""

    name = serializers.CharField()
    first_day = serializers.DateField()
    last_day = serializers.DateField(help_text="Included.")


class ClosureSerializer(ClosedDaysSerializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    sessions_removed = serializers.IntegerField(
        source="removed",
        allow_null=True,
        help_text="Planned sessions on those days that went; null while a worker is still "
        "removing them (seconds): read the closure again.",
    )


class CloseSerializer(StrictSerializer):
    name = serializers.CharField(max_length=services.NAME_LIMIT)
    first_day = serializers.DateField()
    last_day = serializers.DateField(help_text="Included; the first day for a single day.")


@extend_schema_view(
    list=extend_schema(
        operation_id="closed_days_list",
        summary="Every closure, the latest first (programme admins)",
        responses={200: ClosureSerializer(many=True), 404: NOT_FOUND},
    ),
    retrieve=extend_schema(
        operation_id="closed_days_retrieve",
        parameters=[CLOSURE_ID],
        responses={200: ClosureSerializer, 404: NOT_FOUND},
    ),
    create=extend_schema(
        operation_id="closed_days_create",
        summary="Close the programme on these days: nothing is planned on them",
        request=CloseSerializer,
        responses={201: ClosureSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    ),
    destroy=extend_schema(
        operation_id="closed_days_destroy",
        summary="Open the days again: the plans' sessions come back with the next planning",
        parameters=[CLOSURE_ID],
        responses={204: None, 404: NOT_FOUND},
    ),
)
class ClosureViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Days the whole programme pauses."""

    permission_classes = [HasRole.of(Role.PROGRAMME_ADMIN)]
    serializer_class = ClosureSerializer
    lookup_value_converter = "int"
    http_method_names = ["get", "post", "delete", "head", "options"]

    def get_queryset(self):
        return closures()

    def create(self, request):
        # The service's refusals are 400s naming the field (core.api.exception_handler).
        closure = services.closure_create(actor=request.user, **validated(CloseSerializer, request))
        return Response(ClosureSerializer(closure).data, status.HTTP_201_CREATED)

    def destroy(self, request, pk: int):
        services.closure_remove(actor=request.user, closure=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)
