"""Cadence health under /api/v1/health/ for HR and programme admins (404 for everyone
else): the organisation, every team by week, one team, the attention list. The same
selectors as the pages; a group of fewer than five people comes back `suppressed`
with no numbers at all. `weeks` (4, 8, 13 or 26; default 8) picks the window. And
skills across the organisation (`org_skills`), peer coaching across it (`org_peers`)
and feedback across it (`org_feedback`), month by month."""

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from core.api import NOT_FOUND, VALIDATION_ERROR
from people.access import HasRole
from people.api import PersonRefSerializer, TeamRefSerializer
from people.roles import Role

from . import org, org_peers, snapshots
from .api_common import RATE, WEEKS, HealthCountsSerializer, WindowSerializer, weeks_from
from .views_hr import HEALTH_ROLES

TEAM_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)


class MetricSerializer(serializers.Serializer):
    key = serializers.CharField(source="spec.key")
    label = serializers.CharField(source="spec.label")
    definition = serializers.CharField(source="spec.explained")
    now = serializers.FloatField(**RATE, help_text="This window, 0 to 1.")
    before = serializers.FloatField(**RATE, help_text="The window before, 0 to 1.")
    change = serializers.IntegerField(allow_null=True, help_text="In percentage points.")
    verdict = serializers.ChoiceField(choices=["better", "worse", "steady"])


class CancellationSerializer(serializers.Serializer):
    reason = serializers.CharField()
    label = serializers.CharField()
    now = serializers.IntegerField()
    before = serializers.IntegerField()


class WeekSerializer(serializers.Serializer):
    week_start = serializers.DateField(help_text="Monday, in your time zone.")
    due = serializers.IntegerField()
    held = serializers.IntegerField()
    missed = serializers.IntegerField()
    cancelled = serializers.IntegerField()
    adherence = serializers.FloatField(**RATE)


class HealthSerializer(serializers.Serializer):
    window = WindowSerializer()
    people = serializers.IntegerField(source="reps")
    suppressed = serializers.BooleanField(help_text="Fewer than five people: no numbers are given.")
    counts = HealthCountsSerializer(source="numbers", allow_null=True)
    metrics = MetricSerializer(many=True)
    cancellations = CancellationSerializer(many=True)
    weeks = WeekSerializer(many=True, allow_null=True)


class TeamHealthSerializer(HealthSerializer):
    team = TeamRefSerializer()


class HeatRowSerializer(serializers.Serializer):
    team = TeamRefSerializer()
    lead = PersonRefSerializer(source="team.lead", allow_null=True)
    head = PersonRefSerializer(allow_null=True, help_text="The manager above the lead.")
    people = serializers.IntegerField(source="reps")
    suppressed = serializers.BooleanField()
    adherence = serializers.SerializerMethodField()
    weeks = WeekSerializer(many=True, allow_null=True)

    def get_adherence(self, row) -> float | None:
        return None if row.suppressed else row.window.adherence


class MissedRunsSerializer(serializers.Serializer):
    coach = PersonRefSerializer()
    plans = serializers.IntegerField()
    longest = serializers.IntegerField(help_text="The longest run of misses in a row.")
    kinds = serializers.ListField(child=serializers.CharField())


class CoverageDropSerializer(serializers.Serializer):
    coach = PersonRefSerializer()
    people = serializers.IntegerField(source="reps")
    before = serializers.FloatField()
    now = serializers.FloatField()
    points = serializers.IntegerField(help_text="How far coverage fell, in points.")


class QuietTeamSerializer(serializers.Serializer):
    team = TeamRefSerializer()
    last_review = serializers.DateTimeField(allow_null=True)


class AttentionSerializer(serializers.Serializer):
    window = WindowSerializer()
    missed_runs = MissedRunsSerializer(many=True, source="runs")
    coverage_drops = CoverageDropSerializer(many=True, source="drops")
    quiet_teams = QuietTeamSerializer(many=True, source="quiet")


