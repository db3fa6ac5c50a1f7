"""Development goals under /api/v1/goals/: list, add, read, edit, close, reopen.

Visible to the owner and the owner's management chain (404 to anyone else); whoever
sees a goal may change it, as on the pages. Bad input → 400, nothing saved."""

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

from core.api import MAX_ID, NOT_FOUND, VALIDATION_ERROR, StrictSerializer, query_params, validated
from people.api import PersonRefSerializer
from people.models import User
from people.selectors import people_below

from . import services
from .api import FocusAreaRefSerializer
from .models import FocusArea, Goal, GoalStatus

GOAL_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)


class GoalRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()


@extend_schema_field(OpenApiTypes.INT)
class OwnGoalField(serializers.PrimaryKeyRelatedField):
    """One of the requester's own goals (any status). Any other id is the same 400."""

    default_error_messages = {
        "does_not_exist": "Pick one of your own goals.",
        "incorrect_type": "Give a goal's id (a number), not {data_type}.",
    }

    def get_queryset(self):
        return Goal.objects.filter(owner=self.context["request"].user)


class GoalSerializer(serializers.ModelSerializer):
    owner = PersonRefSerializer(read_only=True)
    focus_area = FocusAreaRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Goal
        fields = ["id", "owner", "title", "success", "focus_area", "status"]
        fields += ["created_at", "closed_at"]
        read_only_fields = fields


@extend_schema_field(OpenApiTypes.INT)
class GoalOwnerField(serializers.PrimaryKeyRelatedField):
    """You, or an active person below you. Any other id is the same 400, so ids of
    people you do not manage cannot be probed."""

    default_error_messages = {
        "does_not_exist": "Set goals for yourself or for people below you.",
        "incorrect_type": "Give a person's id (a number), not {data_type}.",
    }

    def get_queryset(self):
        user = self.context["request"].user
        below = people_below(person=user).filter(is_active=True).values("pk")
        return User.objects.filter(pk__in=below) | User.objects.filter(pk=user.pk)


@extend_schema_field(OpenApiTypes.INT)
class FocusAreaIdField(serializers.PrimaryKeyRelatedField):
    default_error_messages = {
        "does_not_exist": "No focus area with id {pk_value}.",
        "incorrect_type": "Give a focus area's id (a number), not {data_type}.",
    }

    def get_queryset(self):
        return FocusArea.objects.all()


class GoalCreateSerializer(StrictSerializer):
    owner = GoalOwnerField(required=False, help_text="Defaults to you.")
    title = serializers.CharField(max_length=200, help_text="What to get better at.")
    success = serializers.CharField(
        max_length=500, required=False, allow_blank=True, default="", help_text="How you'll know."
    )
    focus_area = FocusAreaIdField(
        required=False,
        allow_null=True,
        default=None,
        help_text="A current focus area that applies to the owner.",
    )


class GoalUpdateSerializer(StrictSerializer):
    title = serializers.CharField(max_length=200, required=False)
    success = serializers.CharField(max_length=500, required=False, allow_blank=True)
    focus_area = FocusAreaIdField(required=False, allow_null=True)

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if not attrs:
            raise serializers.ValidationError("Send at least one of: title, success, focus_area.")
        return attrs


class GoalCloseSerializer(StrictSerializer):
    status = serializers.ChoiceField(
        choices=[
            (GoalStatus.ACHIEVED.value, GoalStatus.ACHIEVED.label),
            (GoalStatus.DROPPED.value, GoalStatus.DROPPED.label),
        ]
    )


class GoalFilterSerializer(serializers.Serializer):
    owner = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    status = serializers.ChoiceField(choices=GoalStatus.choices, required=False)


@extend_schema_view(
    list=extend_schema(
        operation_id="goals_list",
        summary="Development goals you may see: yours and those of people below you",
        parameters=[
            OpenApiParameter("owner", OpenApiTypes.INT),
            OpenApiParameter("status", enum=GoalStatus.values),
        ],
        responses={200: GoalSerializer(many=True), 400: VALIDATION_ERROR},
    ),
    retrieve=extend_schema(
        operation_id="goals_retrieve",
        parameters=[GOAL_ID],
        responses={200: GoalSerializer, 404: NOT_FOUND},
    ),
)
class GoalViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Development goals, active first. At most three active per person."""

    serializer_class = GoalSerializer
    lookup_value_converter = "int"

    def get_serializer_class(self):
        # The browsable API's forms: each write with its own input.
        inputs = {
            "create": GoalCreateSerializer,
            "partial_update": GoalUpdateSerializer,
            "close": GoalCloseSerializer,
        }
        return inputs.get(self.action, GoalSerializer)

    def get_queryset(self):
        return (
            Goal.objects.visible_to(self.request.user)
            .select_related("owner", "focus_area")
            .active_first()
        )

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(GoalFilterSerializer, self.request)
        if "owner" in params:
            queryset = queryset.filter(owner_id=params["owner"])
        if "status" in params:
            queryset = queryset.filter(status=params["status"])
        return queryset

    def _respond(self, goal, code=status.HTTP_200_OK):
        goal = self.get_queryset().get(pk=goal.pk)
        return Response(GoalSerializer(goal).data, status=code)

    @extend_schema(
        operation_id="goals_create",
        request=GoalCreateSerializer,
        responses={201: GoalSerializer, 400: VALIDATION_ERROR},
    )
    def create(self, request):
        data = validated(GoalCreateSerializer, request)
        goal = services.goal_create(
            owner=data.get("owner") or request.user,
            actor=request.user,
            title=data["title"],
            success=data["success"],
            focus_area=data["focus_area"],
        )
        return self._respond(goal, status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="goals_update",
        parameters=[GOAL_ID],
        request=GoalUpdateSerializer,
        responses={200: GoalSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def partial_update(self, request, pk=None):
        goal = self.get_object()
        data = validated(GoalUpdateSerializer, request)
        goal = services.goal_update(
            goal=goal,
            actor=request.user,
            title=data.get("title", goal.title),
            success=data.get("success", goal.success),
            focus_area=data.get("focus_area", goal.focus_area),
        )
        return self._respond(goal)

    @extend_schema(
        operation_id="goals_close",
        summary="Close a goal as achieved or dropped",
        parameters=[GOAL_ID],
        request=GoalCloseSerializer,
        responses={200: GoalSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        goal = self.get_object()
        data = validated(GoalCloseSerializer, request)
        return self._respond(
            services.goal_close(goal=goal, actor=request.user, status=data["status"])
        )

    @extend_schema(
        operation_id="goals_reopen",
        summary="Work on a closed goal again (if fewer than three are active)",
        parameters=[GOAL_ID],
        request=None,
        responses={200: GoalSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def reopen(self, request, pk=None):
        goal = self.get_object()
        return self._respond(services.goal_reopen(goal=goal, actor=request.user))
