"""Teams under /api/v1/teams/, for programme admins (404 to everyone else): list them
(searched by name), read one with its members now and those who left lately, create
one, rename it or change its lead, add and remove members. Every change goes through
`people.services_teams` as the admin's pages do — audited, and announced, so a team that
keeps a cadence policy makes a new member's 1:1 plan with its lead and ends a
leaver's. A team is never deleted (its history names it): no DELETE, 405. Bad input →
400 with field messages, nothing saved. The list and a team cost a fixed number of
queries whatever their sizes."""

from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.api import MAX_ID, NOT_FOUND, VALIDATION_ERROR, StrictSerializer, query_params, validated

from . import services_teams
from .access import HasRole
from .api import PersonRefSerializer
from .api_common import PersonField
from .models import Team, TeamMembership
from .roles import Role
from .selectors_teams import LEFT_SHOWN, team_leavers, team_with_members, teams_listed

TEAM_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="Team id.")
PERSON_ID = OpenApiParameter(
    "person_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The member's person id."
)
NAME_LIMIT = services_teams.TEAM_NAME_LIMIT


class TeamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    lead = PersonRefSerializer(allow_null=True)
    members_now = serializers.IntegerField(
        help_text="How many are on the team now, not counting anyone deactivated."
    )
    created_at = serializers.DateTimeField()


class MemberSerializer(serializers.Serializer):
    person = PersonRefSerializer()
    joined_at = serializers.DateTimeField()


class LeaverSerializer(MemberSerializer):
    left_at = serializers.DateTimeField()


class TeamDetailSerializer(TeamSerializer):
    members = MemberSerializer(
        many=True, source="current", help_text="Who is on the team now, by name."
    )
    left = LeaverSerializer(
        many=True, help_text=f"The {LEFT_SHOWN} who left most recently, latest first."
    )


# Checked by the service, which answers a blank, taken or too long name with its own
# message (as the pages show it); the schema still says how long a name may be.
@extend_schema_field({"type": "string", "maxLength": NAME_LIMIT})
class TeamNameField(serializers.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("allow_blank", True)
        kwargs.setdefault("help_text", f"Unique whatever its case; up to {NAME_LIMIT} characters.")
        super().__init__(**kwargs)


LEAD_HELP = "An active person's id, or null for no lead."


class TeamCreateSerializer(StrictSerializer):
    name = TeamNameField()
    lead = PersonField(required=False, allow_null=True, help_text=LEAD_HELP)


class TeamChangeSerializer(StrictSerializer):
    name = TeamNameField(required=False)
    lead = PersonField(required=False, allow_null=True, help_text=LEAD_HELP)


class MemberAddSerializer(StrictSerializer):
    person = PersonField(help_text="An active person's id.")


class TeamSearchSerializer(serializers.Serializer):
    q = serializers.CharField(
        max_length=NAME_LIMIT, required=False, allow_blank=True, help_text="Part of the name."
    )


def _detail(pk: int) -> Team:
    """The team with its current members and recent leavers: three queries."""
    team = team_with_members(pk=pk)
    team.left = team_leavers(team)
    return team


def _locked(pk: int) -> Team:
    """The team, its row locked to the end of the transaction: changes to one team
    through the API are made one at a time (two requests adding the same person at once
    do not both try to open a membership)."""
    return get_object_or_404(Team.objects.select_for_update(), pk=pk)


@extend_schema_view(
    list=extend_schema(
        operation_id="teams_list",
        summary="Every team, by name, with its lead and how many are on it now (programme admins)",
        parameters=[TeamSearchSerializer],
        responses={200: TeamSerializer(many=True), 400: VALIDATION_ERROR, 404: NOT_FOUND},
    ),
    retrieve=extend_schema(
        operation_id="teams_retrieve",
        summary="A team with its members now and those who left most recently",
        parameters=[TEAM_ID],
        responses={200: TeamDetailSerializer, 404: NOT_FOUND},
    ),
)
class TeamViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Teams, their leads and members. Membership changes move the team's cadence."""

    permission_classes = [HasRole.of(Role.PROGRAMME_ADMIN)]
    serializer_class = TeamSerializer
    lookup_value_converter = "int"

    def get_queryset(self):
        return teams_listed(q=query_params(TeamSearchSerializer, self.request).get("q", ""))

    def get_serializer_class(self):
        inputs = {
            "create": TeamCreateSerializer,
            "partial_update": TeamChangeSerializer,
            "members": MemberAddSerializer,
        }
        if self.action in inputs:
            return inputs[self.action]
        return TeamSerializer if self.action == "list" else TeamDetailSerializer

    def _answer(self, pk: int, code=status.HTTP_200_OK) -> Response:
        return Response(TeamDetailSerializer(_detail(pk)).data, code)

    def retrieve(self, request, pk: int):
        return self._answer(pk)

    @extend_schema(
        operation_id="teams_create",
        summary="Create a team, with a lead or without",
        request=TeamCreateSerializer,
        responses={201: TeamDetailSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def create(self, request):
        data = validated(TeamCreateSerializer, request)
        team = services_teams.team_create(
            name=data["name"], lead=data.get("lead"), actor=request.user
        )
        return self._answer(team.pk, status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="teams_partial_update",
        summary="Rename the team, or change or clear its lead: all that is sent, or nothing",
        parameters=[TEAM_ID],
        request=TeamChangeSerializer,
        responses={200: TeamDetailSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def partial_update(self, request, pk: int):
        team = get_object_or_404(Team, pk=pk)
        data = validated(TeamChangeSerializer, request)
        services_teams.team_update(team=team, actor=request.user, **data)
        return self._answer(pk)

    @extend_schema(
        operation_id="teams_members_add",
        summary="Add someone to the team (201); someone already on it stays as they are "
        "(200). A team keeping a cadence policy makes their 1:1 plan with its lead",
        parameters=[TEAM_ID],
        request=MemberAddSerializer,
        responses={
            200: TeamDetailSerializer,
            201: TeamDetailSerializer,
            400: VALIDATION_ERROR,
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["post"])
    def members(self, request, pk: int):
        get_object_or_404(Team, pk=pk)
        person = validated(MemberAddSerializer, request)["person"]
        with transaction.atomic():
            team = _locked(pk)
            current = TeamMembership.objects.current().filter(team=team, person=person)
            already = current.exists()
            services_teams.team_member_add(team=team, person=person, actor=request.user)
        return self._answer(pk, status.HTTP_200_OK if already else status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="teams_members_remove",
        summary="Take someone off the team: their membership ends (kept as history), and "
        "so does their 1:1 plan of the team's cadence policy",
        parameters=[TEAM_ID, PERSON_ID],
        responses={204: None, 404: NOT_FOUND},
    )
    @action(
        detail=True,
        methods=["delete"],
        url_path="members/<int:person_id>",
        url_name="member",
    )
    def member_remove(self, request, pk: int, person_id: int):
        if person_id > MAX_ID:  # no such id; SQLite cannot even compare a foreign key to it
            raise Http404
        with transaction.atomic():
            team = _locked(pk)
            membership = get_object_or_404(
                TeamMembership.objects.current().select_related("person"),
                team=team,
                person_id=person_id,
            )
            services_teams.team_member_remove(
                team=team, person=membership.person, actor=request.user
            )
        return Response(status=status.HTTP_204_NO_CONTENT)


def register(router) -> None:
    router.register("teams", TeamViewSet, basename="team")
