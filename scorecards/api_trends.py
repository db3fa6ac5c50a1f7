"""Skill trends under /api/v1/skill-trends/?person=…: per criterion and month, the
others' mean rating and the self-assessment mean, for yourself or someone below you
(anyone else is 404 — HR and programme admins too: they get aggregates elsewhere).
Only the scorecards the reveal rule shows you count, so a coach's scores do not
reach a subject through their trend before they scored themselves or declined, nor a
round's scores the people above before its scoring is over."""

from datetime import datetime, time

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.response import Response

from core.api import NOT_FOUND, VALIDATION_ERROR, query_params
from people.api import PersonRefSerializer
from people.selectors import access_person

from . import selectors
from .api_common import MAX_ID


class TrendPointSerializer(serializers.Serializer):
    month = serializers.DateField(help_text="The first day of the month.")
    others = serializers.FloatField(
        allow_null=True, help_text="Mean rating by coaches, peers and reviewers."
    )
    self_assessment = serializers.FloatField(
        source="self", allow_null=True, help_text="Mean self-assessment."
    )
    gap = serializers.FloatField(allow_null=True, help_text="Self-assessment minus others.")
    count = serializers.IntegerField(help_text="Scores that month.")


class CriterionTrendSerializer(serializers.Serializer):
    criterion = serializers.IntegerField(source="criterion_id", help_text="The lineage id.")
    title = serializers.CharField(help_text="Its latest title.")
    template = serializers.CharField(help_text="The template's name.")
    change_since = serializers.FloatField(
        allow_null=True, help_text="With `since`: the others' mean after it minus before."
    )
    points = TrendPointSerializer(many=True)


class SkillTrendsSerializer(serializers.Serializer):
    person = PersonRefSerializer()
    since = serializers.DateField(allow_null=True)
    trends = CriterionTrendSerializer(many=True)


class TrendQuerySerializer(serializers.Serializer):
    person = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    since = serializers.DateField(required=False)
    criterion = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), required=False
    )


class SkillTrendViewSet(viewsets.ViewSet):
    """How someone's scores move, criterion by criterion."""

    @extend_schema(
        operation_id="skill_trends_list",
        summary="Someone's skill trends: yours, or of someone below you",
        parameters=[
            OpenApiParameter("person", OpenApiTypes.INT, required=True),
            OpenApiParameter(
                "since",
                OpenApiTypes.DATE,
                description="Also say how much the others' mean moved after this day.",
            ),
            OpenApiParameter(
                "criterion",
                OpenApiTypes.INT,
                many=True,
                explode=True,
                description="Only these criterion lineages (repeat the parameter).",
            ),
        ],
        responses={200: SkillTrendsSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def list(self, request):
        params = query_params(TrendQuerySerializer, request)
        person = access_person(user=request.user, pk=params["person"])
        since = params.get("since")
        trends = selectors.person_trends(
            viewer=request.user,
            person=person,
            since=timezone.make_aware(datetime.combine(since, time.min)) if since else None,
            criteria=params.get("criterion"),
        )
        return Response(
            SkillTrendsSerializer({"person": person, "since": since, "trends": trends}).data
        )
