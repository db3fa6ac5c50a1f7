"""Programme configuration under /api/v1/: focus areas and GROW prompts, read by
everyone signed in, changed by programme admins (status codes as in coaching.api)."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import ProtectedError, Q
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, viewsets

from core.api import (
    ADMINS_ONLY,
    NOT_FOUND,
    VALIDATION_ERROR,
    DetailSerializer,
    query_params,
    refuse_unknown_fields,
)
from people.api_common import ReadOrProgrammeAdmin
from people.models import Team
from scorecards.models import Criterion

from .api import ID_CONVERTER, Conflict
from .models import FocusArea, GrowStep, Prompt, SessionKind
from .services_focus_areas import focus_area_save
from .services_prompts import prompt_save, prompt_set_active


class ShowAllSerializer(serializers.Serializer):
    all = serializers.BooleanField(required=False, default=False)


SHOW_ALL = OpenApiParameter(
    "all", OpenApiTypes.BOOL, description="Include ended or inactive ones (`?all=1`)."
)


def merged(data: dict, instance, defaults: dict, *, many=()) -> dict:
    """A write's fields for the service: what the request sent, else what `instance`
    holds (a PATCH keeps what it leaves out), else the default — `many` are
    many-to-many fields, as lists."""
    values = {
        field: data[field] if field in data else getattr(instance, field, default)
        for field, default in defaults.items()
    }
    for field in many:
        if field in data:
            values[field] = data[field]
        else:
            values[field] = list(getattr(instance, field).all()) if instance else []
    return values


def config_schema(prefix, serializer, *, list_parameters, destroy_conflict=None) -> dict:
    """Schemas of a programme-configuration resource: read by all, written by admins."""
    writes = {400: VALIDATION_ERROR, 403: ADMINS_ONLY}
    destroy = {204: None, 403: ADMINS_ONLY, 404: NOT_FOUND}
    if destroy_conflict is not None:
        destroy[409] = destroy_conflict
    return {
        "list": extend_schema(
            operation_id=f"{prefix}_list",
            parameters=list_parameters,
            responses={200: serializer(many=True), 400: VALIDATION_ERROR},
        ),
        "retrieve": extend_schema(
            operation_id=f"{prefix}_retrieve", responses={200: serializer, 404: NOT_FOUND}
        ),
        "create": extend_schema(
            operation_id=f"{prefix}_create", responses={201: serializer, **writes}
        ),
        "update": extend_schema(
            operation_id=f"{prefix}_update",
            responses={200: serializer, **writes, 404: NOT_FOUND},
        ),
        "partial_update": extend_schema(
            operation_id=f"{prefix}_partial_update",
            responses={200: serializer, **writes, 404: NOT_FOUND},
        ),
        "destroy": extend_schema(operation_id=f"{prefix}_destroy", responses=destroy),
    }


class FocusAreaSerializer(serializers.ModelSerializer):
    teams = serializers.PrimaryKeyRelatedField(
        many=True,
        queryset=Team.objects.all(),
        required=False,
        help_text="Team ids; empty for the whole organisation.",
    )
    behaviour_list = serializers.ListField(child=serializers.CharField(), read_only=True)
    criteria = serializers.PrimaryKeyRelatedField(
        many=True,
        queryset=Criterion.objects.labelled(),  # named without a query each (browsable form)
        required=False,
        help_text="Scorecard criterion (lineage) ids that measure this focus area.",
    )

    class Meta:
        model = FocusArea
        fields = [
            "id",
            "name",
            "behaviours",
            "behaviour_list",
            "starts_on",
            "ends_on",
            "teams",
            "criteria",
            "created_at",
        ]
        read_only_fields = ["id", "created_at"]

    def validate(self, attrs):
        attrs = super().validate(attrs)
        refuse_unknown_fields(self)
        starts = attrs.get("starts_on", getattr(self.instance, "starts_on", None))
        ends = attrs.get("ends_on", getattr(self.instance, "ends_on", None))
        if starts and ends and ends < starts:
            raise serializers.ValidationError({"ends_on": "A focus area ends after it starts."})
        return attrs


@extend_schema_view(
    **config_schema(
        "focus_areas",
        FocusAreaSerializer,
        list_parameters=[SHOW_ALL],
        destroy_conflict=OpenApiResponse(
            DetailSerializer, description="Sessions use it: set an end date instead."
        ),
    )
)
class FocusAreaViewSet(viewsets.ModelViewSet):
    """The behaviours that matter most now. Current ones by default."""

    serializer_class = FocusAreaSerializer
    permission_classes = [ReadOrProgrammeAdmin]
    lookup_value_converter = ID_CONVERTER

    def get_queryset(self):
        return FocusArea.objects.prefetch_related("teams", "criteria").order_by(
            "-starts_on", "name", "id"
        )

    def filter_queryset(self, queryset):
        if self.action == "list" and not query_params(ShowAllSerializer, self.request).get("all"):
            queryset = queryset.active_on(timezone.localdate())
        return queryset

    def perform_create(self, serializer):
        serializer.instance = self._save(serializer.validated_data, None)

    def perform_update(self, serializer):
        serializer.instance = self._save(serializer.validated_data, serializer.instance)

    def _save(self, data: dict, area: FocusArea | None) -> FocusArea:
        """Through the service, as the page saves (audited); a PATCH keeps what it
        leaves out."""

        fields = {"name": None, "behaviours": None, "starts_on": None, "ends_on": None}
        try:
            return focus_area_save(
                actor=self.request.user,
                area=area,
                **merged(data, area, fields, many=("teams", "criteria")),
            )
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.message_dict) from None

    def perform_destroy(self, instance):
        try:
            instance.delete()
        except ProtectedError:
            raise Conflict(
                "Sessions use this focus area, so it cannot be deleted. Set an end date instead."
            ) from None


class PromptSerializer(serializers.ModelSerializer):
    class Meta:
        model = Prompt
        fields = ["id", "step", "kind", "text", "position", "is_active"]
        read_only_fields = ["id"]

    def validate(self, attrs):
        attrs = super().validate(attrs)
        refuse_unknown_fields(self)
        return attrs


class PromptFilterSerializer(ShowAllSerializer):
    kind = serializers.ChoiceField(choices=SessionKind.choices, required=False)
    step = serializers.ChoiceField(choices=GrowStep.choices, required=False)


@extend_schema_view(
    **config_schema(
        "prompts",
        PromptSerializer,
        list_parameters=[
            OpenApiParameter(
                "kind",
                enum=SessionKind.values,
                description="Prompts shown in sessions of this kind (those for every "
                "kind included).",
            ),
            OpenApiParameter("step", enum=GrowStep.values),
            SHOW_ALL,
        ],
    )
)
class PromptViewSet(viewsets.ModelViewSet):
    """The question bank shown beside each GROW step. Active prompts by default."""

    serializer_class = PromptSerializer
    permission_classes = [ReadOrProgrammeAdmin]
    lookup_value_converter = ID_CONVERTER

    def get_queryset(self):
        return Prompt.objects.order_by("step", "position", "id")

    def perform_create(self, serializer):
        serializer.instance = self._save(serializer.validated_data, None)

    def perform_update(self, serializer):
        serializer.instance = self._save(serializer.validated_data, serializer.instance)

    def _save(self, data: dict, prompt: Prompt | None) -> Prompt:
        """Through the service, as the page saves (audited); a PATCH keeps what it
        leaves out, and `is_active` retires or restores."""

        fields = {"step": None, "kind": "", "text": "", "position": None}
        try:
            saved = prompt_save(
                actor=self.request.user, prompt=prompt, **merged(data, prompt, fields)
            )
            if "is_active" in data and data["is_active"] != saved.is_active:
                prompt_set_active(actor=self.request.user, prompt=saved, active=data["is_active"])
        except DjangoValidationError as exc:
            detail = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
            raise serializers.ValidationError(detail) from None
        return saved

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(PromptFilterSerializer, self.request)
        if not params.get("all"):
            queryset = queryset.filter(is_active=True)
        if "kind" in params:
            queryset = queryset.filter(Q(kind="") | Q(kind=params["kind"]))
        if "step" in params:
            queryset = queryset.filter(step=params["step"])
        return queryset
