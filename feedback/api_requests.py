"""Feedback requests under /api/v1/: asking named colleagues (ask, answer, decline)
and the inbox of requests waiting on me (status codes and the firewall as in
feedback.api)."""

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from coaching.api import FocusAreaRefSerializer
from coaching.api_goals import FocusAreaIdField, GoalRefSerializer, OwnGoalField
from core.api import (
    NOT_FOUND,
    VALIDATION_ERROR,
    StrictSerializer,
    inline_enum,
    validated,
)
from people.api import PersonRefSerializer
from people.api_common import PersonField
from people.models import User

from . import selectors, services
from .api import (
    FORBIDDEN,
    ID_CONVERTER,
    ID_PARAM,
    FeedbackGivenSerializer,
    FeedbackSerializer,
    given,
    text_field,
)
from .models import FeedbackRequest, RequestedResponder, ResponderStatus, Stream


class ResponderSerializer(serializers.Serializer):
    person = PersonRefSerializer(source="responder")
    status = serializers.SerializerMethodField(
        help_text="Null on anonymous requests, so the requester cannot tell who answered."
    )
    answered_at = serializers.SerializerMethodField()
    declined_at = serializers.SerializerMethodField()

    def _shown(self, asked) -> bool:
        return not asked.request.anonymous or asked.responder_id == self.context["viewer"].pk

    @extend_schema_field(inline_enum(ResponderStatus.values, nullable=True))
    def get_status(self, asked):
        return asked.status if self._shown(asked) else None

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_answered_at(self, asked):
        return serializers.DateTimeField().to_representation(
            asked.answered_at if self._shown(asked) else None
        )

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_declined_at(self, asked):
        return serializers.DateTimeField().to_representation(
            asked.declined_at if self._shown(asked) else None
        )


ANONYMOUS_COUNT = "Null on an anonymous request: see `answered_band`."


class ResponseCountsSerializer(serializers.Serializer):
    asked = serializers.IntegerField()
    answered = serializers.IntegerField(allow_null=True, help_text=ANONYMOUS_COUNT)
    declined = serializers.IntegerField(allow_null=True, help_text=ANONYMOUS_COUNT)
    waiting = serializers.IntegerField(allow_null=True, help_text=ANONYMOUS_COUNT)
    answered_band = serializers.CharField(
        allow_null=True,
        help_text=f"On an anonymous request, all that is told of how many answered: "
        f"“fewer than {services.ANONYMITY_THRESHOLD}” or “{services.ANONYMITY_THRESHOLD} "
        "or more” (a live count would let answers be matched to people). Null otherwise.",
    )


class FeedbackRequestSerializer(serializers.ModelSerializer):
    """A request as the requester or one of the people asked sees it. The requester
    sees everyone asked (on an anonymous request without who answered, only how many);
    someone asked sees only their own place in it."""

    requester = PersonRefSerializer(read_only=True)
    responders = serializers.SerializerMethodField()
    counts = serializers.SerializerMethodField(help_text="For the requester; null for others.")
    answers_shown = serializers.SerializerMethodField(
        help_text="False until an anonymous request's answers are released: together, "
        f"once it is over (closed, or nobody asked still waiting) with at least "
        f"{services.ANONYMITY_THRESHOLD} answers."
    )
    goal = GoalRefSerializer(
        read_only=True, allow_null=True, help_text="The requester's goal it is for."
    )
    focus_area = FocusAreaRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = FeedbackRequest
        fields = [
            "id",
            "requester",
            "question",
            "topic",
            "goal",
            "focus_area",
            "stream",
            "anonymous",
            "due_on",
            "created_at",
            "responders",
            "counts",
            "answers_shown",
        ]
        read_only_fields = fields

    @property
    def _viewer(self) -> User:
        return self.context["request"].user

    def _asked(self, request):
        # `responders` is prefetched with each responder: no query per row. In the order
        # asked (the prefetch of `selectors.access_request` is unordered).
        asked = sorted(request.responders.all(), key=lambda row: row.pk)
        for row in asked:
            row.request = request  # the responder serializer reads `anonymous`
        return asked

    @extend_schema_field(ResponderSerializer(many=True))
    def get_responders(self, request):
        asked = self._asked(request)
        if request.requester_id != self._viewer.pk:
            asked = [row for row in asked if row.responder_id == self._viewer.pk]
        return ResponderSerializer(asked, many=True, context={"viewer": self._viewer}).data

    @extend_schema_field(ResponseCountsSerializer(allow_null=True))
    def get_counts(self, request):
        if request.requester_id != self._viewer.pk:
            return None
        statuses = [row.status for row in self._asked(request)]
        answered = statuses.count(ResponderStatus.ANSWERED)
        if request.anonymous:
            band = selectors.answered_band(answered)
            return {
                "asked": len(statuses),
                "answered": None,
                "declined": None,
                "waiting": None,
                "answered_band": band,
            }
        return {
            "asked": len(statuses),
            "answered": answered,
            "declined": statuses.count(ResponderStatus.DECLINED),
            "waiting": statuses.count(ResponderStatus.WAITING),
            "answered_band": None,
        }

    def get_answers_shown(self, request) -> bool:
        return selectors.anonymous_answers_may_show(request)  # from the prefetched rows


class FeedbackRequestDetailSerializer(FeedbackRequestSerializer):
    answers = serializers.SerializerMethodField(
        help_text="For the requester: the answers that may be shown (anonymous ones "
        "only once released — see `answers_shown` — and without their authors). Null for "
        "others."
    )

    class Meta(FeedbackRequestSerializer.Meta):
        fields = [*FeedbackRequestSerializer.Meta.fields, "answers"]
        read_only_fields = fields

    @extend_schema_field(FeedbackSerializer(many=True, allow_null=True))
    def get_answers(self, request):
        if request.requester_id != self._viewer.pk:
            return None
        answers = selectors.answers_to(user=self._viewer, request=request).select_related(
            "recipient"
        )
        return FeedbackSerializer(answers, many=True, context=self.context).data


