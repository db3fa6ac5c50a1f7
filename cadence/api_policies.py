"""Cadence policies and the teams that keep them, under /api/v1/:

- `cadence-policies/`: programme configuration — read by everyone signed in, written
  by programme admins (others get 403), through `services_policies.policy_save` as
  the page writes (audited). A policy is never deleted: teams' history names it.
- `team-cadence/`: every team with the policy it keeps, for programme admins only
  (404 to everyone else, as the page), each with how many plans its policy makes that
  it lacks (`plans_missing`) and whether it needs a lead first (`needs_lead`: none, or
  one who is deactivated): `PUT` applies a policy (its plans are made at once,
  never doubled; the one it keeps, only what is missing), `DELETE` ends the team's
  policy and its plans.

Bad input → 400 with field messages, nothing saved. Lists cost a fixed number of
queries."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from coaching.api_focus_areas import config_schema
from core.api import NOT_FOUND, VALIDATION_ERROR, StrictSerializer, query_params, validated
from people.access import HasRole
from people.api import PersonRefSerializer
from people.api_common import ReadOrProgrammeAdmin
from people.models import Team
from people.roles import Role

from . import services
from .models import CadencePolicy, Recurrence, Weekday
from .placement import policy_placement
from .selectors import describe_rule
from .selectors_policies import (
    TEAM_STATES,
    items_in_order,
    needs_lead,
    note_plans_missing,
    teams_with_policy,
)
from .services_policies import ITEM_FIELDS, POLICY_KINDS, item_error_key, policy_save


class PolicyItemSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=POLICY_KINDS)
    recurrence = serializers.ChoiceField(choices=Recurrence.choices)
    weekday = serializers.ChoiceField(choices=Weekday.choices, help_text="0 Monday … 6 Sunday.")
    interval_weeks = serializers.IntegerField(
        min_value=1, max_value=8, default=1, help_text="Weekly rules: every how many weeks."
    )
    week_of_month = serializers.IntegerField(
        min_value=1, max_value=4, default=1, help_text="Monthly n-th weekday rules: which one."
    )
    local_time = serializers.TimeField(help_text="Wall-clock time in each coach's time zone.")
    duration_minutes = serializers.IntegerField(min_value=5, max_value=480)
    rule_text = serializers.SerializerMethodField()

    def get_rule_text(self, item) -> str:
        return describe_rule(item, time_zone="")

    def to_internal_value(self, data):
        values = super().to_internal_value(data)
        values["weekday"] = int(values["weekday"])
        return values


class CadencePolicySerializer(StrictSerializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    items = PolicyItemSerializer(
        many=True, help_text="What teams on the policy keep: one entry per kind of session."
    )
    teams_now = serializers.IntegerField(read_only=True, help_text="Teams keeping it now.")
    created_at = serializers.DateTimeField(read_only=True)

    def validate_items(self, items):
        kinds = [item["kind"] for item in items]
        if len(set(kinds)) != len(kinds):
            raise serializers.ValidationError("Each kind of session appears once.")
        return items


def _policies():
    return CadencePolicy.objects.annotate(
        teams_now=Count("assignments", filter=Q(assignments__ended_at__isnull=True))
    ).prefetch_related(items_in_order())


@extend_schema_view(
    **{
        action: schema
        for action, schema in config_schema(
            "cadence_policies", CadencePolicySerializer, list_parameters=[]
        ).items()
        if action != "destroy"
    }
)
class CadencePolicyViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """What a team keeps: which sessions, how often, when and how long."""

    serializer_class = CadencePolicySerializer
    lookup_value_converter = "int"

    permission_classes = [ReadOrProgrammeAdmin]

    def get_queryset(self):
        return _policies().order_by("name", "pk")

    def perform_create(self, serializer):
        serializer.instance = self._save(serializer.validated_data, None)

    def perform_update(self, serializer):
        serializer.instance = self._save(serializer.validated_data, serializer.instance)

    def _save(self, data: dict, policy: CadencePolicy | None) -> CadencePolicy:
        """Through the service, as the page saves; a PATCH keeps what it leaves out
        (items are replaced whole when sent)."""
        if "items" in data:
            items = {item.pop("kind"): item for item in data["items"]}
        else:
            items = {i.kind: {f: getattr(i, f) for f in ITEM_FIELDS} for i in policy.items.all()}
        try:
            saved = policy_save(
                actor=self.request.user,
                policy=policy,
                name=data.get("name", getattr(policy, "name", "")),
                description=data.get("description", getattr(policy, "description", "")),
                items=items,
            )
        except DjangoValidationError as exc:
            raise serializers.ValidationError(_nested(exc.message_dict)) from None
        return _policies().get(pk=saved.policy.pk)


def _nested(errors: dict) -> dict:
    """The service's `one_on_one.weekday` keys as `{"items": {"one_on_one": {...}}}`."""
    nested: dict = {}
    for key, messages in errors.items():
        kind, _, field = key.partition(".")
        if field and key == item_error_key(kind, field):
            nested.setdefault("items", {}).setdefault(kind, {})[field] = messages
        else:
            nested[key] = messages
    return nested


# --- Teams and the policy each keeps ----------------------------------------------------


class TeamCadenceSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    lead = PersonRefSerializer(allow_null=True)
    needs_lead = serializers.SerializerMethodField(
        help_text="True when the team has no lead (`lead` is null) or its lead is "
        "deactivated (left, or on long leave): applying a policy is refused until one is "
        "named, and a policy it keeps makes no plans (`plans_missing` is 0) until then."
    )
    policy_id = serializers.IntegerField(
        source="kept_policy_id", allow_null=True, help_text="The policy it keeps, or null."
    )
    policy_name = serializers.CharField(source="kept_policy_name", allow_null=True)
    since = serializers.DateTimeField(source="kept_since", allow_null=True)
    plans_missing = serializers.SerializerMethodField(
        help_text="How many plans the policy it keeps makes that it lacks (a kind the "
        "policy gained since, a plan someone ended, a member without their 1:1): applying "
        "that policy again makes them. 0 without a policy."
    )

    def get_needs_lead(self, team) -> bool:
        return needs_lead(team)

    def get_plans_missing(self, team) -> int:
        return team.missing.count if team.missing else 0


class TeamsShownSerializer(serializers.Serializer):
    show = serializers.ChoiceField(choices=[key for key in TEAM_STATES if key], required=False)


class ApplySerializer(StrictSerializer):
    policy = serializers.PrimaryKeyRelatedField(queryset=CadencePolicy.objects.all())


TEAM_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="Team id.")


class PlacedSerializer(serializers.Serializer):
    who = serializers.CharField(help_text="Whose plan, in words: “Rita Rep's 1:1”.")
    kind = serializers.CharField(source="plan.kind")
    coach = PersonRefSerializer(source="plan.coach")
    coachee = PersonRefSerializer(source="plan.coachee", allow_null=True)
    weekday = serializers.IntegerField(source="plan.weekday", help_text="0 = Monday.")
    local_time = serializers.TimeField(source="plan.local_time", format="%H:%M")
    time_zone = serializers.CharField(source="plan.time_zone")
    duration_minutes = serializers.IntegerField(source="plan.duration_minutes")
    moved_because = serializers.CharField(
        help_text="Why not at the policy's own day and time (a clash, someone's working "
        "hours); empty when there."
    )


class UnplacedSerializer(serializers.Serializer):
    who = serializers.CharField()
    why = serializers.CharField()


class EndingPlanSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    words = serializers.CharField(help_text="The plan in words.")


class PlacementSerializer(serializers.Serializer):
    policy = serializers.IntegerField(source="policy.pk")
    team = serializers.IntegerField(source="team.pk")
    placed = PlacedSerializer(many=True, help_text="The plans applying makes, each at its time.")
    unplaced = UnplacedSerializer(many=True, help_text="Who could not be placed, and why.")
    ending = EndingPlanSerializer(
        many=True, help_text="Plans of another policy the team keeps, ended first."
    )


class PreviewSerializer(serializers.Serializer):
    policy = serializers.PrimaryKeyRelatedField(queryset=CadencePolicy.objects.all())


@extend_schema_view(
    list=extend_schema(
        operation_id="team_cadence_list",
        summary="Every team with the cadence policy it keeps (programme admins)",
        parameters=[
            OpenApiParameter("show", str, enum=["with", "without"], description="Only these."),
        ],
        responses={200: TeamCadenceSerializer(many=True), 400: VALIDATION_ERROR, 404: NOT_FOUND},
    ),
    retrieve=extend_schema(
        operation_id="team_cadence_retrieve",
        summary="A team with the cadence policy it keeps",
        parameters=[TEAM_ID],
        responses={200: TeamCadenceSerializer, 404: NOT_FOUND},
    ),
    update=extend_schema(
        operation_id="team_cadence_apply",
        summary="Apply a policy to the team: its plans are made at once, never doubled; "
        "another policy the team kept ends first; the one it keeps makes what is missing",
        parameters=[TEAM_ID],
        request=ApplySerializer,
        responses={200: TeamCadenceSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    ),
    destroy=extend_schema(
        operation_id="team_cadence_end",
        summary="End the team's policy and its plans (held sessions stay)",
        parameters=[TEAM_ID],
        responses={204: None, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    ),
)
class TeamCadenceViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    permission_classes = [HasRole.of(Role.PROGRAMME_ADMIN)]
    serializer_class = TeamCadenceSerializer
    lookup_value_converter = "int"

    def get_queryset(self):
        if self.action == "list":
            return teams_with_policy(
                query_params(TeamsShownSerializer, self.request).get("show", "")
            )
        return teams_with_policy()

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        return page if page is None else note_plans_missing(page)

    def get_object(self):
        return note_plans_missing([super().get_object()])[0]

    def update(self, request, pk: int):
        team = get_object_or_404(Team.objects.select_related("lead"), pk=pk)
        policy = validated(ApplySerializer, request)["policy"]
        try:
            services.policy_apply(policy=policy, team=team, actor=request.user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.message_dict) from None
        (applied,) = note_plans_missing([self.get_queryset().get(pk=pk)])
        return Response(TeamCadenceSerializer(applied).data)

    @extend_schema(
        operation_id="team_cadence_preview",
        summary="What applying a policy to the team would do, nothing written",
        description="Every plan it would make at its day and time (and why there, when "
        "not the policy's own: a clash stepped round, someone's working hours), who "
        "could not be placed and why, and the plans of another policy the team keeps "
        "that would end first. Applying (PUT) makes exactly these.",
        parameters=[
            TEAM_ID,
            OpenApiParameter("policy", int, required=True, description="Policy id."),
        ],
        responses={200: PlacementSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"])
    def preview(self, request, pk: int):
        team = get_object_or_404(Team.objects.select_related("lead__reports_to"), pk=pk)
        policy = query_params(PreviewSerializer, request)["policy"]
        try:
            placement = policy_placement(policy=policy, team=team)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.message_dict) from None
        return Response(PlacementSerializer(placement).data)

    def destroy(self, request, pk: int):
        team = get_object_or_404(Team, pk=pk)
        try:
            services.team_policy_end(team=team, actor=request.user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"detail": exc.messages}) from None
        return Response(status=status.HTTP_204_NO_CONTENT)
