"""Agenda items under /api/v1/agenda-items/: what people want to talk about in a
session, added and ticked off by the people in it (status codes as in coaching.api)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response

from core.api import (
    MAX_ID,
    NOT_FOUND,
    VALIDATION_ERROR,
    StrictSerializer,
    query_params,
    validated,
)
from people.api import PersonRefSerializer

from . import selectors, services
from .api import FORBIDDEN, ID_CONVERTER, VisibleSessionField
from .models import AgendaItem, visible_session_for_lists


class AgendaItemSerializer(serializers.ModelSerializer):
    author = PersonRefSerializer(read_only=True)

    class Meta:
        model = AgendaItem
        fields = ["id", "session", "author", "text", "done", "created_at"]
        read_only_fields = fields


class AgendaItemCreateSerializer(StrictSerializer):
    session = VisibleSessionField()
    text = serializers.CharField(max_length=500)


class AgendaItemDoneSerializer(StrictSerializer):
    done = serializers.BooleanField()


class AgendaFilterSerializer(serializers.Serializer):
    session = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


AGENDA_ITEM_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)


@extend_schema_view(
    list=extend_schema(
        operation_id="agenda_items_list",
        parameters=[OpenApiParameter("session", OpenApiTypes.INT)],
        responses={200: AgendaItemSerializer(many=True), 400: VALIDATION_ERROR},
    ),
    retrieve=extend_schema(
        operation_id="agenda_items_retrieve",
        parameters=[AGENDA_ITEM_ID],
        responses={200: AgendaItemSerializer, 404: NOT_FOUND},
    ),
)
class AgendaItemViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """What people want to talk about, on sessions visible to the requester. People
    in the session add and tick off items; only whoever added an item removes it."""

    serializer_class = AgendaItemSerializer
    lookup_value_converter = ID_CONVERTER

    def get_queryset(self):
        visible = visible_session_for_lists(self.request.user, session="session_id")
        return (
            AgendaItem.objects.filter(visible).select_related("author").order_by("created_at", "id")
        )

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(AgendaFilterSerializer, self.request)
        if "session" in params:
            queryset = queryset.filter(session_id=params["session"])
        return queryset

    @extend_schema(
        operation_id="agenda_items_create",
        request=AgendaItemCreateSerializer,
        responses={201: AgendaItemSerializer, 400: VALIDATION_ERROR, 403: FORBIDDEN},
    )
    def create(self, request):
        data = validated(AgendaItemCreateSerializer, request)
        session = data["session"]
        item = services.agenda_item_add(session=session, actor=request.user, text=data["text"])
        return Response(AgendaItemSerializer(item).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="agenda_items_set_done",
        summary="Tick an item off (or on again)",
        parameters=[AGENDA_ITEM_ID],
        request=AgendaItemDoneSerializer,
        responses={
            200: AgendaItemSerializer,
            400: VALIDATION_ERROR,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
    )
    def partial_update(self, request, pk=None):
        item = selectors.access_agenda_item(user=request.user, pk=pk)
        data = validated(AgendaItemDoneSerializer, request)
        item = services.agenda_item_set_done(item=item, actor=request.user, done=data["done"])
        return Response(AgendaItemSerializer(item).data)

    @extend_schema(
        operation_id="agenda_items_destroy",
        summary="Remove an item you added",
        description="Only whoever added an item can remove it; anyone else who can see "
        "it gets 403 with that message.",
        parameters=[AGENDA_ITEM_ID],
        responses={204: None, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def destroy(self, request, pk=None):
        item = selectors.access_agenda_item(user=request.user, pk=pk)
        services.agenda_item_delete(item=item, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