class FeedbackRequestCreateSerializer(StrictSerializer):
    responders = PersonField(many=True, allow_empty=True, help_text="Ids of the people asked.")
    due_on = serializers.DateField(help_text="Today or later, within six months.")
    question = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="Defaults to “What's one thing I could do differently to be more effective?”",
    )
    topic = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    goal = OwnGoalField(
        required=False,
        allow_null=True,
        default=None,
        help_text="One of your goals the answers should help with; those asked see its title.",
    )
    focus_area = FocusAreaIdField(
        required=False,
        allow_null=True,
        default=None,
        help_text="A current focus area that applies to you.",
    )
    stream = serializers.ChoiceField(
        choices=Stream.choices, required=False, default=Stream.DEVELOPMENTAL
    )
    anonymous = serializers.BooleanField(
        required=False,
        default=False,
        help_text=f"Upward only: at least {services.ANONYMITY_THRESHOLD} of your direct "
        "reports asked, and only them; answers shown together once the request is over "
        "(its due date ended anywhere on Earth, or nobody still waiting) with that many, and "
        "none taken after it closes.",
    )


class AnswerSerializer(StrictSerializer):
    observation = text_field(help_text="What happened — what you saw or heard.")
    impact = text_field(required=False, default="")
    suggestion = text_field(required=False, default="")


class EmptySerializer(StrictSerializer):
    pass


@extend_schema_view(
    list=extend_schema(
        operation_id="feedback_requests_list",
        summary="Requests you made or were asked to answer, newest first",
        responses={200: FeedbackRequestSerializer(many=True)},
    ),
)
class FeedbackRequestViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Ask named people for feedback, in one stream, by a date."""

    serializer_class = FeedbackRequestSerializer
    lookup_value_converter = ID_CONVERTER

    def get_queryset(self):
        return (
            FeedbackRequest.objects.visible_to(self.request.user)
            .select_related("requester", "goal", "focus_area")
            .prefetch_related(
                Prefetch(
                    "responders",
                    queryset=RequestedResponder.objects.select_related("responder").order_by("pk"),
                )
            )
        )

    def _request(self, pk) -> FeedbackRequest:
        return selectors.access_request(user=self.request.user, pk=pk)

    def _respond(self, pk, code=status.HTTP_200_OK) -> Response:
        detail = FeedbackRequestDetailSerializer(
            self._request(pk), context=self.get_serializer_context()
        )
        return Response(detail.data, status=code)

    @extend_schema(
        operation_id="feedback_requests_retrieve",
        parameters=[ID_PARAM],
        responses={200: FeedbackRequestDetailSerializer, 404: NOT_FOUND},
    )
    def retrieve(self, request, pk=None):
        return self._respond(pk)

    @extend_schema(
        operation_id="feedback_requests_create",
        summary="Ask people for feedback",
        request=FeedbackRequestCreateSerializer,
        responses={201: FeedbackRequestDetailSerializer, 400: VALIDATION_ERROR},
    )
    def create(self, request):
        data = validated(FeedbackRequestCreateSerializer, request)
        made = services.feedback_request_create(requester=request.user, **data)
        return self._respond(made.pk, status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="feedback_requests_answer",
        summary="Answer a request waiting on you",
        description="The answer is feedback to the requester in the request's stream; "
        "on an anonymous request it is anonymous. Anyone else who can see the request "
        "gets 403.",
        parameters=[ID_PARAM],
        request=AnswerSerializer,
        responses={
            201: FeedbackGivenSerializer,
            400: VALIDATION_ERROR,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["post"])
    def answer(self, request, pk=None):
        asked = self._request(pk)
        data = validated(AnswerSerializer, request)
        item = services.feedback_request_answer(request=asked, responder=request.user, **data)
        return given(item, request)

    @extend_schema(
        operation_id="feedback_requests_decline",
        summary="Decline a request waiting on you",
        parameters=[ID_PARAM],
        request=EmptySerializer,
        responses={
            200: FeedbackRequestDetailSerializer,
            400: VALIDATION_ERROR,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        asked = self._request(pk)
        validated(EmptySerializer, request)
        services.feedback_request_decline(request=asked, responder=request.user)
        return self._respond(pk)


# --- Inbox ---------------------------------------------------------------------------


class RequestSummarySerializer(serializers.ModelSerializer):
    requester = PersonRefSerializer(read_only=True)
    goal = GoalRefSerializer(read_only=True, allow_null=True)
    focus_area = FocusAreaRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = FeedbackRequest
        fields = ["id", "requester", "question", "topic", "goal", "focus_area", "stream"]
        fields += ["anonymous", "due_on"]
        read_only_fields = fields


class InboxItemSerializer(serializers.ModelSerializer):
    request = RequestSummarySerializer(read_only=True)

    class Meta:
        model = RequestedResponder
        fields = ["id", "request", "status"]
        read_only_fields = fields


@extend_schema_view(
    list=extend_schema(
        operation_id="feedback_inbox_list",
        summary="Requests waiting on your answer, soonest due first",
        responses={200: InboxItemSerializer(many=True)},
    )
)
class FeedbackInboxViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Answer or decline each through `feedback-requests/{id}/answer|decline`."""

    serializer_class = InboxItemSerializer

    def get_queryset(self):
        return selectors.feedback_inbox(user=self.request.user)
