"""Install plans under /api/v1/rollouts/: list (scoped like the overview), read with
its checklist, start one, and the lead's tick / untick.

Seen by the team's lead, the people above the lead, HR and programme admins; 404 to
everyone else. Started by the lead, someone above the lead or a programme admin
(others who see the team get 403); ticked by the lead alone (403 for the others who
see it). Bad input → 400, nothing saved. Lists cost a fixed number of queries."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.api import (
    NOT_FOUND,
    VALIDATION_ERROR,
    DetailSerializer,
    StrictSerializer,
    inline_enum,
    validated,
)
from people.api import TeamRefSerializer
from people.models import Team

from . import selectors_rollout as selectors
from . import services_rollout as services
from .rollout import ITEMS, MANUAL, progress_for

ROLLOUT_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)
FORBIDDEN = {403: DetailSerializer}


class RolloutItemSerializer(serializers.Serializer):
    key = serializers.SerializerMethodField()
    title = serializers.CharField(source="item.title")
    day = serializers.IntegerField(source="item.day", help_text="Due this many days in.")
    due_on = serializers.DateField()
    manual = serializers.BooleanField(
        source="item.manual", help_text="Ticked by the lead; the others tick from the data."
    )
    done = serializers.BooleanField()
    done_on = serializers.DateField(
        allow_null=True, help_text="When it became true, where the data says."
    )
    overdue = serializers.BooleanField(help_text="Past its day and not done.")

    @extend_schema_field(inline_enum([item.key for item in ITEMS]))
    def get_key(self, status) -> str:
        return status.item.key


class RolloutSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="rollout.pk")
    team = TeamRefSerializer(source="rollout.team")
    starts_on = serializers.DateField(source="rollout.starts_on")
    day = serializers.IntegerField(help_text="Days since the start (negative before it).")
    done_count = serializers.IntegerField()
    total = serializers.IntegerField()
    overdue_count = serializers.IntegerField()
    finished = serializers.BooleanField()
    next_item = serializers.SerializerMethodField()

    @extend_schema_field(inline_enum([item.key for item in ITEMS], nullable=True))
    def get_next_item(self, progress) -> str | None:
        return progress.next_item.item.key if progress.next_item else None


class RolloutDetailSerializer(RolloutSerializer):
    items = RolloutItemSerializer(many=True)


@extend_schema_field(OpenApiTypes.INT)
class TeamField(serializers.PrimaryKeyRelatedField):
    """A team whose install plan you may see. Any other id is the same 400."""

    default_error_messages = {
        "does_not_exist": "No team with id {pk_value} that you may see.",
        "incorrect_type": "Give a team's id (a number), not {data_type}.",
    }

    def get_queryset(self):
        return selectors.teams_in_scope(user=self.context["request"].user)


class RolloutCreateSerializer(StrictSerializer):
    team = TeamField()
    starts_on = serializers.DateField(help_text="Day 0; items are due at day 30, 60 and 90.")


class RolloutTickSerializer(StrictSerializer):
    item = serializers.ChoiceField(
        choices=list(MANUAL),
        help_text="One of the items the data cannot tell.",
        error_messages={
            "invalid_choice": "Only the items the data cannot tell are ticked by hand: "
            + ", ".join(MANUAL)
            + "."
        },
    )


@extend_schema_view(
    list=extend_schema(
        operation_id="rollouts_list",
        summary="Install plans you may see: the teams you lead or that are below you; all "
        "for HR and programme admins",
        responses={200: RolloutSerializer(many=True)},
    ),
    retrieve=extend_schema(
        operation_id="rollouts_retrieve",
        summary="An install plan with its checklist",
        parameters=[ROLLOUT_ID],
        responses={200: RolloutDetailSerializer, 404: NOT_FOUND},
    ),
)
class RolloutViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A team's 30/60/90-day install plan, most items ticked from the data."""

    serializer_class = RolloutSerializer
    lookup_value_converter = "int"

    def get_serializer_class(self):
        inputs = {
            "create": RolloutCreateSerializer,
            "tick": RolloutTickSerializer,
            "untick": RolloutTickSerializer,
            "retrieve": RolloutDetailSerializer,
        }
        return inputs.get(self.action, RolloutSerializer)

    def get_queryset(self):
        return selectors.rollouts(user=self.request.user)

    def list(self, request):
        page = self.paginate_queryset(self.get_queryset())
        progress = progress_for(page)
        data = RolloutSerializer([progress[r.pk] for r in page], many=True).data
        return self.get_paginated_response(data)

    def _detail(self, rollout, code=status.HTTP_200_OK):
        return Response(RolloutDetailSerializer(progress_for([rollout])[rollout.pk]).data, code)

    def retrieve(self, request, pk=None):
        return self._detail(self.get_object())

    @extend_schema(
        operation_id="rollouts_create",
        summary="Start a team's install plan",
        request=RolloutCreateSerializer,
        responses={201: RolloutDetailSerializer, 400: VALIDATION_ERROR, **FORBIDDEN},
    )
    def create(self, request):
        data = validated(RolloutCreateSerializer, request)
        team: Team = data["team"]
        rollout = services.rollout_start(team=team, actor=request.user, starts_on=data["starts_on"])
        return self._detail(self.get_queryset().get(pk=rollout.pk), status.HTTP_201_CREATED)

    def _tick(self, request, service):
        rollout = self.get_object()
        data = validated(RolloutTickSerializer, request)
        service(rollout=rollout, actor=request.user, item=data["item"])
        return self._detail(rollout)

    @extend_schema(
        operation_id="rollouts_tick",
        summary="The lead ticks an item the data cannot tell",
        parameters=[ROLLOUT_ID],
        request=RolloutTickSerializer,
        responses={
            200: RolloutDetailSerializer,
            400: VALIDATION_ERROR,
            404: NOT_FOUND,
            **FORBIDDEN,
        },
    )
    @action(detail=True, methods=["post"])
    def tick(self, request, pk=None):
        return self._tick(request, services.rollout_tick)

    @extend_schema(
        operation_id="rollouts_untick",
        summary="The lead takes a tick back",
        parameters=[ROLLOUT_ID],
        request=RolloutTickSerializer,
        responses={
            200: RolloutDetailSerializer,
            400: VALIDATION_ERROR,
            404: NOT_FOUND,
            **FORBIDDEN,
        },
    )
    @action(detail=True, methods=["post"])
    def untick(self, request, pk=None):
        return self._tick(request, services.rollout_untick)


def register(router) -> None:
    """Add the rollout viewsets to the API router."""
    router.register("rollouts", RolloutViewSet, basename="rollout")
