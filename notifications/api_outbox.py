"""Email delivery through the API, for programme admins (404 to everyone else, as the
page `/programme/delivery/`): `GET /api/v1/delivery/` is the outbox now — what waits
to be sent and since when, what is being sent, what waits to be tried again, and the
newest failures with their error — and `POST /api/v1/delivery/retry/` sends failed
notifications again, one (`notification`) or, without it, all. Only the outbox's
pending, sending and failed rows are read, in a fixed number of queries."""

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import MAX_ID, NOT_FOUND, VALIDATION_ERROR, StrictSerializer, inline_enum, validated
from people.access import HasRole
from people.api import PersonRefSerializer, TeamRefSerializer
from people.roles import Role

from . import services
from .models import NotificationKind
from .selectors_outbox import FAILURES_SHOWN, STALLED_AFTER, delivery_state

STALLED_MINUTES = int(STALLED_AFTER.total_seconds() // 60)


class DeliveryFailureSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.SerializerMethodField()
    kind_name = serializers.CharField(source="get_kind_display", help_text="The kind, in words.")
    recipient = PersonRefSerializer(
        allow_null=True, help_text="Whom it was for; null for a team channel's message."
    )
    team = TeamRefSerializer(
        allow_null=True, help_text="The team whose channel it was for; null for a person's."
    )
    attempts = serializers.IntegerField(help_text="How many times it was tried.")
    last_error = serializers.CharField(allow_blank=True, help_text="Why the last try failed.")
    created_at = serializers.DateTimeField(help_text="When it was queued.")

    @extend_schema_field(inline_enum(NotificationKind.values))
    def get_kind(self, row) -> str:
        return row.kind


class DeliverySerializer(serializers.Serializer):
    waiting = serializers.IntegerField(help_text="Waiting to be sent: due now.")
    oldest_due = serializers.DateTimeField(
        allow_null=True, help_text="When the longest waiting of them became due; null: none."
    )
    later = serializers.IntegerField(
        help_text="To try again later: failed once and backing off, or held back for "
        "their reader's quiet hours."
    )
    sending = serializers.IntegerField(help_text="Being sent now.")
    failed = serializers.IntegerField(help_text="Failed for good (after every try).")
    stalled = serializers.BooleanField(
        help_text=f"Something has waited more than {STALLED_MINUTES} minutes: no worker "
        "seems to be sending."
    )
    failures = DeliveryFailureSerializer(
        many=True, help_text=f"The {FAILURES_SHOWN} newest failed ones, newest first."
    )


class DeliveryRetrySerializer(StrictSerializer):
    notification = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="A failed notification's id. Without it, every failed one.",
    )


class DeliveryRetriedSerializer(serializers.Serializer):
    retried = serializers.IntegerField(
        help_text="How many had failed and will be sent again (0: none had)."
    )


class DeliveryView(APIView):
    """Whether reminders, digests and team-channel messages are going out."""

    permission_classes = [HasRole.of(Role.PROGRAMME_ADMIN)]

    @extend_schema(
        operation_id="delivery_retrieve",
        summary="The outbox now: waiting, being sent, to try again later, failed "
        "(programme admins)",
        responses={200: DeliverySerializer, 404: NOT_FOUND},
    )
    def get(self, request):
        return Response(DeliverySerializer(delivery_state()).data)


class DeliveryRetryView(APIView):
    """Failed notifications sent again: back to waiting, with a fresh count of tries."""

    permission_classes = [HasRole.of(Role.PROGRAMME_ADMIN)]

    @extend_schema(
        operation_id="delivery_retry",
        summary="Send a failed notification again, or every failed one; the senders "
        "start once it is saved",
        request=DeliveryRetrySerializer,
        responses={200: DeliveryRetriedSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def post(self, request):
        one = validated(DeliveryRetrySerializer, request).get("notification")
        retried = services.failed_retry(actor=request.user, ids=None if one is None else [one])
        return Response(DeliveryRetriedSerializer({"retried": retried}).data)
