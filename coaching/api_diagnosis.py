"""Diagnoses under /api/v1/diagnoses/: list (`?coachee=`), record, read.

Readable by their author and the people above the author (`Diagnosis.visible_to`);
everyone else — the coachee included — gets 404 and an empty list. Anyone above a
person may diagnose them. The gap is computed from the answers: a posted `gap` is an
unknown field (400), like any other. Bad input → 400, nothing saved."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response

from core.api import (
    MAX_ID,
    NOT_FOUND,
    VALIDATION_ERROR,
    StrictSerializer,
    inline_enum,
    page_by_ids,
    query_params,
    validated,
)
from people.api import PersonRefSerializer
from people.models import User
from people.selectors import people_below

from . import selectors_diagnosis as selectors
from . import services_diagnosis as services
from .models import Diagnosis, GapType

DIAGNOSIS_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)
ANSWER_HELP = (
    "Yes or no. Every question up to the first “no” must be answered; the ones "
    "after it are not asked (leave them out)."
)


@extend_schema_field({"type": "boolean", "nullable": True})
class AnswerField(serializers.Field):
    """A stored answer, or null for a question not asked (after the first "no")."""

    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, diagnosis):
        return getattr(diagnosis, self.field_name)


class DiagnosisSerializer(serializers.ModelSerializer):
    coachee = PersonRefSerializer(read_only=True)
    author = PersonRefSerializer(read_only=True)
    knows_how = AnswerField(help_text="Do they know HOW? Null when not asked.")
    believes = AnswerField(help_text="Do they believe it moves the number? Null when not asked.")
    has_framework = AnswerField(
        help_text="Is there a shared framework and scorecard? Null when not asked."
    )
    has_system = AnswerField(
        help_text="Is time blocked and the evidence there? Null when not asked."
    )
    gap = serializers.SerializerMethodField()
    gap_label = serializers.CharField(source="get_gap_display", read_only=True)
    next_step = serializers.SerializerMethodField()

    class Meta:
        model = Diagnosis
        fields = ["id", "coachee", "author", *services.FIELDS, "gap", "gap_label", "next_step"]
        fields += ["notes", "created_at"]
        read_only_fields = fields

    @extend_schema_field(inline_enum(GapType.values))
    def get_gap(self, diagnosis) -> str:
        return diagnosis.gap

    def get_next_step(self, diagnosis) -> str:
        return services.NEXT_STEP[diagnosis.gap]


@extend_schema_field(OpenApiTypes.INT)
class CoacheeField(serializers.PrimaryKeyRelatedField):
    """An active person below you. Any other id is the same 400, so ids of people
    you do not manage cannot be probed."""

    default_error_messages = {
        "does_not_exist": "Diagnose someone below you in the reporting line.",
        "incorrect_type": "Give a person's id (a number), not {data_type}.",
    }

    def get_queryset(self):
        user = self.context["request"].user
        return User.objects.filter(
            pk__in=people_below(person=user).filter(is_active=True).values("pk")
        )


def _answer(help_text):
    return serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text=help_text
    )


class DiagnosisCreateSerializer(StrictSerializer):
    coachee = CoacheeField()
    knows_how = _answer(f"Do they know HOW? {ANSWER_HELP}")
    believes = _answer(f"Do they believe it moves the number? {ANSWER_HELP}")
    has_framework = _answer(f"Is there a shared framework and scorecard? {ANSWER_HELP}")
    has_system = _answer(f"Is time blocked, and is the evidence there? {ANSWER_HELP}")
    notes = serializers.CharField(
        max_length=services.NOTES_LIMIT,
        required=False,
        allow_blank=True,
        default="",
        help_text="Read by you and the people above you; never by the coachee.",
    )


class DiagnosisFilterSerializer(serializers.Serializer):
    coachee = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


@extend_schema_view(
    list=extend_schema(
        operation_id="diagnoses_list",
        summary="Diagnoses you may read: yours and those made by people below you",
        parameters=[OpenApiParameter("coachee", OpenApiTypes.INT)],
        responses={200: DiagnosisSerializer(many=True), 400: VALIDATION_ERROR},
    ),
    retrieve=extend_schema(
        operation_id="diagnoses_retrieve",
        parameters=[DIAGNOSIS_ID],
        responses={200: DiagnosisSerializer, 404: NOT_FOUND},
    ),
)
class DiagnosisViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Diagnose before you coach: the first gap of four, with its next step."""

    serializer_class = DiagnosisSerializer
    lookup_value_converter = "int"

    def get_serializer_class(self):
        return DiagnosisCreateSerializer if self.action == "create" else DiagnosisSerializer

    def get_queryset(self):
        return selectors.diagnoses(viewer=self.request.user)

    def list(self, request):
        # The page's ids first, without the people: for the head of 10,000 people the
        # planner joined all 127,000 diagnoses she may see to their people before
        # sorting them for 50 (`core.api.page_by_ids`).
        listed = self.filter_queryset(Diagnosis.objects.visible_to(request.user))
        page = page_by_ids(self, listed, Diagnosis.objects.select_related("coachee", "author"))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(DiagnosisFilterSerializer, self.request)
        if "coachee" in params:
            queryset = queryset.filter(coachee_id=params["coachee"])
        return queryset

    @extend_schema(
        operation_id="diagnoses_create",
        summary="Diagnose someone below you (the gap is computed from the answers)",
        request=DiagnosisCreateSerializer,
        responses={201: DiagnosisSerializer, 400: VALIDATION_ERROR},
    )
    def create(self, request):
        data = validated(DiagnosisCreateSerializer, request)
        diagnosis = services.diagnosis_record(
            author=request.user,
            coachee=data["coachee"],
            notes=data["notes"],
            **{name: data[name] for name in services.FIELDS},
        )
        diagnosis = self.get_queryset().get(pk=diagnosis.pk)
        return Response(DiagnosisSerializer(diagnosis).data, status=status.HTTP_201_CREATED)


def register(router) -> None:
    """Add this area's viewsets to the API router."""
    router.register("diagnoses", DiagnosisViewSet, basename="diagnosis")
