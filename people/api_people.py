"""People under /api/v1/people/, for programme admins (404 to everyone else), as the
People pages show them: list them (searched by name or email; here, deactivated or
everyone), read one's record — manager and the history of the line, direct reports,
teams, teams led — add someone, change their name, time zone or manager, set their
appointments (HR, programme admin), deactivate and reactivate them. Every change goes
through `people.services_people` as the pages' do: audited, the reporting line keeping
its history, a deactivation ending every sign-in at once; nobody changes their own
appointments or deactivates themselves, and only a superuser changes a superuser.
Every change answers the record. Nobody is deleted (their history names them): no
DELETE, 405. Bad input → 400 with field messages, nothing saved. The list and a record
cost a fixed number of queries whatever their sizes."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.api import (
    NOT_FOUND,
    VALIDATION_ERROR,
    DetailSerializer,
    StrictSerializer,
    query_params,
    validated,
)

from .access import HasRole
from .api import PersonRefSerializer, TeamRefSerializer
from .api_common import PersonField
from .forms_people import EMAIL_LIMIT, NAME_LIMIT, SEARCH_LIMIT
from .models import User
from .roles import GROUP_FOR_ROLE, Role
from .selectors_people import (
    LINES_SHOWN,
    PEOPLE_STATES,
    REPORTS_SHOWN,
    appointments_of,
    people_listed,
    person_record,
)
from .services_people import (
    LEAVING_REASONS,
    appointments_set,
    people_welcome,
    person_create,
    person_deactivate,
    person_reactivate,
    person_update,
    person_welcome,
)

PERSON_ID = OpenApiParameter(
    "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="Person id."
)
TIME_ZONE_LIMIT = User._meta.get_field("time_zone").max_length
# `people.rules`: a superuser's account is changed by superusers only, and nobody
# changes their own appointments or deactivates themselves.
NOT_YOURS = OpenApiResponse(DetailSerializer, description="Not yours to change: the reason.")
APPOINTED = [(str(role), role.label) for role in GROUP_FOR_ROLE]


class AppointedRoleField(serializers.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(choices=APPOINTED, **kwargs)


class PersonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    email = serializers.EmailField()
    time_zone = serializers.CharField()
    is_active = serializers.BooleanField(help_text="False once deactivated.")
    welcome_sent_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When their latest welcome email was sent (its link works for "
        "PASSWORD_RESET_TIMEOUT), or null if none was.",
    )
    reports_to = PersonRefSerializer(allow_null=True, help_text="Their manager, or null.")
    appointments = serializers.SerializerMethodField(
        help_text="The roles they are appointed to (the others follow from the reporting line)."
    )

    @extend_schema_field(serializers.ListField(child=AppointedRoleField()))
    def get_appointments(self, person) -> list[str]:
        return [str(role) for role in appointments_of(person)]  # groups prefetched


class ReportingLineSerializer(serializers.Serializer):
    manager = PersonRefSerializer()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True, help_text="Null while it lasts.")


class PersonTeamSerializer(serializers.Serializer):
    team = TeamRefSerializer()
    joined_at = serializers.DateTimeField()


class PersonDetailSerializer(PersonSerializer):
    reporting_lines = ReportingLineSerializer(
        many=True,
        source="record.lines",
        help_text=f"Who they reported to: the {LINES_SHOWN} most recent lines, latest first.",
    )
    reports = PersonRefSerializer(
        many=True,
        source="record.reports",
        help_text=f"Their active direct reports by name, the first {REPORTS_SHOWN}.",
    )
    reports_count = serializers.IntegerField(
        source="record.reports_count", help_text="How many active direct reports they have."
    )
    teams = PersonTeamSerializer(
        many=True, source="record.memberships", help_text="The teams they are on now, by name."
    )
    teams_led = TeamRefSerializer(many=True, source="record.teams_led")


MANAGER_HELP = "An active person's id, or null for nobody."


class PersonCreateSerializer(StrictSerializer):
    email = serializers.EmailField(
        max_length=EMAIL_LIMIT, help_text="They sign in with it; unique whatever its case."
    )
    display_name = serializers.CharField(max_length=NAME_LIMIT, help_text="As others see it.")
    time_zone = serializers.CharField(
        max_length=TIME_ZONE_LIMIT,
        default="UTC",
        help_text="An IANA time zone (for example Europe/Berlin); UTC when not given.",
    )
    manager = PersonField(required=False, allow_null=True, help_text=MANAGER_HELP)
    welcome = serializers.BooleanField(
        default=False,
        help_text="Email them a link to set their password (as `welcome/` does). Off unless "
        "asked: a directory sync adds people before their first day.",
    )


class PersonChangeSerializer(StrictSerializer):
    display_name = serializers.CharField(max_length=NAME_LIMIT, required=False)
    time_zone = serializers.CharField(
        max_length=TIME_ZONE_LIMIT, required=False, help_text="An IANA time zone."
    )
    manager = PersonField(
        required=False,
        allow_null=True,
        help_text=f"{MANAGER_HELP} Not themselves, nor anyone below them.",
    )


class AppointmentsSerializer(StrictSerializer):
    roles = serializers.ListField(
        child=AppointedRoleField(),
        allow_empty=True,
        help_text="Every role they are to hold of the appointed ones; the others are revoked.",
    )


class LeaveSerializer(StrictSerializer):
    reason = serializers.ChoiceField(
        choices=list(LEAVING_REASONS.items()), help_text="Kept as a code, never as words."
    )


class WelcomedSerializer(serializers.Serializer):
    welcomed = serializers.IntegerField(help_text="How many people a welcome is on its way to.")


class PeopleSearchSerializer(serializers.Serializer):
    q = serializers.CharField(
        max_length=SEARCH_LIMIT,
        required=False,
        allow_blank=True,
        help_text="Part of the name or email.",
    )
    show = serializers.ChoiceField(
        choices=[key for key in PEOPLE_STATES if key],
        required=False,
        allow_blank=True,
        help_text="Who: those still here (left out, the default), `new` (here, never signed "
        "in), `left` (deactivated) or `all`.",
    )


def _detail(pk: int) -> User:
    """The person with their record (`record`): six queries. (An id beyond any is
    simply not found, by Django on SQLite as on PostgreSQL: tested.)"""
    record = person_record(pk=pk)
    person = record.person
    person.record = record
    return person


@extend_schema_view(
    list=extend_schema(
        operation_id="people_list",
        summary="People by name, with their manager and appointments (programme admins)",
        parameters=[PeopleSearchSerializer],
        responses={200: PersonSerializer(many=True), 400: VALIDATION_ERROR, 404: NOT_FOUND},
    ),
    retrieve=extend_schema(
        operation_id="people_retrieve",
        summary="A person's record: manager and the line's history, reports, teams, teams led",
        parameters=[PERSON_ID],
        responses={200: PersonDetailSerializer, 404: NOT_FOUND},
    ),
)
class PersonViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """People, their managers, appointments and whether they are still here."""

    permission_classes = [HasRole.of(Role.PROGRAMME_ADMIN)]
    serializer_class = PersonSerializer
    lookup_value_converter = "int"

    def get_queryset(self):
        return people_listed(**query_params(PeopleSearchSerializer, self.request))

    def get_serializer_class(self):
        inputs = {
            "create": PersonCreateSerializer,
            "partial_update": PersonChangeSerializer,
            "appointments": AppointmentsSerializer,
            "deactivate": LeaveSerializer,
        }
        if self.action in inputs:
            return inputs[self.action]
        return PersonSerializer if self.action == "list" else PersonDetailSerializer

    def _answer(self, pk: int, code=status.HTTP_200_OK) -> Response:
        return Response(PersonDetailSerializer(_detail(pk)).data, code)

    def retrieve(self, request, pk: int):
        return self._answer(pk)

    @extend_schema(
        operation_id="people_create",
        summary="Add someone, with a manager or without. They sign in with their email",
        request=PersonCreateSerializer,
        responses={201: PersonDetailSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def create(self, request):
        person = person_create(actor=request.user, **validated(PersonCreateSerializer, request))
        return self._answer(person.pk, status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="people_partial_update",
        summary="Change someone's name, time zone or manager (null: nobody): all that is "
        "sent, or nothing",
        parameters=[PERSON_ID],
        request=PersonChangeSerializer,
        responses={
            200: PersonDetailSerializer,
            400: VALIDATION_ERROR,
            403: NOT_YOURS,
            404: NOT_FOUND,
        },
    )
    def partial_update(self, request, pk: int):
        person = get_object_or_404(User, pk=pk)
        data = validated(PersonChangeSerializer, request)
        person_update(actor=request.user, person=person, **data)
        return self._answer(pk)

    @extend_schema(
        operation_id="people_appointments",
        summary="Set someone's appointments (HR, programme admin): those sent are held, "
        "the others revoked. Not your own",
        parameters=[PERSON_ID],
        request=AppointmentsSerializer,
        responses={
            200: PersonDetailSerializer,
            400: VALIDATION_ERROR,
            403: NOT_YOURS,
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["put"])
    def appointments(self, request, pk: int):
        person = get_object_or_404(User, pk=pk)
        roles = validated(AppointmentsSerializer, request)["roles"]
        appointments_set(actor=request.user, person=person, roles=map(Role, roles))
        return self._answer(pk)

    @extend_schema(
        operation_id="people_deactivate",
        summary="Deactivate someone, saying why: every sign-in, API token and calendar "
        "feed of theirs ends at once, and every cadence plan they are in; their history "
        "stays. Not yourself",
        parameters=[PERSON_ID],
        request=LeaveSerializer,
        responses={
            200: PersonDetailSerializer,
            400: VALIDATION_ERROR,
            403: NOT_YOURS,
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["post"])
    def deactivate(self, request, pk: int):
        person = get_object_or_404(User, pk=pk)
        reason = validated(LeaveSerializer, request)["reason"]
        person_deactivate(actor=request.user, person=person, reason=reason)
        return self._answer(pk)

    @extend_schema(
        operation_id="people_welcome_never_signed_in",
        summary="Email a welcome to everyone here who has never signed in (after an "
        "import, say) and holds no link that still works, in batches a worker sends. "
        "400 when there is nobody",
        request=None,
        responses={202: WelcomedSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=False, methods=["post"], url_path="welcome", url_name="welcome-all")
    def welcome_never_signed_in(self, request):
        count = people_welcome(actor=request.user)
        return Response({"welcomed": count}, status.HTTP_202_ACCEPTED)

    @extend_schema(
        operation_id="people_welcome",
        summary="Email someone a welcome with a link to set their password (sent by a "
        "worker; the link works once, for PASSWORD_RESET_TIMEOUT). Not for the deactivated",
        parameters=[PERSON_ID],
        request=None,
        responses={202: PersonDetailSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def welcome(self, request, pk: int):
        person_welcome(actor=request.user, person=get_object_or_404(User, pk=pk))
        return self._answer(pk, status.HTTP_202_ACCEPTED)

    @extend_schema(
        operation_id="people_reactivate",
        summary="Let someone deactivated sign in again, afresh, and back into the cadence "
        "of the teams they are on and lead",
        parameters=[PERSON_ID],
        request=None,
        responses={
            200: PersonDetailSerializer,
            400: VALIDATION_ERROR,
            403: NOT_YOURS,
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["post"])
    def reactivate(self, request, pk: int):
        person_reactivate(actor=request.user, person=get_object_or_404(User, pk=pk))
        return self._answer(pk)


def register(router) -> None:
    router.register("people", PersonViewSet, basename="person")
