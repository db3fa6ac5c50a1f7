"""Cadence plans under /api/v1/plans/: the list My cadence shows, one plan, a change of
its rule or pause, and ending it with a reason.

The list is the caller's own live plans, as on My cadence (an empty list for someone
who runs none). A plan is seen by its coach, its coachee and the people above the
coach; it is changed or ended by the coach and the people above them — to anyone else,
the coachee included, it is 404, as on the page. Bad input → 400 with field messages,
nothing saved."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.api import (
    NOT_FOUND,
    VALIDATION_ERROR,
    WALL_TIME_FORMATS,
    StrictSerializer,
    inline_enum,
    query_params,
    validated,
)
from people.access import HasRole
from people.api import PersonRefSerializer, TeamRefSerializer
from people.roles import Role

from . import selectors, services
from .forms import EndPlanForm
from .models import PLANNED_KINDS, CadencePlan, EndReason, Recurrence
from .placement import clashes_of
from .selectors_plans import PLAN_STATES, plans_listed, plans_shown

PLAN_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)
# The time formats the page's form reads: a wall time, never an offset.
# Rule fields only one kind of recurrence uses (PlanRuleForm leaves them out otherwise).
USED_ONLY_BY = {"interval_weeks": Recurrence.WEEKLY, "week_of_month": Recurrence.MONTHLY_NTH}
# The reasons a person may give; "team policy ended" is the policy's own.
END_REASONS = [
    (value, label) for value, label in EndPlanForm.base_fields["reason"].choices if value
]


class PlanSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.SerializerMethodField()
    coach = PersonRefSerializer()
    coachee = PersonRefSerializer(allow_null=True, help_text="Whom a 1:1 or review is with.")
    team = TeamRefSerializer(allow_null=True, help_text="The team of a call review or role-play.")
    recurrence = serializers.SerializerMethodField()
    weekday = serializers.IntegerField(help_text="0 = Monday … 6 = Sunday.")
    local_time = serializers.TimeField(help_text="Wall time in `time_zone`.")
    duration_minutes = serializers.IntegerField()
    interval_weeks = serializers.SerializerMethodField(help_text="Weekly rules: every n weeks.")
    week_of_month = serializers.SerializerMethodField(
        help_text="Monthly n-th weekday rules: which one (1–4)."
    )
    rule_text = serializers.CharField(help_text="The rule in words, as My cadence says it.")
    time_zone = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(allow_null=True)
    paused = serializers.BooleanField(help_text="No new sessions are planned while paused.")
    live = serializers.BooleanField(source="is_live", help_text="Not ended.")
    next_start = serializers.DateTimeField(
        allow_null=True, help_text="When its next scheduled session starts."
    )
    next_session = serializers.IntegerField(
        source="next_session_id", allow_null=True, help_text="That session's id."
    )
    ended_at = serializers.DateTimeField(allow_null=True, help_text="When it ended; null: live.")
    end_reason = serializers.SerializerMethodField(help_text="Why it ended; null: live.")

    @extend_schema_field(inline_enum([value for value, _ in PLANNED_KINDS]))
    def get_kind(self, plan) -> str:
        return plan.kind

    @extend_schema_field(inline_enum(Recurrence.values))
    def get_recurrence(self, plan) -> str:
        return plan.recurrence

    @extend_schema_field(inline_enum(EndReason.values, nullable=True))
    def get_end_reason(self, plan) -> str | None:
        return plan.end_reason or None

    def _if_used(self, plan, name):
        return getattr(plan, name) if plan.recurrence == USED_ONLY_BY[name] else None

    def get_interval_weeks(self, plan) -> int | None:
        return self._if_used(plan, "interval_weeks")

    def get_week_of_month(self, plan) -> int | None:
        return self._if_used(plan, "week_of_month")


class PlanChangedSerializer(PlanSerializer):
    clashes = serializers.ListField(
        child=serializers.CharField(),
        help_text="The other live plans of its people that its sessions now overlap, in "
        "words (the same warning the plan's page gives); empty when none. The change is "
        "made all the same: move one of them.",
    )


class PlanChangeSerializer(StrictSerializer):
    weekday = serializers.IntegerField(
        required=False, min_value=0, max_value=6, help_text="0 = Monday … 6 = Sunday."
    )
    local_time = serializers.TimeField(
        required=False, input_formats=WALL_TIME_FORMATS, help_text="Wall time, e.g. 10:00."
    )
    duration_minutes = serializers.IntegerField(required=False, min_value=5, max_value=480)
    interval_weeks = serializers.IntegerField(
        required=False, min_value=1, max_value=8, help_text="Weekly rules only."
    )
    week_of_month = serializers.IntegerField(
        required=False, min_value=1, max_value=4, help_text="Monthly n-th weekday rules only."
    )
    paused = serializers.BooleanField(
        required=False, help_text="Pause (no new sessions) or resume."
    )

    def validate(self, attrs):
        plan: CadencePlan = self.context["plan"]
        unused = {n for n, recurrence in USED_ONLY_BY.items() if plan.recurrence != recurrence}
        if given := sorted(unused & set(self.initial_data)):
            rule = plan.get_recurrence_display().lower()
            raise serializers.ValidationError(
                {name: [f"This plan's rule ({rule}) does not use it."] for name in given}
            )
        attrs = super().validate(attrs)
        if not attrs:
            usable = [name for name in self.fields if name not in unused]
            raise serializers.ValidationError(f"Send at least one of: {', '.join(usable)}.")
        return attrs


class PlanSearchSerializer(serializers.Serializer):
    q = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        help_text="Part of the coach's, the coachee's or the team's name, or their email.",
    )
    kind = serializers.ChoiceField(choices=PLANNED_KINDS, required=False, allow_blank=True)
    show = serializers.ChoiceField(
        choices=[key for key in PLAN_STATES if key],
        required=False,
        allow_blank=True,
        help_text="Which: running (left out, the default), `paused`, `ended` or `all`.",
    )


class PlanEndSerializer(StrictSerializer):
    reason = serializers.ChoiceField(choices=END_REASONS)
    note = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="Needed when the reason is “other”.",
    )


@extend_schema_view(
    list=extend_schema(
        operation_id="plans_list",
        summary="The plans I run, as My cadence lists them",
        responses={200: PlanSerializer(many=True)},
    ),
    retrieve=extend_schema(
        operation_id="plans_retrieve",
        summary="A plan: for its coach, its coachee and the people above the coach",
        parameters=[PLAN_ID],
        responses={200: PlanSerializer, 404: NOT_FOUND},
    ),
)
class PlanViewSet(viewsets.GenericViewSet):
    """Who meets whom, and when: a plan's rule in local wall time and its zone."""

    serializer_class = PlanSerializer
    lookup_value_converter = "int"

    def get_queryset(self):
        # Every plan one may read; the browsable API asks for it. Each action reads
        # through the selectors, as the pages do.
        return CadencePlan.objects.visible_to(self.request.user)

    def list(self, request):
        # My cadence's own selector, so the list is what the page shows.
        plans = selectors.plans_run_by(coach=request.user)
        page = self.paginate_queryset(plans)
        return self.get_paginated_response(PlanSerializer(page, many=True).data)

    @extend_schema(
        operation_id="plans_programme",
        summary="Every plan of the programme, 50 a page (programme admins)",
        description="As Programme → Plans lists them: running (the default), paused, ended "
        "or all, by kind and by the coach's, coachee's or team's name. 404 to everyone "
        "but programme admins, who may also read, change and end any plan by its id.",
        parameters=[PlanSearchSerializer],
        responses={200: PlanSerializer(many=True), 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(
        detail=False,
        methods=["get"],
        url_path="all",
        url_name="programme",
        permission_classes=[HasRole.of(Role.PROGRAMME_ADMIN)],
    )
    def programme(self, request):
        listed = plans_listed(**query_params(PlanSearchSerializer, request))
        ids = self.paginate_queryset(listed.values_list("pk", flat=True))
        return self.get_paginated_response(PlanSerializer(plans_shown(ids), many=True).data)

    def _answer(self, request, pk):
        return Response(PlanSerializer(selectors.access_plan(user=request.user, pk=pk)).data)

    def _changed(self, request, pk, status=200):
        """The plan, with what it now clashes with (`placement.clashes_of`)."""
        plan = selectors.access_plan(user=request.user, pk=pk)
        plan.clashes = clashes_of(plan=plan)
        return Response(PlanChangedSerializer(plan).data, status=status)

    def retrieve(self, request, pk=None):
        return self._answer(request, pk)

    @extend_schema(
        operation_id="plans_partial_update",
        summary="Change a plan's day, time, length or rhythm, or pause or resume it",
        description="Only the rule fields the plan's recurrence uses. Sessions nobody has "
        "touched yet move to the new rule; held, cancelled, moved or prepared ones stay.",
        parameters=[PLAN_ID],
        request=PlanChangeSerializer,
        responses={200: PlanChangedSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def partial_update(self, request, pk=None):
        plan = selectors.access_plan(user=request.user, pk=pk, manage=True)
        data = validated(PlanChangeSerializer, request, plan=plan)
        # As the page: only what differs reaches the service (no audit of a no-op).
        changes = {name: value for name, value in data.items() if getattr(plan, name) != value}
        if changes:
            services.plan_update(plan=plan, actor=request.user, **changes)
        return self._changed(request, pk)

    @extend_schema(
        operation_id="plans_end",
        summary="End a plan with a reason",
        description="Held sessions stay; future ones nobody has touched go. Ending a plan "
        "that has ended already changes nothing.",
        parameters=[PLAN_ID],
        request=PlanEndSerializer,
        responses={200: PlanSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def end(self, request, pk=None):
        plan = selectors.access_plan(user=request.user, pk=pk, manage=True)
        data = validated(PlanEndSerializer, request)
        services.plan_end(plan=plan, actor=request.user, reason=data["reason"], note=data["note"])
        return self._answer(request, pk)

    @extend_schema(
        operation_id="plans_restart",
        summary="Restart an ended plan with its times",
        description="A new plan between the same people (or for the same team), on the "
        "same day, time, rhythm, length and zone, from today; the ended one stays. 400 "
        "while it runs, for a peer pair's plan, when someone in it left or when they "
        "have a live plan of the kind already. Answers the new plan.",
        parameters=[PLAN_ID],
        request=None,
        responses={201: PlanChangedSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def restart(self, request, pk=None):
        plan = selectors.access_plan(user=request.user, pk=pk, manage=True)
        restarted = services.plan_restart(plan=plan, actor=request.user)
        return self._changed(request, restarted.pk, status=201)


def register(router) -> None:
    """Add the plan viewset to the API router."""
    router.register("plans", PlanViewSet, basename="plan")
