"""Wins under /api/v1/wins/: the async win shared with the team each week (status
codes as in feedback.api)."""

from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response

from core.api import MAX_ID, NOT_FOUND, VALIDATION_ERROR, StrictSerializer, query_params, validated
from people.api import PersonRefSerializer, TeamRefSerializer
from people.models import Team, TeamMembership

from . import services
from .api import ID_CONVERTER, ID_PARAM
from .models import TEXT_LIMIT, Win

NOT_YOUR_TEAM = "Share wins with a team you are on."


class PostableTeamField(serializers.PrimaryKeyRelatedField):
    """A team the requester is on now or leads. Any other id — unknown or another
    team's — is the same 400, so team ids cannot be probed."""

    default_error_messages = {
        "does_not_exist": NOT_YOUR_TEAM,
        "incorrect_type": "Give a team id (a number), not {data_type}.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("queryset", Team.objects.none())  # for the schema
        super().__init__(**kwargs)

    def get_queryset(self):
        user = self.context["request"].user
        on = TeamMembership.objects.current().filter(person=user).values("team")
        return Team.objects.filter(Q(pk__in=on) | Q(lead=user))


class WinSerializer(serializers.ModelSerializer):
    team = TeamRefSerializer(read_only=True)
    author = PersonRefSerializer(read_only=True)

    class Meta:
        model = Win
        fields = ["id", "team", "author", "title", "link", "text", "created_at"]
        read_only_fields = fields


class WinCreateSerializer(StrictSerializer):
    team = PostableTeamField(help_text="A team you are on or lead.")
    title = serializers.CharField(max_length=200, allow_blank=True)
    link = serializers.URLField(max_length=500, required=False, allow_blank=True, default="")
    text = serializers.CharField(
        max_length=TEXT_LIMIT, required=False, allow_blank=True, default=""
    )


class WinFilterSerializer(serializers.Serializer):
    team = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


@extend_schema_view(
    list=extend_schema(
        operation_id="wins_list",
        summary="Wins shared with your teams, newest first",
        parameters=[OpenApiParameter("team", OpenApiTypes.INT)],
        responses={200: WinSerializer(many=True), 400: VALIDATION_ERROR},
    ),
    retrieve=extend_schema(
        operation_id="wins_retrieve",
        parameters=[ID_PARAM],
        responses={200: WinSerializer, 404: NOT_FOUND},
    ),
)
class WinViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Recognition for the team — separate from both feedback streams."""

    serializer_class = WinSerializer
    lookup_value_converter = ID_CONVERTER

    def get_queryset(self):
        return Win.objects.visible_to(self.request.user).select_related("team", "author")

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(WinFilterSerializer, self.request)
        if "team" in params:
            queryset = queryset.filter(team_id=params["team"])
        return queryset

    @extend_schema(
        operation_id="wins_create",
        summary="Share a win with a team you are on",
        request=WinCreateSerializer,
        responses={201: WinSerializer, 400: VALIDATION_ERROR},
    )
    def create(self, request):
        data = validated(WinCreateSerializer, request)
        win = services.win_share(author=request.user, **data)
        return Response(WinSerializer(win).data, status=status.HTTP_201_CREATED)
