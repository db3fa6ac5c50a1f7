"""Team channels under /api/v1/team-channels/, for programme admins (404 to everyone
else, as the page): list, read, connect, change (address, format, on or off),
remove, and `POST <id>/test/` to send a test message. The webhook address is
written, never read back: answers carry its host. Bad input → 400, nothing saved."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.api import NOT_FOUND, VALIDATION_ERROR, StrictSerializer, validated
from people.access import HasRole
from people.api import TeamRefSerializer
from people.models import Team
from people.roles import Role

from . import services_channels as services
from .models import TeamChannel
from .selectors_channels import channels

CHANNEL_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)


class TeamChannelSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    team = TeamRefSerializer()
    format = serializers.ChoiceField(choices=TeamChannel.Format.choices)
    host = serializers.SerializerMethodField(help_text="The webhook's host; never the address.")
    is_active = serializers.BooleanField(help_text="Off: nothing is posted to it.")
    last_success_at = serializers.DateTimeField(allow_null=True)
    last_failure_at = serializers.DateTimeField(allow_null=True)
    last_error = serializers.CharField(help_text="Why the last post failed, if it did.")

    def get_host(self, channel) -> str:
        return services.webhook_host(channel.webhook_url)


class ConnectSerializer(StrictSerializer):
    team = serializers.PrimaryKeyRelatedField(queryset=Team.objects.all())
    webhook_url = serializers.CharField(max_length=services.URL_LIMIT, write_only=True)
    format = serializers.ChoiceField(
        choices=TeamChannel.Format.choices, default=TeamChannel.Format.SLACK
    )


class ChangeSerializer(StrictSerializer):
    webhook_url = serializers.CharField(
        max_length=services.URL_LIMIT, required=False, write_only=True
    )
    format = serializers.ChoiceField(choices=TeamChannel.Format.choices, required=False)
    is_active = serializers.BooleanField(required=False)


def _refused(exc: DjangoValidationError):
    detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
    return serializers.ValidationError(detail)


@extend_schema_view(
    list=extend_schema(
        operation_id="team_channels_list",
        summary="Every team channel, by team name (programme admins)",
        responses={200: TeamChannelSerializer(many=True), 404: NOT_FOUND},
    ),
    retrieve=extend_schema(
        operation_id="team_channels_retrieve",
        parameters=[CHANNEL_ID],
        responses={200: TeamChannelSerializer, 404: NOT_FOUND},
    ),
    create=extend_schema(
        operation_id="team_channels_create",
        summary="Connect a team's channel (switched on)",
        request=ConnectSerializer,
        responses={201: TeamChannelSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    ),
    partial_update=extend_schema(
        operation_id="team_channels_partial_update",
        summary="Change the address or format, or switch it off or on",
        parameters=[CHANNEL_ID],
        request=ChangeSerializer,
        responses={200: TeamChannelSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    ),
    destroy=extend_schema(
        operation_id="team_channels_destroy",
        parameters=[CHANNEL_ID],
        responses={204: None, 404: NOT_FOUND},
    ),
)
class TeamChannelViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A team's Slack- or Teams-compatible channel for its reminders and digest."""

    permission_classes = [HasRole.of(Role.PROGRAMME_ADMIN)]
    serializer_class = TeamChannelSerializer
    lookup_value_converter = "int"
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        return channels()

    def _answer(self, channel, code=status.HTTP_200_OK):
        return Response(TeamChannelSerializer(channels().get(pk=channel.pk)).data, code)

    def create(self, request):
        data = validated(ConnectSerializer, request)
        try:
            channel = services.channel_connect(actor=request.user, **data)
        except DjangoValidationError as exc:
            raise _refused(exc) from None
        return self._answer(channel, status.HTTP_201_CREATED)

    def partial_update(self, request, pk: int):
        channel = self.get_object()
        data = validated(ChangeSerializer, request)
        on = data.pop("is_active", None)
        try:
            with transaction.atomic():
                channel = services.channel_change(actor=request.user, channel=channel, **data)
                if on is not None:
                    channel = services.channel_switch(actor=request.user, channel=channel, on=on)
        except DjangoValidationError as exc:
            raise _refused(exc) from None
        return self._answer(channel)

    def destroy(self, request, pk: int):
        services.channel_remove(actor=request.user, channel=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        operation_id="team_channels_test",
        summary="Send a short test message to the channel; its last success or failure "
        "says how it went",
        parameters=[CHANNEL_ID],
        request=None,
        responses={202: TeamChannelSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def test(self, request, pk: int):
        channel = self.get_object()
        try:
            services.channel_test(actor=request.user, channel=channel)
        except DjangoValidationError as exc:
            raise _refused(exc) from None
        return self._answer(channel, status.HTTP_202_ACCEPTED)
