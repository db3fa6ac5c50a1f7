"""The team and growth dashboards under /api/v1/dashboards/: the same selectors and
the same rules as the pages.

- `team/`: a manager's own dashboard (404 to anyone without direct reports);
- `team/{manager_id}/`: a manager's dashboard for anyone above them — read-only,
  without their inbox, session ratings as numbers only (404 to everyone else; your
  own id gives your own);
- `managers/`: for a manager of managers, each manager below them (404 otherwise);
- `growth/`: the signed-in person's own growth page.

`weeks` (4, 8, 13 or 26; default 8) picks the window of the coaching numbers; any
other value is a 400 with the reason. Anonymous requests get 401."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from cadence.api_closures import ClosedDaysSerializer
from coaching.api import FocusAreaRefSerializer
from coaching.ratings import RATING_DAYS, USEFULNESS_WEEKS
from core.api import NOT_FOUND, VALIDATION_ERROR
from people.access import HasRole, request_roles
from people.api import PersonRefSerializer, TeamRefSerializer
from people.roles import Role

from . import growth, team
from .api_common import (
    MANAGERS_PAGE,
    PAGE,
    RATE,
    WEEKS,
    HealthCountsSerializer,
    WindowSerializer,
    page_from,
    window_from,
)

MANAGER_ID = OpenApiParameter("manager_id", OpenApiTypes.INT, OpenApiParameter.PATH)


MEAN = {"allow_null": True}


# --- Pieces ----------------------------------------------------------------------------


class SessionRefSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    kind = serializers.CharField()
    scheduled_start = serializers.DateTimeField()


class WeekSessionSerializer(SessionRefSerializer):
    state = serializers.ChoiceField(choices=list(team.WEEK_STATES), source="week_state")
    coachee = PersonRefSerializer(allow_null=True)
    team = TeamRefSerializer(allow_null=True)


class ReasonCountSerializer(serializers.Serializer):
    reason = serializers.CharField(help_text="The cancel reason's label.")
    count = serializers.IntegerField()


class ThisWeekSerializer(serializers.Serializer):
    starts = serializers.DateTimeField(help_text="Monday 00:00 in the manager's time zone.")
    ends = serializers.DateTimeField(help_text="The next Monday 00:00.")
    due = serializers.IntegerField(help_text="Started, whatever became of them.")
    held = serializers.IntegerField(source="counts.held")
    to_log = serializers.IntegerField(source="counts.to_log", help_text="Due, not yet logged.")
    missed = serializers.IntegerField(source="counts.missed")
    cancelled = serializers.IntegerField(source="counts.cancelled")
    to_come = serializers.IntegerField(source="counts.to_come")
    cancelled_ahead = serializers.IntegerField(source="counts.cancelled_ahead")
    cancellations = serializers.SerializerMethodField()
    needs_action = WeekSessionSerializer(many=True, help_text="Due and still to log, or missed.")

    @extend_schema_field(ReasonCountSerializer(many=True))
    def get_cancellations(self, week) -> list[dict]:
        return ReasonCountSerializer(
            [{"reason": r, "count": n} for r, n in week.cancellations.items()], many=True
        ).data


class MonthSerializer(serializers.Serializer):
    month = serializers.DateField()
    others = serializers.FloatField(**MEAN, help_text="Coaches' and peers' mean.")
    self = serializers.FloatField(**MEAN, help_text="The person's own mean.")
    gap = serializers.FloatField(**MEAN, help_text="Self minus others.")


class SkillSerializer(serializers.Serializer):
    focus_area = FocusAreaRefSerializer(source="area", allow_null=True)
    scale_max = serializers.IntegerField()
    months = serializers.SerializerMethodField()
    latest = serializers.FloatField(**MEAN, help_text="Others' mean in the latest month.")
    gap = serializers.FloatField(**MEAN, help_text="Self minus others, latest month with both.")
    gap_month = serializers.DateField(allow_null=True)

    @extend_schema_field(MonthSerializer(many=True))
    def get_months(self, trend) -> list[dict]:
        rows = [{"month": m, "others": o, "self": s, "gap": g} for m, o, s, g in trend.rows]
        return MonthSerializer(rows, many=True).data


class NextOneOnOneSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="next_session_id")
    scheduled_start = serializers.DateTimeField(source="next_session_start")


class PersonRowSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    display_name = serializers.CharField()
    next_one_on_one = serializers.SerializerMethodField()
    last_held_at = serializers.DateTimeField(allow_null=True, help_text="Last held 1:1.")
    not_covered = serializers.BooleanField(
        help_text="No held 1:1 in the last 14 days, while reporting to this manager longer."
    )
    new_here = serializers.BooleanField(
        help_text="Reports to this manager for less than 14 days and has had no 1:1 since: "
        "new, so not counted as not covered."
    )
    reports_since = serializers.DateTimeField(
        allow_null=True, help_text="Since when they report to this manager."
    )
    held_in_a_row = serializers.IntegerField(source="streak")
    last_manager_review_at = serializers.DateTimeField(source="last_review_at", allow_null=True)
    open_commitments = serializers.IntegerField()
    overdue_commitments = serializers.IntegerField()
    goal = serializers.CharField(allow_blank=True, allow_null=True)
    skill = SkillSerializer(source="trend")

    @extend_schema_field(NextOneOnOneSerializer(allow_null=True))
    def get_next_one_on_one(self, person) -> dict | None:
        if not person.next_session_id:
            return None
        return NextOneOnOneSerializer(person).data


class CommitmentRefSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    owner = PersonRefSerializer()
    text = serializers.CharField()
    due_on = serializers.DateField()


class CommitmentsSerializer(serializers.Serializer):
    open = serializers.IntegerField(source="open_commitments")
    overdue = serializers.IntegerField(source="overdue_commitments")
    overdue_oldest = CommitmentRefSerializer(many=True, source="overdue")


class WaitingSerializer(serializers.Serializer):
    request_id = serializers.IntegerField()
    requester = PersonRefSerializer(source="request.requester")
    stream = serializers.CharField(source="request.stream")
    due_on = serializers.DateField(source="request.due_on")


class InboxSerializer(serializers.Serializer):
    count = serializers.IntegerField(source="inbox_count")
    waiting = WaitingSerializer(
        many=True, source="inbox", help_text="The first five, soonest due first."
    )


class UsefulnessSerializer(serializers.Serializer):
    counted_until = serializers.DateTimeField(
        allow_null=True,
        help_text="A Monday, 00:00 UTC: the ratings that closed (could no longer be "
        f"changed, {RATING_DAYS} days after their session) in the `weeks` before it; null until "
        "anything is counted. It moves on only once the ratings of at least three people "
        "have closed since it last moved, so no reading differs from an earlier one by "
        "one person's ratings.",
    )
    weeks = serializers.IntegerField(
        help_text=f"Always {USEFULNESS_WEEKS}, whatever the window asked for: summaries "
        "over two windows could be subtracted."
    )
    ratings = serializers.IntegerField(source="summary.ratings")
    raters = serializers.IntegerField(source="summary.raters")
    shown = serializers.BooleanField(
        source="summary.shown", help_text="Enough ratings from enough people to show."
    )
    average = serializers.FloatField(
        source="summary.average", allow_null=True, help_text="1 to 5; null unless shown."
    )
    distribution = serializers.DictField(
        source="summary.distribution",
        child=serializers.IntegerField(),
        help_text="Score → ratings; empty unless shown.",
    )
    comments = serializers.ListField(
        source="summary.comments",
        child=serializers.CharField(),
        help_text="For the coach alone (on their own dashboard, when shown), alphabetical, "
        "without names; empty for everyone else.",
    )


AS_OF = (
    "The managers' numbers are as of the start of this refresh slot (worked out afresh "
    "every few minutes, like HR's dashboards), over the window ending then."
)


class CoachWeekSerializer(serializers.Serializer):
    week_start = serializers.DateField(help_text="Monday, in your time zone.")
    held = serializers.IntegerField()
    due = serializers.IntegerField()
    adherence = serializers.FloatField(**RATE)


class CoachRowSerializer(serializers.Serializer):
    manager = PersonRefSerializer(source="person")
    adherence = serializers.FloatField(source="health.adherence", **RATE)
    on_time_rate = serializers.FloatField(source="health.on_time_rate", **RATE)
    held_but_empty_rate = serializers.FloatField(source="health.held_but_empty_rate", **RATE)
    close_rate = serializers.FloatField(source="health.close_rate", **RATE)
    coverage = serializers.FloatField(source="health.coverage", **RATE)
    counts = HealthCountsSerializer(source="health")
    plans_with_consecutive_misses = serializers.IntegerField(source="plans_missing")
    longest_run_of_misses = serializers.IntegerField(source="longest_run")
    weeks = CoachWeekSerializer(many=True)
    usefulness = UsefulnessSerializer(allow_null=True)


class PageSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="This page, from 1.")
    pages = serializers.IntegerField(source="paginator.num_pages")
    count = serializers.IntegerField(source="paginator.count", help_text="On all pages.")
    per_page = serializers.IntegerField(source="paginator.per_page")


class TeamDashboardSerializer(serializers.Serializer):
    manager = PersonRefSerializer()
    own = serializers.BooleanField(help_text="Your own dashboard (else read-only, from above).")
    window = WindowSerializer()
    this_week = ThisWeekSerializer(source="week")
    people = PersonRowSerializer(many=True, source="reports")
    commitments = CommitmentsSerializer(source="*")
    inbox = serializers.SerializerMethodField(help_text="Your own dashboard only.")
    coaching = CoachRowSerializer()
    managers_below = CoachRowSerializer(
        many=True,
        allow_null=True,
        source="managers_below.rows",
        help_text="Managers of managers only: a page of the managers below, by name.",
    )
    managers_below_page = PageSerializer(source="managers_below.page", allow_null=True)
    managers_below_as_of = serializers.DateTimeField(
        source="managers_below.as_of", allow_null=True, help_text=AS_OF
    )
    teams_led = TeamRefSerializer(many=True)
    people_below = serializers.IntegerField(source="people_below_count")

    @extend_schema_field(InboxSerializer(allow_null=True))
    def get_inbox(self, dashboard) -> dict | None:
        return InboxSerializer(dashboard).data if dashboard.own else None


class ManagersSerializer(serializers.Serializer):
    as_of = serializers.DateTimeField(help_text=AS_OF)
    window = WindowSerializer(help_text="Ending at `as_of`.")
    managers = CoachRowSerializer(many=True, source="rows")
    page = PageSerializer()


class GrowthGoalSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    title = serializers.CharField()
    success = serializers.CharField(allow_blank=True)


class OwnCommitmentSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    text = serializers.CharField()
    due_on = serializers.DateField()
    overdue = serializers.BooleanField(source="is_overdue")


class ThemeSerializer(serializers.Serializer):
    theme = serializers.CharField()
    recent = serializers.IntegerField()
    earlier = serializers.IntegerField()
    total = serializers.IntegerField()


class RecentSessionSerializer(SessionRefSerializer):
    status = serializers.CharField()


class ToRateSerializer(SessionRefSerializer):
    coach_name = serializers.CharField(allow_null=True)


class GrowthSerializer(serializers.Serializer):
    person = PersonRefSerializer()
    manager = PersonRefSerializer(allow_null=True)
    goals = GrowthGoalSerializer(many=True)
    goal_from_last_one_on_one = serializers.CharField(source="goal_line", allow_blank=True)
    commitments = OwnCommitmentSerializer(many=True)
    skill = SkillSerializer(source="trend")
    themes = ThemeSerializer(
        many=True, help_text="On developmental feedback you received; never evaluative."
    )
    recent_days = serializers.IntegerField(help_text="What `recent` counts back over.")
    inbox = InboxSerializer(source="*")
    last_asked_at = serializers.DateTimeField(
        allow_null=True, help_text="When you last asked anyone for feedback; null if never."
    )
    next_session = SessionRefSerializer(allow_null=True)
    next_to_prepare = SessionRefSerializer(allow_null=True, help_text="Has a prepare page.")
    recent_sessions = RecentSessionSerializer(many=True, source="recent")
    to_rate = ToRateSerializer(many=True, help_text="Held sessions you can still rate.")
    closed_days = ClosedDaysSerializer(
        many=True,
        source="closures",
        help_text="Days the programme is closed in the next 60 days: nothing is planned then.",
    )


# --- Views -----------------------------------------------------------------------------


def _team(request, manager):
    dashboard = team.team_dashboard(
        viewer=request.user,
        manager=manager,
        window=window_from(request),
        charts="",
        managers_page=page_from(request, "managers_page"),
    )
    return Response(TeamDashboardSerializer(dashboard).data)


class MyTeamView(APIView):
    permission_classes = [HasRole.of(Role.MANAGER)]

    @extend_schema(
        operation_id="dashboards_team",
        summary="My team: this week, who has gone without a 1:1, commitments, requests "
        "waiting on me, each person's skill trend, my coaching",
        parameters=[WEEKS, MANAGERS_PAGE],
        responses={200: TeamDashboardSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def get(self, request):
        return _team(request, request.user)


class ManagerTeamView(APIView):
    @extend_schema(
        operation_id="dashboards_team_manager",
        summary="A manager's team, read-only, for anyone above them",
        parameters=[MANAGER_ID, WEEKS, MANAGERS_PAGE],
        responses={200: TeamDashboardSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def get(self, request, manager_id: int):
        if manager_id == request.user.pk and Role.MANAGER in request_roles(request):
            return _team(request, request.user)
        return _team(request, team.access_manager(viewer=request.user, pk=manager_id))


class ManagersView(APIView):
    permission_classes = [HasRole.of(Role.MANAGER_OF_MANAGERS)]

    @extend_schema(
        operation_id="dashboards_managers",
        summary="The managers below me, for the monthly manager review",
        parameters=[WEEKS, PAGE],
        responses={200: ManagersSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def get(self, request):
        review = team.managers_review(
            manager=request.user, weeks=window_from(request).weeks, page=page_from(request, "page")
        )
        return Response(ManagersSerializer(review).data)


class GrowthView(APIView):
    @extend_schema(
        operation_id="dashboards_growth",
        summary="My coaching: goals, commitments, skill trend on my focus area, feedback "
        "themes, requests waiting on me, the next session and what I can rate",
        responses={200: GrowthSerializer},
    )
    def get(self, request):
        return Response(GrowthSerializer(growth.growth_dashboard(person=request.user)).data)
