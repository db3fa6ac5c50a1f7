"""`GET /api/v1/sessions/<id>/since-last/`: beside a 1:1, for its coach and coachee,
what happened since the last one (`coaching.since_last`) — as the session page shows
it. 404 for anyone else and for other kinds of session."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import NOT_FOUND
from scorecards.api_common import CallRefSerializer

from . import selectors
from .api import SESSION_ID


class PreviousSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    scheduled_start = serializers.DateTimeField()


class SinceLastSerializer(serializers.Serializer):
    since = serializers.DateTimeField(
        help_text="The start of the last 1:1 the two held together, or 14 days before "
        "this one when they have held none."
    )
    previous = PreviousSerializer(
        allow_null=True, help_text="The last 1:1 the coach and coachee held together."
    )
    will = serializers.CharField(
        help_text="What was to be tried: the last 1:1's Will (at most 280 characters)."
    )
    calls = CallRefSerializer(many=True, help_text="The coachee's calls since, newest first.")
    more_calls = serializers.BooleanField()
    developmental_feedback = serializers.IntegerField(
        source="feedback",
        allow_null=True,
        help_text="Developmental feedback the coachee received since that you may read and "
        "did not write (for the coach: what the coachee shared with them).",
    )


class SinceLastView(APIView):
    @extend_schema(
        operation_id="sessions_since_last",
        summary="What happened since the last 1:1 (for a 1:1's coach and coachee)",
        parameters=[SESSION_ID],
        responses={200: SinceLastSerializer, 404: NOT_FOUND},
    )
    def get(self, request, pk):
        found = selectors.access_since_last(user=request.user, pk=pk)
        return Response(SinceLastSerializer(found).data)
