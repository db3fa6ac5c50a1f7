"""The interpretive-language list under /api/v1/interpretive-terms/: words that
judge rather than observe, flagged as feedback is written; programme admins keep the
list (status codes as in feedback.api)."""

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, viewsets

from core.api import ADMINS_ONLY, NOT_FOUND, VALIDATION_ERROR, refuse_unknown_fields
from people.api_common import ReadOrProgrammeAdmin

from .api import ID_CONVERTER, ID_PARAM
from .models import InterpretiveTerm


class InterpretiveTermSerializer(serializers.ModelSerializer):
    class Meta:
        model = InterpretiveTerm
        fields = ["id", "phrase", "hint"]
        read_only_fields = ["id"]
        # Uniqueness is checked below, on the normalised phrase.
        extra_kwargs = {"phrase": {"validators": []}}

    def validate_phrase(self, value: str) -> str:
        # Matching ignores case and spacing, so "You  Seem" is "you seem".
        phrase = " ".join(value.lower().split())
        if not phrase:
            raise serializers.ValidationError("Give a word or phrase.")
        taken = InterpretiveTerm.objects.filter(phrase=phrase)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise serializers.ValidationError("That phrase is already on the list.")
        return phrase

    def validate(self, attrs):
        attrs = super().validate(attrs)
        refuse_unknown_fields(self)
        return attrs


def _term_schemas() -> dict:
    writes = {400: VALIDATION_ERROR, 403: ADMINS_ONLY}
    term = InterpretiveTermSerializer
    term_id = [ID_PARAM]
    return {
        "list": extend_schema(
            operation_id="interpretive_terms_list", responses={200: term(many=True)}
        ),
        "retrieve": extend_schema(
            operation_id="interpretive_terms_retrieve",
            parameters=term_id,
            responses={200: term, 404: NOT_FOUND},
        ),
        "create": extend_schema(
            operation_id="interpretive_terms_create", responses={201: term, **writes}
        ),
        "update": extend_schema(
            operation_id="interpretive_terms_update",
            parameters=term_id,
            responses={200: term, **writes, 404: NOT_FOUND},
        ),
        "partial_update": extend_schema(
            operation_id="interpretive_terms_partial_update",
            parameters=term_id,
            responses={200: term, **writes, 404: NOT_FOUND},
        ),
        "destroy": extend_schema(
            operation_id="interpretive_terms_destroy",
            parameters=term_id,
            responses={204: None, 403: ADMINS_ONLY, 404: NOT_FOUND},
        ),
    }


@extend_schema_view(**_term_schemas())
class InterpretiveTermViewSet(viewsets.ModelViewSet):
    """Words and phrases that usually signal interpretation rather than observation.
    Feedback forms show their hints; they never block."""

    serializer_class = InterpretiveTermSerializer
    permission_classes = [ReadOrProgrammeAdmin]
    lookup_value_converter = ID_CONVERTER

    def get_queryset(self):
        return InterpretiveTerm.objects.order_by("phrase", "id")