class _HealthView(APIView):
    permission_classes = [HasRole.of(*HEALTH_ROLES)]

    def parts(self, request, *names: str) -> dict:
        """The parts of this slot's snapshot the answer shows (`snapshots.PARTS`)."""
        return snapshots.organisation_parts(*names, weeks=weeks_from(request), tz=_tz())


class OrganisationHealthView(_HealthView):
    @extend_schema(
        operation_id="health_organisation",
        summary="The organisation's cadence health against the window before",
        parameters=[WEEKS],
        responses={200: HealthSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def get(self, request):
        return Response(HealthSerializer(self.parts(request, "health")["health"]).data)


class TeamsHealthView(_HealthView):
    # Paged as every list: 900 teams at once were 855 KB (bench/routes.py measures it),
    # though the snapshot holds them all ready. Not a GenericAPIView: there is no
    # queryset, and the browsable API would ask for one.
    pagination_class = api_settings.DEFAULT_PAGINATION_CLASS

    @extend_schema(
        operation_id="health_teams",
        summary="Every team's adherence over the window and week by week (the heatmap)",
        description="In the heatmap's order, a page at a time (`?page=`).",
        parameters=[WEEKS],
        responses={200: HeatRowSerializer(many=True), 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def get(self, request):
        paginator = self.pagination_class()
        rows = paginator.paginate_queryset(
            self.parts(request, "heatmap")["heatmap"].rows, request, view=self
        )
        return paginator.get_paginated_response(HeatRowSerializer(rows, many=True).data)


class TeamHealthView(_HealthView):
    @extend_schema(
        operation_id="health_team",
        summary="One team's cadence health against the window before",
        parameters=[TEAM_ID, WEEKS],
        responses={200: TeamHealthSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def get(self, request, pk: int):
        team = org.team_or_404(pk=pk)
        health = snapshots.team(team=team, weeks=weeks_from(request), tz=_tz()).health
        return Response({"team": TeamRefSerializer(team).data, **HealthSerializer(health).data})


class AttentionView(_HealthView):
    @extend_schema(
        operation_id="health_attention",
        summary="Where the rhythm breaks: runs of misses, coverage that fell, quiet teams",
        parameters=[WEEKS],
        responses={200: AttentionSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def get(self, request):
        parts = self.parts(request, "attention", "health")
        found = parts["attention"]
        return Response(
            AttentionSerializer(
                {"window": parts["health"].window, "runs": found.runs, "drops": found.drops,
                 "quiet": found.quiet}
            ).data
        )  # fmt: skip


class MonthSkillSerializer(serializers.Serializer):
    month = serializers.DateField(help_text="The 1st of the month, in your time zone.")
    people = serializers.IntegerField(help_text="People scored by coaches or peers that month.")
    others = serializers.FloatField(
        allow_null=True,
        help_text="The average of the coaches', peers' and call reviews' scores; null when "
        "fewer than five people were scored.",
    )
    self_people = serializers.IntegerField(help_text="People who assessed themselves.")
    self = serializers.FloatField(
        allow_null=True, help_text="Their self-assessments' average; null under five people."
    )
    gap = serializers.FloatField(allow_null=True, help_text="Self minus others.")


class ChangeSerializer(serializers.Serializer):
    first = serializers.DateField()
    last = serializers.DateField()
    points = serializers.FloatField(help_text="The others' average, last month less first.")


class LiftGroupSerializer(serializers.Serializer):
    people = serializers.IntegerField()
    first = serializers.FloatField(help_text="The mean of each person's first scored month.")
    last = serializers.FloatField(help_text="The mean of each person's last scored month.")
    change = serializers.FloatField(help_text="Last less first.")


class LiftSerializer(serializers.Serializer):
    compared = serializers.IntegerField(
        help_text="The people scored by coaches or peers in two months or more of the six "
        "who had 1:1s due."
    )
    kept = LiftGroupSerializer(
        allow_null=True, help_text="Those whose 1:1s were held at least 4 times in 5."
    )
    slipped = LiftGroupSerializer(allow_null=True, help_text="Those whose 1:1s were held less.")
    difference = serializers.FloatField(
        allow_null=True, help_text="How much further the first group moved than the second."
    )


class AreaSkillsSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="area.pk")
    name = serializers.CharField(source="area.name")
    starts_on = serializers.DateField(source="area.starts_on")
    ends_on = serializers.DateField(source="area.ends_on", allow_null=True)
    teams = TeamRefSerializer(many=True, help_text="Empty: the whole organisation.")
    people = serializers.IntegerField(help_text="How many people the focus area is for.")
    suppressed = serializers.BooleanField(help_text="For fewer than five people: no months.")
    scale_max = serializers.IntegerField()
    change = ChangeSerializer(allow_null=True)
    months = MonthSkillSerializer(many=True)
    lift = LiftSerializer(
        allow_null=True,
        help_text="Does coaching move it: the change of the people whose 1:1s were held at "
        "least 4 times in 5 against the rest's; both groups null unless each holds five "
        "people or more; null when the focus area is suppressed.",
    )


class OrgSkillsSerializer(serializers.Serializer):
    as_of = serializers.DateTimeField(
        help_text="The numbers count the scores submitted before this moment (worked out "
        "afresh every few minutes)."
    )
    months = serializers.ListField(child=serializers.DateField(), source="skills.months")
    areas = AreaSkillsSerializer(many=True, source="skills.areas")


class SkillsView(APIView):
    permission_classes = [HasRole.of(*HEALTH_ROLES)]

    @extend_schema(
        operation_id="health_skills",
        summary="Skill on each current focus area across the organisation, month by month",
        description="The last six calendar months in your time zone (the current one so "
        "far): the average of the scores coaches, peers and call reviews gave on the focus "
        "area's criteria to the people it is for, and those people's self-assessments. "
        "Aggregates only; averages over fewer than five people are null.",
        responses={200: OrgSkillsSerializer, 404: NOT_FOUND},
    )
    def get(self, request):
        return Response(OrgSkillsSerializer(snapshots.skills(tz=_tz())).data)


class SkillsBelowView(APIView):
    permission_classes = [HasRole.of(Role.MANAGER)]

    @extend_schema(
        operation_id="dashboards_skills",
        summary="Skill on each current focus area across the people below me, month by month",
        description="As `health/skills/`, over everyone who reports to you, directly or not.",
        responses={200: OrgSkillsSerializer, 404: NOT_FOUND},
    )
    def get(self, request):
        return Response(OrgSkillsSerializer(snapshots.skills(tz=_tz(), below=request.user)).data)


class _UnlessSuppressed(serializers.IntegerField):
    """A month's count, null when the month is suppressed."""

    def __init__(self, **kwargs):
        super().__init__(allow_null=True, **kwargs)

    def get_attribute(self, instance):
        return None if instance.suppressed else super().get_attribute(instance)


class MonthPeersSerializer(serializers.Serializer):
    month = serializers.DateField(help_text="The 1st of the month, in your time zone.")
    suppressed = serializers.BooleanField(
        help_text="Fewer than five people in a pair and fewer than five who met a peer: "
        "every number of the month is null."
    )
    in_pairs = _UnlessSuppressed(
        help_text="People in a started peer pair or trio at any time in the month."
    )
    met = _UnlessSuppressed(help_text="People who held a peer session.")
    sessions = _UnlessSuppressed(help_text="Peer sessions held.")
    started = _UnlessSuppressed(help_text="Pairs whose members all accepted in the month.")
    ended = _UnlessSuppressed(help_text="Started pairs that ended in the month.")


class TodayPeersSerializer(serializers.Serializer):
    suppressed = serializers.BooleanField(
        source="suppressed_now", help_text="Fewer than five people in a pair: no numbers."
    )
    people = serializers.IntegerField(help_text="Active people in the organisation.")
    in_pairs = serializers.IntegerField(
        source="in_pairs_shown", allow_null=True, help_text="Of them, in a live pair or trio."
    )
    share = serializers.FloatField(source="share_now", **RATE)


class OrgPeersSerializer(serializers.Serializer):
    as_of = serializers.DateTimeField()
    today = TodayPeersSerializer(source="peers")
    months = MonthPeersSerializer(many=True, source="peers.months")


class PeersView(APIView):
    permission_classes = [HasRole.of(*HEALTH_ROLES)]

    @extend_schema(
        operation_id="health_peers",
        summary="Peer coaching across the organisation, month by month",
        description="The last six calendar months in your time zone (the current one so "
        "far): people in a peer pair or trio, people who met a peer, peer sessions held, "
        "pairs started and ended; and today's share of the organisation in a pair. The "
        "organisation only (never a team); a month with fewer than five people taking "
        "part, and a today with fewer than five in a pair, come back with null numbers.",
        responses={200: OrgPeersSerializer, 404: NOT_FOUND},
    )
    def get(self, request):
        return Response(OrgPeersSerializer(org_peers.peers_now(tz=_tz())).data)


class MonthFeedbackSerializer(serializers.Serializer):
    month = serializers.DateField(help_text="The 1st of the month, in your time zone.")
    suppressed = serializers.BooleanField(
        help_text="Fewer than five people asked and fewer than five gave: every number "
        "of the month is null."
    )
    asked = _UnlessSuppressed(help_text="People who asked for feedback.")
    requests = _UnlessSuppressed(help_text="Feedback requests they made.")
    givers = _UnlessSuppressed(help_text="People who gave feedback to someone else.")
    unasked_givers = _UnlessSuppressed(help_text="Of them, people who gave some unasked.")
    given = _UnlessSuppressed(help_text="Feedback given, both streams: down + up + peer.")
    down = _UnlessSuppressed(help_text="To someone who reports to the giver.")
    up = _UnlessSuppressed(help_text="To the giver's manager or above.")
    peer = _UnlessSuppressed(help_text="Between peers.")
    unasked = _UnlessSuppressed(help_text="Feedback given that answered no request.")
    wins = _UnlessSuppressed(help_text="Wins shared with a team.")


class ShareSerializer(serializers.Serializer):
    suppressed = serializers.BooleanField(help_text="Fewer than five people: no numbers.")
    people = serializers.IntegerField(help_text="Active people in the organisation.")
    count = serializers.IntegerField(source="shown", allow_null=True)
    share = serializers.FloatField(**RATE)


class RecentFeedbackSerializer(serializers.Serializer):
    days = serializers.IntegerField(source="recent_days")
    asked = ShareSerializer(
        source="asked_recently", help_text="Active people who asked for feedback."
    )
    gave_unasked = ShareSerializer(
        source="gave_unasked_recently",
        help_text="Active people who gave feedback nobody had asked them for.",
    )


class OrgFeedbackSerializer(serializers.Serializer):
    as_of = serializers.DateTimeField()
    recent = RecentFeedbackSerializer(source="feedback")
    months = MonthFeedbackSerializer(many=True, source="feedback.months")


class FeedbackView(APIView):
    permission_classes = [HasRole.of(*HEALTH_ROLES)]

    @extend_schema(
        operation_id="health_feedback",
        summary="Feedback across the organisation, month by month",
        description="The last six calendar months in your time zone (the current one so "
        "far): people who asked for feedback and their requests; people who gave feedback "
        "and those who gave some unasked; feedback given down, up and between peers (both "
        "streams together, never apart) and how much answered no request; wins shared. "
        "And over the last 90 days, the shares of the organisation that asked and that "
        "gave unasked. Counts only, the organisation only; a month with fewer than five "
        "people asking and fewer than five giving, and a share under five people, come "
        "back with null numbers. As of the current refresh slot, like skills.",
        responses={200: OrgFeedbackSerializer, 404: NOT_FOUND},
    )
    def get(self, request):
        return Response(OrgFeedbackSerializer(snapshots.feedback(tz=_tz())).data)


def _tz():
    return timezone.get_current_timezone()
