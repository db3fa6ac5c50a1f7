"""Commitments under /api/v1/commitments/: the Will step's "I will …", carried into
every later 1:1 until closed (status codes as in coaching.api; a stale `version` is a
409 with what is saved now)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.api import (
    MAX_ID,
    NOT_FOUND,
    VALIDATION_ERROR,
    StrictSerializer,
    page_by_ids,
    query_params,
    validated,
)
from people.api import PersonRefSerializer
from people.api_common import PersonField
from people.selectors import access_person

from . import rules, selectors, services
from .api import FORBIDDEN, ID_CONVERTER, VisibleSessionField, stale_response
from .models import Commitment, CommitmentStatus


class CommitmentSerializer(serializers.ModelSerializer):
    owner = PersonRefSerializer(read_only=True)
    is_overdue = serializers.BooleanField(read_only=True)
    undo_until = serializers.SerializerMethodField(
        help_text="Until when closing it can be undone (`reopen/`); null while open."
    )

    class Meta:
        model = Commitment
        fields = [
            "id",
            "owner",
            "text",
            "evidence",
            "due_on",
            "status",
            "drop_reason",
            "is_overdue",
            "created_in",
            "created_by",
            "created_at",
            "closed_at",
            "closed_in",
            "undo_until",
            "version",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_undo_until(self, commitment):
        until = rules.undo_close_until(commitment)
        return serializers.DateTimeField().to_representation(until) if until else None


class CommitmentCreateSerializer(StrictSerializer):
    session = VisibleSessionField(help_text="The session it is made in.")
    text = serializers.CharField(max_length=500)
    evidence = serializers.CharField(max_length=500, help_text="How you will both know.")
    due_on = serializers.DateField()
    owner = PersonField(
        required=False,
        allow_null=True,
        help_text="Someone in the session; defaults to the coachee (or you).",
    )


class CommitmentUpdateSerializer(StrictSerializer):
    version = serializers.IntegerField(min_value=0)
    text = serializers.CharField(max_length=500, required=False)
    evidence = serializers.CharField(max_length=500, required=False)
    due_on = serializers.DateField(required=False)

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if not set(attrs) - {"version"}:
            raise serializers.ValidationError("Send at least one of: text, evidence, due_on.")
        return attrs


class CommitmentCloseSerializer(StrictSerializer):
    status = serializers.ChoiceField(
        choices=[
            (CommitmentStatus.DONE.value, CommitmentStatus.DONE.label),
            (CommitmentStatus.DROPPED.value, CommitmentStatus.DROPPED.label),
        ]
    )
    reason = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="Required when dropped.",
    )
    session = VisibleSessionField(
        required=False, allow_null=True, help_text="The session it was closed in."
    )


class CommitmentContentSerializer(serializers.Serializer):
    text = serializers.CharField()
    evidence = serializers.CharField()
    due_on = serializers.DateField()


class StaleCommitmentSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current = CommitmentContentSerializer()
    version = serializers.IntegerField()


class CommitmentFilterSerializer(serializers.Serializer):
    owner = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    status = serializers.ChoiceField(choices=CommitmentStatus.choices, required=False)


class CloseRateFilterSerializer(serializers.Serializer):
    owner = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


class CloseRateSerializer(serializers.Serializer):
    owner = serializers.IntegerField(help_text="Whose commitments.")
    weeks = serializers.IntegerField(help_text="How far back: commitments made since then.")
    since = serializers.DateTimeField()
    until = serializers.DateTimeField()
    made = serializers.IntegerField(help_text="Commitments made in the window.")
    done = serializers.IntegerField(help_text="Of those, how many are done now.")
    close_rate = serializers.FloatField(
        source="rate", allow_null=True, help_text="done ÷ made; null when none were made."
    )


COMMITMENT_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)


@extend_schema_view(
    list=extend_schema(
        operation_id="commitments_list",
        parameters=[
            OpenApiParameter("owner", OpenApiTypes.INT),
            OpenApiParameter("status", enum=CommitmentStatus.values),
        ],
        responses={200: CommitmentSerializer(many=True), 400: VALIDATION_ERROR},
    ),
    retrieve=extend_schema(
        operation_id="commitments_retrieve",
        parameters=[COMMITMENT_ID],
        responses={200: CommitmentSerializer, 404: NOT_FOUND},
    ),
)
class CommitmentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The Will step made concrete. Visible to the owner, whoever wrote it down, and
    the owner's management chain; soonest due first."""

    serializer_class = CommitmentSerializer
    lookup_value_converter = ID_CONVERTER

    def _visible(self):
        return Commitment.objects.visible_to(self.request.user).order_by("due_on", "id")

    def get_queryset(self):
        return self._visible().select_related("owner")

    def list(self, request):
        listed = self.filter_queryset(self._visible())
        page = page_by_ids(self, listed, Commitment.objects.select_related("owner"))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(CommitmentFilterSerializer, self.request)
        if "owner" in params:
            queryset = queryset.filter(owner_id=params["owner"])
        if "status" in params:
            queryset = queryset.filter(status=params["status"])
        return queryset

    @extend_schema(
        operation_id="commitments_create",
        request=CommitmentCreateSerializer,
        responses={201: CommitmentSerializer, 400: VALIDATION_ERROR, 403: FORBIDDEN},
    )
    def create(self, request):
        data = validated(CommitmentCreateSerializer, request)
        session = data["session"]
        commitment = services.commitment_create(
            session=session,
            actor=request.user,
            text=data["text"],
            evidence=data["evidence"],
            due_on=data["due_on"],
            owner=data.get("owner"),
        )
        return Response(CommitmentSerializer(commitment).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="commitments_update",
        summary="Edit an open commitment from the version you read",
        description="Send `version` and any of text, evidence, due_on. A stale version "
        "is refused with 409 and what is saved now.",
        parameters=[COMMITMENT_ID],
        request=CommitmentUpdateSerializer,
        responses={
            200: CommitmentSerializer,
            400: VALIDATION_ERROR,
            404: NOT_FOUND,
            409: OpenApiResponse(StaleCommitmentSerializer, description="Someone saved first."),
        },
    )
    def partial_update(self, request, pk=None):
        commitment = self.get_object()
        data = validated(CommitmentUpdateSerializer, request)
        try:
            commitment = services.commitment_update(
                commitment=commitment,
                actor=request.user,
                base_version=data["version"],
                text=data.get("text", commitment.text),
                evidence=data.get("evidence", commitment.evidence),
                due_on=data.get("due_on", commitment.due_on),
            )
        except services.StaleEdit as stale:
            # The service's message speaks of notes; say what changed here.
            return stale_response(stale, "This commitment changed since you opened it.")
        return Response(CommitmentSerializer(commitment).data)

    @extend_schema(
        operation_id="commitments_close",
        summary="Close a commitment as done, or drop it with a reason",
        parameters=[COMMITMENT_ID],
        request=CommitmentCloseSerializer,
        responses={200: CommitmentSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        commitment = self.get_object()
        data = validated(CommitmentCloseSerializer, request)
        commitment = services.commitment_close(
            commitment=commitment,
            actor=request.user,
            status=data["status"],
            reason=data["reason"],
            session=data.get("session"),
        )
        return Response(CommitmentSerializer(commitment).data)

    @extend_schema(
        operation_id="commitments_reopen",
        summary="Undo closing a commitment, in the minute after",
        description="Opens it again as if never closed; after `undo_until` it is a 400 "
        "saying so (make it again as a new commitment).",
        parameters=[COMMITMENT_ID],
        request=None,
        responses={200: CommitmentSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def reopen(self, request, pk=None):
        commitment = services.commitment_reopen(commitment=self.get_object(), actor=request.user)
        return Response(CommitmentSerializer(commitment).data)

    @extend_schema(
        operation_id="commitments_close_rate",
        summary="A person's commitment close rate",
        description="Done ÷ made over the commitments made in the last weeks, as the "
        "dashboards count it. Yours, or with `owner` someone below you (anyone else "
        "is a 404, as their commitments are).",
        parameters=[OpenApiParameter("owner", OpenApiTypes.INT)],
        responses={200: CloseRateSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=False, methods=["get"], url_path="close-rate")
    def close_rate(self, request):
        params = query_params(CloseRateFilterSerializer, request)
        person = access_person(user=request.user, pk=params.get("owner", request.user.pk))
        rate = selectors.close_rate_of(person=person)
        return Response(
            CloseRateSerializer({"owner": person.pk, **vars(rate), "rate": rate.rate}).data
        )
