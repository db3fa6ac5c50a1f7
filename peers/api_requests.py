"""Asking for a peer through the API: `/api/v1/peer-request/` is the caller's own
request — read it (404 when there is none), ask or change it (`PUT`), withdraw it
(`DELETE`). Whoever forms pairs sees who asked in `peer-pairs/candidates/`."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from coaching.api import FocusAreaRefSerializer
from core.api import NOT_FOUND, VALIDATION_ERROR, StrictSerializer, validated

from . import selectors
from . import services_requests as services
from .api import CurrentFocusAreaField
from .models import REQUEST_NOTE_LIMIT, PeerRequest


class PeerRequestSerializer(serializers.ModelSerializer):
    focus_area = FocusAreaRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = PeerRequest
        fields = ["note", "focus_area", "created_at", "updated_at"]


class PeerRequestInputSerializer(StrictSerializer):
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=REQUEST_NOTE_LIMIT,
        help_text="What you would like to work on (optional).",
    )
    focus_area = CurrentFocusAreaField(required=False, allow_null=True, default=None)


class PeerRequestView(APIView):
    """Anyone signed in may ask for a peer; only their own request is here."""

    def _mine(self, request) -> PeerRequest:
        mine = selectors.own_peer_request(user=request.user)
        if mine is None:
            raise NotFound("You have not asked for a peer.")
        return mine

    @extend_schema(
        operation_id="peer_request_read",
        summary="My request for a peer",
        responses={200: PeerRequestSerializer, 404: NOT_FOUND},
    )
    def get(self, request):
        return Response(PeerRequestSerializer(self._mine(request)).data)

    @extend_schema(
        operation_id="peer_request_set",
        summary="Ask for a peer, or change what I asked",
        description="Seen by whoever may put you in a pair — your team's lead, the "
        "managers above you, programme admins — not by your peers or HR. Answered, and "
        "removed, once a pair of yours starts.",
        request=PeerRequestInputSerializer,
        responses={200: PeerRequestSerializer, 400: VALIDATION_ERROR},
    )
    def put(self, request):
        data = validated(PeerRequestInputSerializer, request)
        services.peer_request_set(person=request.user, **data)
        return Response(PeerRequestSerializer(self._mine(request)).data)

    @extend_schema(
        operation_id="peer_request_withdraw",
        summary="Withdraw my request for a peer",
        responses={204: OpenApiResponse(description="Withdrawn."), 404: NOT_FOUND},
    )
    def delete(self, request):
        if not services.peer_request_withdraw(person=request.user):
            raise NotFound("You have not asked for a peer.")
        return Response(status=status.HTTP_204_NO_CONTENT)
