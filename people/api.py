from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from .access import request_roles
from .models import Team, User
from .roles import Role
from .selectors import current_teams


class PersonRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "display_name"]


class TeamRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "name"]


class MeSerializer(serializers.ModelSerializer):
    manager = PersonRefSerializer(source="reports_to", read_only=True, allow_null=True)
    roles = serializers.ListField(child=serializers.ChoiceField(choices=[r.value for r in Role]))
    teams = TeamRefSerializer(many=True)

    class Meta:
        model = User
        fields = ["id", "email", "display_name", "time_zone", "manager", "roles", "teams"]


class MeView(APIView):
    """The signed-in person, their manager, roles and current teams."""

    @extend_schema(responses=MeSerializer, operation_id="me_retrieve")
    def get(self, request):
        user = User.objects.select_related("reports_to").get(pk=request.user.pk)
        user.roles = sorted(request_roles(request))
        user.teams = list(current_teams(person=user))
        return Response(MeSerializer(user).data)
