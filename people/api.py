from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import VALIDATION_ERROR, StrictSerializer, validated

from . import privacy, services_profile
from .access import request_roles
from .models import Team, User, work_days_of
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


class WorkingHoursSerializer(StrictSerializer):
    days = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=6),
        allow_empty=False,
        max_length=7,
        help_text="Working days, 0 = Monday … 6 = Sunday.",
    )
    starts = serializers.TimeField(format="%H:%M", help_text="Local start, e.g. 09:00.")
    ends = serializers.TimeField(format="%H:%M", help_text="Local end, e.g. 17:00.")
    time_zone = serializers.CharField(read_only=True, help_text="Their own time zone.")


def _working_hours(person: User) -> dict:
    return WorkingHoursSerializer(
        {
            "days": work_days_of(person.work_days),
            "starts": person.work_starts,
            "ends": person.work_ends,
            "time_zone": person.time_zone,
        }
    ).data


class MyWorkingHoursView(APIView):
    """The signed-in person's working hours, in their own time zone: when others may
    find them free for a session (free slots to move a 1:1 to, a policy's 1:1s)."""

    @extend_schema(responses=WorkingHoursSerializer, operation_id="me_working_hours_retrieve")
    def get(self, request):
        return Response(_working_hours(request.user))

    @extend_schema(
        request=WorkingHoursSerializer,
        responses={200: WorkingHoursSerializer, 400: VALIDATION_ERROR},
        operation_id="me_working_hours_update",
    )
    def put(self, request):
        data = validated(WorkingHoursSerializer, request)
        person = services_profile.working_hours_save(
            person=request.user, days=data["days"], starts=data["starts"], ends=data["ends"]
        )
        return Response(_working_hours(person))


def _records(help_text: str):
    return serializers.ListField(child=serializers.DictField(), help_text=help_text)


def _record(help_text: str):
    return serializers.DictField(help_text=help_text)


class MyDataSerializer(serializers.Serializer):
    """The shape of "Download my data" for the schema: one key per section (each app's
    `personal_data` module), a list of records or one record. A test keeps this list
    and the registered sections the same."""

    format = serializers.CharField(help_text="tandem-personal-data/2")
    generated_at = serializers.DateTimeField()
    person_id = serializers.IntegerField()
    profile = _record(
        "Email, name, time zone, working hours, roles, whether an API token and MFA exist."
    )
    reporting_lines = _record("`managers` (yours, with dates) and `reports` (to you).")
    teams = _record("`memberships` with dates and the teams you `lead`.")
    audit_events = _records("Events you caused or that are about you (ids and counts).")
    recorded_calls = _records("Your recorded calls.")
    scorecards = _records("About you or by you, as the reveal rule shows them now.")
    sessions = _records("Sessions you take part in, with shared notes and agenda.")
    private_notes = _records("Your own private notes.")
    commitments = _records("Yours, and those you wrote down for someone.")
    goals = _records("Your development goals.")
    ratings_given = _records("Your usefulness ratings of sessions.")
    diagnoses_written = _records("Diagnoses you wrote as a coach.")
    peer_pairs = _records("Your pairs with the notes and habits you may read.")
    peer_request = serializers.DictField(
        allow_null=True, help_text="Your open request for a peer, or null."
    )
    experiments = _records("Your experiments.")
    learnings = _records("Learnings you published.")
    feedback_received = _records(
        "Both streams; an anonymous answer without author, number or time (`ref`, `created_on`)."
    )
    feedback_given = _records("Both streams.")
    feedback_requests = _record(
        "`made` (when anonymous, only whether enough answered) and `asked_of_me`."
    )
    wins_shared = _records("Wins you shared.")
    notifications = _records("Your notifications (kinds, times, references).")
    settings = _record("Email preferences; when your calendar feed was made.")
    cadence_plans = _records("Plans you run or are coached in.")


class MyDataView(APIView):
    """Everything about the signed-in person that they may see, as one JSON document
    ("Download my data" on the profile page). Each read is audited."""

    @extend_schema(
        operation_id="me_data_retrieve",
        summary="Download my data",
        description=(
            "Profile, reporting lines, teams, sessions with their shared notes, your "
            "private notes, commitments, goals, feedback received and given, requests, "
            "scorecards the reveal rule shows you, ratings you gave, peer pairs, "
            "notifications and the audit trail about you. Never anyone else's private "
            "words. Recorded as `privacy.data_exported`."
        ),
        responses={
            200: OpenApiResponse(MyDataSerializer, description="The document."),
        },
    )
    def get(self, request):
        document = privacy.personal_data_export(
            person=request.user, ip=request.META.get("REMOTE_ADDR")
        )
        return Response(document)
