"""Pieces the scorecards API views share: the path parameter, the 403 response, the
read-by-all / written-by-admins permission, strict nested input, and the small
representations (people, calls, templates, scores) several answers embed.

The scorecards API is one module per resource (`api_templates`, `api_calls`,
`api_rounds`, `api_scorecards`, `api_trends`). Views validate, call one service or
selector and respond. The status codes are the same everywhere:

- not visible to the requester → 404 (never 403: existence is not revealed);
- visible, but not theirs to do (scoring in a round they do not rate, closing a round
  someone else opened, writing templates without being a programme admin) → 403
  with the reason;
- bad input or a refused change → 400 naming the field, nothing saved; unknown fields
  are bad input too."""

from collections.abc import Mapping

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema_field
from rest_framework import serializers

from core.api import DetailSerializer, inline_enum
from people.api import PersonRefSerializer

from .models import (
    RaterRole,
    RecordedCall,
    RoundContext,
    Score,
    Scorecard,
    Template,
    WorkKind,
)

# Ids in paths are `<int:pk>`: anything else is the resolver's 404.
ID_CONVERTER = "int"
ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)
# The largest id the database holds (bigint): a larger one in a filter is a 400, not a
# database error.
MAX_ID = 2**63 - 1

FORBIDDEN = OpenApiResponse(
    DetailSerializer,
    description="You can see this but may not do it (not one of its raters, not whoever "
    "opened it, not the subject). Carries the reason.",
)

# The choice sets below are kept inline (see `core.api.inline_enum`): `role`,
# `context`, `kind` and `state` name other sets of choices elsewhere in the API.
CONTEXT_ENUM = inline_enum(RoundContext.values)
RATER_ROLE_ENUM = inline_enum(RaterRole.values)
KIND_ENUM = inline_enum(WorkKind.values)


@extend_schema_field(KIND_ENUM)
class KindField(serializers.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(choices=WorkKind.choices, **kwargs)


class StrictItemSerializer(serializers.Serializer):
    """A nested input item (a criterion, a score) that refuses keys it does not know:
    `StrictSerializer` checks only the top level (nested ones get no initial_data)."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return super().to_internal_value(data)


# --- Small representations -----------------------------------------------------------------


class TemplateRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Template
        fields = ["id", "name", "retired_at"]
        read_only_fields = fields


class CallRefSerializer(serializers.ModelSerializer):
    person = PersonRefSerializer(read_only=True)

    class Meta:
        model = RecordedCall
        fields = ["id", "person", "title", "call_date"]
        read_only_fields = fields


class RecordedCallSerializer(serializers.ModelSerializer):
    person = PersonRefSerializer(read_only=True)
    kind = serializers.SerializerMethodField()

    class Meta:
        model = RecordedCall
        fields = ["id", "person", "kind", "url", "title", "call_date", "timestamps"]
        fields += ["created_at"]
        read_only_fields = fields

    @extend_schema_field(KIND_ENUM)
    def get_kind(self, call) -> str:
        return call.kind


class ScoreSerializer(serializers.ModelSerializer):
    criterion = serializers.IntegerField(
        source="criterion_id", read_only=True, help_text="The criterion version scored."
    )

    class Meta:
        model = Score
        fields = ["criterion", "rating", "evidence_at", "evidence"]
        read_only_fields = fields


class RoundScorecardSerializer(serializers.ModelSerializer):
    """A scorecard inside its round (the round says whose call and which version)."""

    rater = PersonRefSerializer(read_only=True)
    rater_role = serializers.SerializerMethodField()
    scores = ScoreSerializer(many=True, read_only=True)

    class Meta:
        model = Scorecard
        fields = ["id", "rater", "rater_role", "keep", "try_next", "submitted_at", "scores"]
        read_only_fields = fields

    @extend_schema_field(RATER_ROLE_ENUM)
    def get_rater_role(self, card) -> str:
        return card.rater_role
