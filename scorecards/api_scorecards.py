"""Scorecards under /api/v1/scorecards/, read only: exactly the ones
`Scorecard.objects.visible_to` shows the requester (the reveal rule: your own, drafts
included; others' once the rule reveals them; those about people below you once the
round's scoring is over). HR and programme admins see none here: aggregates only."""

from django.db.models import Prefetch
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, viewsets

from core.api import NOT_FOUND, VALIDATION_ERROR, page_by_ids, query_params
from people.api import PersonRefSerializer

from .api_common import (
    CONTEXT_ENUM,
    ID,
    ID_CONVERTER,
    MAX_ID,
    RATER_ROLE_ENUM,
    ScoreSerializer,
    TemplateRefSerializer,
)
from .models import Score, Scorecard


class ScoreDetailSerializer(ScoreSerializer):
    lineage = serializers.IntegerField(
        source="criterion.criterion_id",
        read_only=True,
        help_text="The criterion's lineage through the template's versions.",
    )
    title = serializers.CharField(source="criterion.title", read_only=True)

    class Meta(ScoreSerializer.Meta):
        fields = ["criterion", "lineage", "title", "rating", "evidence_at", "evidence"]
        read_only_fields = fields


class ScorecardSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round_id", read_only=True)
    context = serializers.SerializerMethodField()
    subject = PersonRefSerializer(read_only=True)
    rater = PersonRefSerializer(read_only=True)
    rater_role = serializers.SerializerMethodField()
    template = TemplateRefSerializer(source="version.template", read_only=True)
    version = serializers.IntegerField(source="version.number", read_only=True)
    scores = ScoreDetailSerializer(many=True, read_only=True)

    class Meta:
        model = Scorecard
        fields = ["id", "round", "context", "subject", "rater", "rater_role", "template"]
        fields += ["version", "keep", "try_next", "created_at", "submitted_at", "scores"]
        read_only_fields = fields

    @extend_schema_field(CONTEXT_ENUM)
    def get_context(self, card) -> str:
        return card.context

    @extend_schema_field(RATER_ROLE_ENUM)
    def get_rater_role(self, card) -> str:
        return card.rater_role


class ScorecardFilterSerializer(serializers.Serializer):
    subject = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    round = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


@extend_schema_view(
    list=extend_schema(
        operation_id="scorecards_list",
        summary="Scorecards you may see, latest first (your drafts first of all)",
        parameters=[
            OpenApiParameter("subject", OpenApiTypes.INT, description="Whose call was scored."),
            OpenApiParameter("round", OpenApiTypes.INT),
        ],
        responses={200: ScorecardSerializer(many=True), 400: VALIDATION_ERROR},
    ),
    retrieve=extend_schema(
        operation_id="scorecards_retrieve",
        parameters=[ID],
        responses={200: ScorecardSerializer, 404: NOT_FOUND},
    ),
)
class ScorecardViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Scorecards with their scores, as the reveal rule lets you see them: yours; others'
    in a round once you scored or declined there; those about people below you once
    every rater is done or the round is closed — blind both ways while anyone scores,
    whoever you are. Scorecards are written through their round
    (`scoring-rounds/{id}/scorecard/`)."""

    serializer_class = ScorecardSerializer
    lookup_value_converter = ID_CONVERTER

    def _visible(self):
        return Scorecard.objects.visible_for_lists(self.request.user).order_by(
            "-submitted_at", "-id"
        )

    def get_queryset(self):
        return _with_related(self._visible())

    def list(self, request):
        listed = self.filter_queryset(self._visible())
        page = page_by_ids(self, listed, _with_related(Scorecard.objects.all()))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(ScorecardFilterSerializer, self.request)
        if "subject" in params:
            queryset = queryset.filter(subject_id=params["subject"])
        if "round" in params:
            queryset = queryset.filter(round_id=params["round"])
        return queryset


def _with_related(scorecards):
    """What the serializer shows of each scorecard."""
    return scorecards.select_related("rater", "subject", "version__template").prefetch_related(
        Prefetch("scores", queryset=Score.objects.select_related("criterion"))
    )
