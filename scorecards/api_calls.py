"""Recorded calls under /api/v1/recorded-calls/: the pieces of work scored. Visible:
your own, those of people below you, and the calls of rounds you may see (404 for
anyone else). You add calls of your own or of people below you."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response

from core.api import NOT_FOUND, VALIDATION_ERROR, StrictSerializer, query_params, validated
from people.models import User
from people.selectors import people_below

from . import selectors, services
from .api_common import ID, ID_CONVERTER, MAX_ID, KindField, RecordedCallSerializer
from .models import RecordedCall, WorkKind

# The service's own refusal, given for any id that is not you or below you, so ids of
# people you do not manage cannot be probed.
NOT_YOURS = "Add calls of your own or of people below you."


@extend_schema_field(OpenApiTypes.INT)
class CallPersonField(serializers.PrimaryKeyRelatedField):
    default_error_messages = {
        "does_not_exist": NOT_YOURS,
        "incorrect_type": "Give a person's id (a number), not {data_type}.",
    }

    def get_queryset(self):
        user = self.context["request"].user
        below = people_below(person=user).filter(is_active=True).values("pk")
        return User.objects.filter(pk__in=below) | User.objects.filter(pk=user.pk)


class RecordedCallCreateSerializer(StrictSerializer):
    person = CallPersonField(required=False, help_text="Whose call it is; defaults to you.")
    kind = KindField(required=False, default=WorkKind.CALL)
    url = serializers.URLField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="The recording; required for a call.",
    )
    title = serializers.CharField(max_length=200)
    call_date = serializers.DateField(help_text="Within the last year.")
    timestamps = serializers.CharField(
        max_length=2000,
        required=False,
        allow_blank=True,
        default="",
        help_text="Moments worth a look, one per line, e.g. “04:10 first pricing question”.",
    )


class CallFilterSerializer(serializers.Serializer):
    person = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


@extend_schema_view(
    list=extend_schema(
        operation_id="recorded_calls_list",
        summary="Recorded calls you may see, newest first",
        parameters=[OpenApiParameter("person", OpenApiTypes.INT, description="Whose calls.")],
        responses={200: RecordedCallSerializer(many=True), 400: VALIDATION_ERROR},
    ),
    retrieve=extend_schema(
        operation_id="recorded_calls_retrieve",
        parameters=[ID],
        responses={200: RecordedCallSerializer, 404: NOT_FOUND},
    ),
)
class RecordedCallViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Recorded calls and role-plays: the work a scoring round measures."""

    serializer_class = RecordedCallSerializer
    lookup_value_converter = ID_CONVERTER

    def get_serializer_class(self):
        # The browsable API's POST form: the input, not the representation.
        if self.action == "create":
            return RecordedCallCreateSerializer
        return RecordedCallSerializer

    def get_queryset(self):
        return (
            selectors.calls_for_lists(self.request.user)
            .select_related("person")
            .order_by("-call_date", "-id")
        )

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(CallFilterSerializer, self.request)
        if "person" in params:
            queryset = queryset.filter(person_id=params["person"])
        return queryset

    @extend_schema(
        operation_id="recorded_calls_create",
        request=RecordedCallCreateSerializer,
        responses={201: RecordedCallSerializer, 400: VALIDATION_ERROR},
    )
    def create(self, request):
        data = validated(RecordedCallCreateSerializer, request)
        call = services.recorded_call_create(
            actor=request.user,
            person=data.get("person") or request.user,
            title=data["title"],
            call_date=data["call_date"],
            url=data["url"],
            timestamps=data["timestamps"],
            kind=data["kind"],
        )
        call = RecordedCall.objects.select_related("person").get(pk=call.pk)
        return Response(RecordedCallSerializer(call).data, status=status.HTTP_201_CREATED)
