"""Evaluative feedback about the people I review, under /api/v1/feedback-reviews/:
the list and its CSV export, every read audited (status codes as in feedback.api)."""

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, viewsets
from rest_framework.negotiation import BaseContentNegotiation

from core.api import MAX_ID, NOT_FOUND, VALIDATION_ERROR, client_ip, page_by_ids, query_params
from people.access import HasRole, request_roles
from people.api import PersonRefSerializer

from . import evaluations, selectors, services
from .api import AnonymitySafeSerializer
from .models import Feedback


class ReviewItemSerializer(AnonymitySafeSerializer):
    """An evaluative item as a reviewer sees it: never the recipient's reflection,
    themes or shares, and no author where the item is anonymous."""

    recipient = PersonRefSerializer(read_only=True)
    author = serializers.SerializerMethodField(help_text="Null when the feedback is anonymous.")

    class Meta:
        model = Feedback
        fields = [
            "id",
            "ref",
            "stream",
            "direction",
            "recipient",
            "author",
            "anonymous",
            "observation",
            "impact",
            "suggestion",
            "created_at",
            "created_on",
        ]
        read_only_fields = fields

    @extend_schema_field(PersonRefSerializer(allow_null=True))
    def get_author(self, item):
        author = selectors.author_shown(item, self.context["request"].user)
        return None if author is None else PersonRefSerializer(author).data


NOT_REVIEWABLE = "No one with that id among the people whose feedback you review."


class ReviewFilterSerializer(serializers.Serializer):
    person = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    to = serializers.DateField(required=False, validators=[selectors.validate_review_day])

    def get_fields(self):
        fields = super().get_fields()
        # "from" is a Python keyword, so it is added here.
        fields["from"] = serializers.DateField(
            required=False, validators=[selectors.validate_review_day]
        )
        return fields

    def validate(self, attrs):
        first, last = attrs.get("from"), attrs.get("to")
        if first and last and first > last:
            raise serializers.ValidationError({"from": [selectors.FROM_AFTER_TO]})
        return attrs


REVIEW_PARAMS = [
    OpenApiParameter(
        "person",
        OpenApiTypes.INT,
        description="Only feedback received by this person (someone whose feedback you "
        "review; anyone else is 400).",
    ),
    OpenApiParameter("from", OpenApiTypes.DATE, description="From this day on, in your time zone."),
    OpenApiParameter(
        "to", OpenApiTypes.DATE, description="Up to and including this day, in your time zone."
    ),
]
REVIEW_SCOPE = (
    "Evaluative feedback received by the people below you in the reporting line (the "
    "whole chain, not only direct reports); HR: about everyone. Built on the evaluative "
    "stream alone: developmental feedback never appears here. Your own feedback is not "
    "here, nor anonymous answers still waiting for enough others. HR and managers only; "
    "anyone else gets 404."
)


class AnswerErrorsInJSON(BaseContentNegotiation):
    """The CSV export writes its file by hand; whatever else it answers (400 for bad
    filters, 404) is JSON, even to a client that asked for text/csv — rather than a
    406 that hides the reason."""

    def select_parser(self, request, parsers):
        return parsers[0]

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


@extend_schema_view(
    list=extend_schema(
        operation_id="feedback_reviews_list",
        summary="Evaluative feedback about the people you review, newest first",
        description=f"{REVIEW_SCOPE} Every item returned is audited as read by you.",
        parameters=REVIEW_PARAMS,
        responses={
            200: ReviewItemSerializer(many=True),
            400: VALIDATION_ERROR,
            404: NOT_FOUND,
        },
    ),
)
class FeedbackReviewViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """The evaluation screen, for HR and managers: evaluative feedback only."""

    serializer_class = ReviewItemSerializer
    permission_classes = [HasRole.of(*selectors.REVIEWER_ROLES)]

    @property
    def _roles(self):
        return request_roles(self.request)

    def _filters(self) -> selectors.ReviewFilters:
        params = query_params(ReviewFilterSerializer, self.request)
        person = None
        if "person" in params:
            person = selectors.reviewable_person(
                user=self.request.user, roles=self._roles, pk=params["person"]
            )
            if person is None:
                raise serializers.ValidationError({"person": [NOT_REVIEWABLE]})
        return selectors.ReviewFilters(
            person=person, day_from=params.get("from"), day_to=params.get("to")
        )

    def get_queryset(self):
        return selectors.evaluative_reviews(
            user=self.request.user, roles=self._roles, filters=self._filters()
        )

    def list(self, request):
        page = page_by_ids(self, self.get_queryset(), selectors.people_of_items())
        services.evaluative_reads_record(items=page, reader=request.user, ip=client_ip(request))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(
        operation_id="feedback_reviews_export",
        summary="The same evaluative feedback as a CSV file",
        description=f"{REVIEW_SCOPE} Every matching item at once (not paginated), one row "
        "each: date (in your time zone), recipient, recipient email, author (blank when "
        "anonymous), direction, observation, impact, suggestion. Cells that a spreadsheet "
        "would run as a formula start with an apostrophe. The export is audited, and so "
        "is every item in it. Errors are JSON.",
        parameters=REVIEW_PARAMS,
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The CSV file."),
            400: VALIDATION_ERROR,
            404: NOT_FOUND,
        },
    )
    def export(self, request):
        items = evaluations.evaluative_export(
            reader=request.user,
            roles=self._roles,
            filters=self._filters(),
            ip=client_ip(request),
        )
        response = HttpResponse(
            evaluations.evaluative_csv(items=items, reader=request.user),
            content_type="text/csv; charset=utf-8",
        )
        response["Content-Disposition"] = (
            f'attachment; filename="{evaluations.export_filename(request.user)}"'
        )
        return response


feedback_review_export = FeedbackReviewViewSet.as_view(
    {"get": "export"}, content_negotiation_class=AnswerErrorsInJSON
)
