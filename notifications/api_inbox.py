"""The caller's own notifications under /api/v1/notifications/ (newest first, each the
one line the page shows: kinds, names and times, never anyone's words), marking them
read, and their email preferences at /api/v1/me/notification-preferences/.

Only ever the caller's own rows: there is no id of anyone else's to ask for."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import (
    MAX_ID,
    VALIDATION_ERROR,
    WALL_TIME_FORMATS,
    StrictSerializer,
    inline_enum,
    refuse_unknown_fields,
    validated,
)

from . import selectors_inbox as selectors
from .models import NotificationKind, NotificationPreference
from .services import PREFERENCE_FIELDS, notification_preference_save, notifications_mark_read


class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="notification.pk")
    kind = serializers.SerializerMethodField()
    text = serializers.CharField(help_text="The line the notifications page shows.")
    url = serializers.CharField(
        allow_null=True, help_text="The page it links to on this site, if any (a path)."
    )
    created_at = serializers.DateTimeField(source="notification.created_at")
    read_at = serializers.DateTimeField(source="notification.read_at", allow_null=True)

    @extend_schema_field(inline_enum(NotificationKind.values))
    def get_kind(self, line) -> str:
        return line.notification.kind


class MarkReadSerializer(StrictSerializer):
    up_to = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        help_text="Only those up to this id — the newest you showed — so one that arrived "
        "since stays unread. Without it, all.",
    )


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField(help_text="How many were unread and are read now.")


@extend_schema_view(
    list=extend_schema(
        operation_id="notifications_list",
        summary="My notifications, newest first",
        responses={200: NotificationSerializer(many=True)},
    ),
)
class NotificationViewSet(viewsets.GenericViewSet):
    """Reminders, misses, digests and requests addressed to you, one line each."""

    serializer_class = NotificationSerializer

    def get_queryset(self):
        return selectors.inbox(user=self.request.user)

    def list(self, request):
        page = self.paginate_queryset(self.get_queryset())
        # Lines name days and times: in the reader's zone, as the page (whose middleware
        # sets it from the session) — a token's request comes without one.
        with timezone.override(request.user.tzinfo):
            lines = selectors.notification_lines(user=request.user, rows=page)
            data = NotificationSerializer(lines, many=True).data
        return self.get_paginated_response(data)

    @extend_schema(
        operation_id="notifications_mark_read",
        summary="Mark my unread notifications read",
        request=MarkReadSerializer,
        responses={200: MarkedSerializer, 400: VALIDATION_ERROR},
    )
    @action(detail=False, methods=["post"], url_path="read")
    def read(self, request):
        up_to = validated(MarkReadSerializer, request).get("up_to")
        marked = notifications_mark_read(person=request.user, up_to=up_to)
        return Response(MarkedSerializer({"marked": marked}).data)


class NotificationPreferenceSerializer(serializers.ModelSerializer):
    quiet_from = serializers.TimeField(
        allow_null=True,
        input_formats=WALL_TIME_FORMATS,
        help_text="No email from this time… (your time zone; null for none).",
    )
    quiet_until = serializers.TimeField(
        allow_null=True, input_formats=WALL_TIME_FORMATS, help_text="…until this time."
    )

    class Meta:
        model = NotificationPreference
        fields = list(PREFERENCE_FIELDS)
        # A PUT sets every preference; a PATCH (partial) any of them.
        extra_kwargs = {name: {"required": True} for name in PREFERENCE_FIELDS}

    def validate(self, attrs):
        refuse_unknown_fields(self)
        if not attrs:
            raise serializers.ValidationError(f"Send at least one of: {', '.join(self.fields)}.")
        return attrs


class NotificationPreferenceView(APIView):
    """Which kinds reach you by email (the in-app list always has everything), and
    quiet hours: both ends or neither, at two different times."""

    @extend_schema(
        operation_id="notification_preferences_read",
        summary="My email preferences",
        responses={200: NotificationPreferenceSerializer},
    )
    def get(self, request):
        saved = NotificationPreference.objects.filter(person=request.user).first()
        return Response(NotificationPreferenceSerializer(saved or NotificationPreference()).data)

    def _save(self, request, *, partial: bool):
        serializer = NotificationPreferenceSerializer(data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        preference = notification_preference_save(person=request.user, **serializer.validated_data)
        return Response(NotificationPreferenceSerializer(preference).data)

    @extend_schema(
        operation_id="notification_preferences_set",
        summary="Set all my email preferences",
        request=NotificationPreferenceSerializer,
        responses={200: NotificationPreferenceSerializer, 400: VALIDATION_ERROR},
    )
    def put(self, request):
        return self._save(request, partial=False)

    @extend_schema(
        operation_id="notification_preferences_change",
        summary="Change some of my email preferences",
        request=NotificationPreferenceSerializer,
        responses={200: NotificationPreferenceSerializer, 400: VALIDATION_ERROR},
    )
    def patch(self, request):
        return self._save(request, partial=True)


def register(router) -> None:
    """Add the notification viewset to the API router."""
    router.register("notifications", NotificationViewSet, basename="notification")
