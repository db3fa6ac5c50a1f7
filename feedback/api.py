"""The feedback API under /api/v1/: feedback items (give, read, acknowledge, share),
feedback requests (ask, answer, decline) and the inbox of requests waiting on me,
evaluative feedback about the people I review (list and CSV export), wins, and the
interpretive-language list.

Views validate, call one service or selector and respond. Who may *see* what is
`visible_to` (through `feedback.selectors`); who may *do* what is decided by the
services. Status codes, as in the coaching API:

- not visible to the requester → 404 (never 403: existence is not revealed);
- visible, but not the requester's to act on (the author tries to acknowledge, the
  requester tries to answer their own request) → 403 with the service's message;
- bad input or a refused change → 400 with the message a page would show; nothing
  is saved.

The firewall holds here as everywhere: every list and item starts from
`Feedback.objects.visible_to`, so HR, admins and managers never receive developmental
text unless the recipient shared that one item with them; a recipient's reflection,
themes and shares go to the recipient alone; evaluative items read by anyone else are
audited, in lists too; and anonymous answers carry no author for anyone but the
author, and are held back from everyone else until enough of them arrived."""

from django.db.models import Prefetch, Q
from django.http import Http404, HttpResponse
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
from rest_framework.exceptions import MethodNotAllowed
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.response import Response

from coaching.api import FocusAreaRefSerializer
from coaching.api_goals import FocusAreaIdField, GoalRefSerializer, OwnGoalField
from config.api import (
    ADMINS_ONLY,
    MAX_ID,
    NOT_FOUND,
    VALIDATION_ERROR,
    DetailSerializer,
    PersonField,
    ReadOrProgrammeAdmin,
    StrictSerializer,
    client_ip,
    forbidden_unless,
    inline_enum,
    page_by_ids,
    query_params,
    refuse_unknown_fields,
    validated,
)
from people.access import HasRole, request_roles
from people.api import PersonRefSerializer, TeamRefSerializer
from people.models import Team, TeamMembership, User

from . import evaluations, selectors, services
from .models import (
    TEXT_LIMIT,
    Feedback,
    FeedbackRequest,
    FeedbackShare,
    InterpretiveTerm,
    RequestedResponder,
    ResponderStatus,
    Stream,
    Win,
)

# Ids in paths are `<int:pk>`: anything else is a plain 404 from the resolver.
ID_CONVERTER = "int"

STREAM_IS_FIXED = "The stream cannot be changed."


def refuse_stream_change(data) -> None:
    """The stream is decided when feedback is given and never changes: saying so
    beats a generic "unknown field" or 405."""
    if isinstance(data, dict) and "stream" in data:
        raise serializers.ValidationError({"stream": [STREAM_IS_FIXED]})


FORBIDDEN = OpenApiResponse(
    DetailSerializer, description="You can see this but it is not yours to do. Carries the reason."
)
NOT_ALLOWED = OpenApiResponse(DetailSerializer, description="Feedback is never edited in place.")
ID_PARAM = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)


# --- Feedback: representation --------------------------------------------------------


class LiteracyHintSerializer(serializers.Serializer):
    phrase = serializers.CharField()
    hint = serializers.CharField()


class FeedbackSerializer(serializers.ModelSerializer):
    """One item as the requester may see it. The author is null when the item is
    anonymous and the requester is not its author; the reflection, themes and shares
    are the recipient's own and null for everyone else."""

    recipient = PersonRefSerializer(read_only=True)
    author = serializers.SerializerMethodField(
        help_text="Null when the feedback is anonymous and you did not write it."
    )
    reflection = serializers.SerializerMethodField(
        help_text="The recipient's own; null for others."
    )
    themes = serializers.SerializerMethodField(help_text="The recipient's own; null for others.")
    shared_with = serializers.SerializerMethodField(
        help_text="Whom the recipient shows it to now; null for everyone but the recipient."
    )
    goal = serializers.SerializerMethodField(
        help_text="The recipient's goal they linked it to; null for everyone else."
    )

    class Meta:
        model = Feedback
        fields = [
            "id",
            "stream",
            "direction",
            "recipient",
            "author",
            "anonymous",
            "request",
            "observation",
            "impact",
            "suggestion",
            "created_at",
            "acknowledged_at",
            "reflection",
            "themes",
            "shared_with",
            "goal",
        ]
        read_only_fields = fields

    @property
    def _viewer(self) -> User:
        return self.context["request"].user

    def _is_recipient(self, item) -> bool:
        return item.recipient_id == self._viewer.pk

    @extend_schema_field(PersonRefSerializer(allow_null=True))
    def get_author(self, item):
        author = selectors.author_shown(item, self._viewer)
        return None if author is None else PersonRefSerializer(author).data

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_reflection(self, item) -> str | None:
        return item.reflection if self._is_recipient(item) else None

    @extend_schema_field(serializers.ListField(child=serializers.CharField(), allow_null=True))
    def get_themes(self, item):
        if not self._is_recipient(item):
            return None
        return [theme.name for theme in item.themes.all()]

    @extend_schema_field(GoalRefSerializer(allow_null=True))
    def get_goal(self, item):
        if not self._is_recipient(item) or item.goal is None:
            return None
        return GoalRefSerializer(item.goal).data

    @extend_schema_field(PersonRefSerializer(many=True, allow_null=True))
    def get_shared_with(self, item):
        if not self._is_recipient(item):
            return None
        shares = getattr(item, "live_shares", None)
        if shares is None:
            shares = item.shares.filter(revoked_at__isnull=True).select_related("person")
        return [PersonRefSerializer(share.person).data for share in shares]


class FeedbackGivenSerializer(FeedbackSerializer):
    literacy_hints = LiteracyHintSerializer(
        many=True,
        read_only=True,
        help_text="Words that usually signal interpretation rather than observation. "
        "Advice only: the feedback was saved as written.",
    )

    class Meta(FeedbackSerializer.Meta):
        fields = [*FeedbackSerializer.Meta.fields, "literacy_hints"]
        read_only_fields = fields


def given(item: Feedback, request, code=status.HTTP_201_CREATED) -> Response:
    item.literacy_hints = services.literacy_hints(item.observation)
    return Response(FeedbackGivenSerializer(item, context={"request": request}).data, status=code)


# --- Feedback: input -----------------------------------------------------------------


def _text(**kwargs):
    return serializers.CharField(max_length=TEXT_LIMIT, allow_blank=True, **kwargs)


class FeedbackCreateSerializer(StrictSerializer):
    recipient = PersonField()
    stream = serializers.ChoiceField(
        choices=Stream.choices,
        help_text="Decided now and never changed: developmental feedback never reaches "
        "an evaluation.",
    )
    # Blank is let through to the service, whose message says what to write.
    observation = _text(help_text="What happened — what you saw or heard.")
    impact = _text(required=False, default="", help_text="What it led to.")
    suggestion = _text(required=False, default="", help_text="One thing to try next time.")


class FeedbackFilterSerializer(serializers.Serializer):
    stream = serializers.ChoiceField(choices=Stream.choices, required=False)
    received = serializers.BooleanField(required=False, default=None, allow_null=True)
    given = serializers.BooleanField(required=False, default=None, allow_null=True)


class AcknowledgeSerializer(StrictSerializer):
    reflection = _text(
        required=False, default="", help_text="Private: only you, the recipient, see it."
    )
    themes = serializers.ListField(
        child=serializers.CharField(max_length=60),
        required=False,
        max_length=20,
        help_text="Your own tags, to spot patterns; replaces the item's themes. Leave "
        "out to keep them.",
    )
    goal = OwnGoalField(
        required=False,
        allow_null=True,
        help_text="Link it to one of your goals (private to you); null unlinks; leave out "
        "to keep the link.",
    )


class ShareSerializer(StrictSerializer):
    person = PersonField(help_text="Someone to show this developmental item to (your coach).")


class UnshareSerializer(StrictSerializer):
    person = PersonField(queryset=User.objects.all(), help_text="Whom to stop showing it to.")


# --- Feedback: views -----------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        operation_id="feedback_list",
        summary="Feedback visible to you, newest first",
        description="What you received or gave, evaluative feedback about people below "
        "you (HR: all evaluative feedback), and developmental items shared with you. "
        "Evaluative items about someone else are audited as read.",
        parameters=[
            OpenApiParameter("stream", enum=Stream.values),
            OpenApiParameter(
                "received", OpenApiTypes.BOOL, description="Only feedback to you (`?received=1`)."
            ),
            OpenApiParameter(
                "given", OpenApiTypes.BOOL, description="Only feedback you wrote (`?given=1`)."
            ),
        ],
        responses={200: FeedbackSerializer(many=True), 400: VALIDATION_ERROR},
    ),
)
class FeedbackViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Feedback in two streams that never mix. Given once and never edited: the
    recipient acknowledges it and may share a developmental item with named people."""

    serializer_class = FeedbackSerializer
    lookup_value_converter = ID_CONVERTER

    @property
    def _roles(self):
        return request_roles(self.request)

    def get_queryset(self):
        return selectors.visible_feedback(user=self.request.user, roles=self._roles)

    def _with_related(self):
        """What the serializer shows of each item."""
        return Feedback.objects.select_related("author", "recipient", "goal").prefetch_related(
            "themes",
            Prefetch(
                "shares",
                # Only the recipient's own items can show shares: fetch no others.
                queryset=FeedbackShare.objects.filter(
                    revoked_at__isnull=True, feedback__recipient=self.request.user
                ).select_related("person"),
                to_attr="live_shares",
            ),
        )

    def list(self, request):
        params = query_params(FeedbackFilterSerializer, request)
        listed = selectors.listed_feedback(
            user=request.user,
            roles=self._roles,
            stream=params.get("stream"),
            received=bool(params.get("received")),
            given=bool(params.get("given")),
        )
        page = page_by_ids(self, listed, self._with_related())
        services.evaluative_reads_record(items=page, reader=request.user, ip=client_ip(request))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def _item(self, pk) -> Feedback:
        """One item through `access_feedback` (404, audit), also held back from third
        parties while an anonymous request waits for more answers."""
        item = selectors.access_feedback(
            user=self.request.user, roles=self._roles, pk=pk, ip=client_ip(self.request)
        )
        if (
            item.anonymous
            and item.author_id != self.request.user.pk
            and not selectors.anonymous_answers_may_show(item.request)
        ):
            raise Http404
        return item

    def _respond(self, item) -> Response:
        return Response(self.get_serializer(item).data)

    @extend_schema(
        operation_id="feedback_retrieve",
        parameters=[ID_PARAM],
        responses={200: FeedbackSerializer, 404: NOT_FOUND},
    )
    def retrieve(self, request, pk=None):
        return self._respond(self._item(pk))

    @extend_schema(
        operation_id="feedback_create",
        summary="Give feedback",
        description="Choose the stream now: it never changes. The answer carries advice "
        "on interpretive language in the observation; it never blocks.",
        request=FeedbackCreateSerializer,
        responses={201: FeedbackGivenSerializer, 400: VALIDATION_ERROR},
    )
    def create(self, request):
        data = validated(FeedbackCreateSerializer, request)
        item = services.feedback_give(author=request.user, **data)
        return given(item, request)

    def _never_edited(self, request, pk):
        if not self.get_queryset().filter(pk=pk).exists():
            raise Http404
        refuse_stream_change(request.data)
        raise MethodNotAllowed(request.method)

    @extend_schema(
        operation_id="feedback_update",
        summary="Not allowed: feedback is never edited",
        description="Sending `stream` is refused with 400 “The stream cannot be "
        "changed.”; anything else is 405. The recipient acknowledges through "
        "`acknowledge`.",
        parameters=[ID_PARAM],
        request=None,
        responses={400: VALIDATION_ERROR, 404: NOT_FOUND, 405: NOT_ALLOWED},
    )
    def update(self, request, pk=None):
        self._never_edited(request, pk)

    @extend_schema(
        operation_id="feedback_partial_update",
        summary="Not allowed: feedback is never edited",
        description="Sending `stream` is refused with 400 “The stream cannot be "
        "changed.”; anything else is 405.",
        parameters=[ID_PARAM],
        request=None,
        responses={400: VALIDATION_ERROR, 404: NOT_FOUND, 405: NOT_ALLOWED},
    )
    def partial_update(self, request, pk=None):
        self._never_edited(request, pk)

    @extend_schema(
        operation_id="feedback_acknowledge",
        summary="Acknowledge feedback you received",
        description="“Thank you, I'll think about it”, with an optional private "
        "reflection and themes. Only the recipient (others who can see it: 403).",
        parameters=[ID_PARAM],
        request=AcknowledgeSerializer,
        responses={200: FeedbackSerializer, 400: VALIDATION_ERROR, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def acknowledge(self, request, pk=None):
        item = self._item(pk)
        refuse_stream_change(request.data)
        data = validated(AcknowledgeSerializer, request)
        with forbidden_unless(item.recipient_id == request.user.pk):
            services.feedback_acknowledge(
                feedback=item,
                actor=request.user,
                reflection=data["reflection"],
                themes=data.get("themes"),
                goal=data.get("goal", services.KEEP),
            )
        return self._respond(self._item(pk))

    @extend_schema(
        operation_id="feedback_share",
        summary="Show a developmental item you received to a named person",
        parameters=[ID_PARAM],
        request=ShareSerializer,
        responses={200: FeedbackSerializer, 400: VALIDATION_ERROR, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def share(self, request, pk=None):
        item = self._item(pk)
        data = validated(ShareSerializer, request)
        with forbidden_unless(item.recipient_id == request.user.pk):
            services.feedback_share(feedback=item, actor=request.user, person=data["person"])
        return self._respond(self._item(pk))

    @extend_schema(
        operation_id="feedback_unshare",
        summary="Stop showing an item to someone",
        parameters=[ID_PARAM],
        request=UnshareSerializer,
        responses={200: FeedbackSerializer, 400: VALIDATION_ERROR, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def unshare(self, request, pk=None):
        item = self._item(pk)
        data = validated(UnshareSerializer, request)
        with forbidden_unless(item.recipient_id == request.user.pk):
            services.feedback_share_revoke(feedback=item, actor=request.user, person=data["person"])
        return self._respond(self._item(pk))


# --- Feedback requests ---------------------------------------------------------------


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


class ResponseCountsSerializer(serializers.Serializer):
    asked = serializers.IntegerField()
    answered = serializers.IntegerField()
    declined = serializers.IntegerField()
    waiting = serializers.IntegerField()


class FeedbackRequestSerializer(serializers.ModelSerializer):
    """A request as the requester or one of the people asked sees it. The requester
    sees everyone asked (on an anonymous request without who answered, only how many);
    someone asked sees only their own place in it."""

    requester = PersonRefSerializer(read_only=True)
    responders = serializers.SerializerMethodField()
    counts = serializers.SerializerMethodField(help_text="For the requester; null for others.")
    answers_shown = serializers.SerializerMethodField(
        help_text="False while an anonymous request waits for enough answers."
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
        return {
            "asked": len(statuses),
            "answered": statuses.count(ResponderStatus.ANSWERED),
            "declined": statuses.count(ResponderStatus.DECLINED),
            "waiting": statuses.count(ResponderStatus.WAITING),
        }

    def get_answers_shown(self, request) -> bool:
        # `selectors.anonymous_answers_may_show`, from the prefetched rows.
        if not request.anonymous:
            return True
        answered = [r for r in self._asked(request) if r.status == ResponderStatus.ANSWERED]
        return len(answered) >= services.ANONYMITY_THRESHOLD


class FeedbackRequestDetailSerializer(FeedbackRequestSerializer):
    answers = serializers.SerializerMethodField(
        help_text="For the requester: the answers that may be shown (anonymous ones "
        "only once enough arrived, and without their authors). Null for others."
    )

    class Meta(FeedbackRequestSerializer.Meta):
        fields = [*FeedbackRequestSerializer.Meta.fields, "answers"]
        read_only_fields = fields

    @extend_schema_field(FeedbackSerializer(many=True, allow_null=True))
    def get_answers(self, request):
        if request.requester_id != self._viewer.pk:
            return None
        answers = (
            selectors.my_feedback(user=self._viewer, stream=request.stream)
            .filter(request=request)
            .select_related("recipient")
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
        "reports asked, and only them; answers shown once that many arrived.",
    )


class AnswerSerializer(StrictSerializer):
    observation = _text(help_text="What happened — what you saw or heard.")
    impact = _text(required=False, default="")
    suggestion = _text(required=False, default="")


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
        with forbidden_unless(self._is_asked(asked)):
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
        with forbidden_unless(self._is_asked(asked)):
            services.feedback_request_decline(request=asked, responder=request.user)
        return self._respond(pk)

    def _is_asked(self, feedback_request) -> bool:
        return any(
            row.responder_id == self.request.user.pk for row in feedback_request.responders.all()
        )


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
        return selectors.inbox(user=self.request.user)


# --- Evaluation: evaluative feedback about the people I review --------------------------


class ReviewItemSerializer(serializers.ModelSerializer):
    """An evaluative item as a reviewer sees it: never the recipient's reflection,
    themes or shares, and no author where the item is anonymous."""

    recipient = PersonRefSerializer(read_only=True)
    author = serializers.SerializerMethodField(help_text="Null when the feedback is anonymous.")

    class Meta:
        model = Feedback
        fields = [
            "id",
            "stream",
            "direction",
            "recipient",
            "author",
            "anonymous",
            "observation",
            "impact",
            "suggestion",
            "created_at",
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
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="{evaluations.export_filename(request.user)}"'
        )
        evaluations.write_evaluative_csv(response, items=items, reader=request.user)
        return response


feedback_review_export = FeedbackReviewViewSet.as_view(
    {"get": "export"}, content_negotiation_class=AnswerErrorsInJSON
)


# --- Wins ----------------------------------------------------------------------------

NOT_YOUR_TEAM = "Share wins with a team you are on."


class PostableTeamField(serializers.PrimaryKeyRelatedField):
    """A team the requester is on now or leads. Any other id — unknown or another
    team's — is the same 400, so team ids cannot be probed."""

    default_error_messages = {
        "does_not_exist": NOT_YOUR_TEAM,
        "incorrect_type": "Give a team id (a number), not {data_type}.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("queryset", Team.objects.none())  # for the schema
        super().__init__(**kwargs)

    def get_queryset(self):
        user = self.context["request"].user
        on = TeamMembership.objects.current().filter(person=user).values("team")
        return Team.objects.filter(Q(pk__in=on) | Q(lead=user))


class WinSerializer(serializers.ModelSerializer):
    team = TeamRefSerializer(read_only=True)
    author = PersonRefSerializer(read_only=True)

    class Meta:
        model = Win
        fields = ["id", "team", "author", "title", "link", "text", "created_at"]
        read_only_fields = fields


class WinCreateSerializer(StrictSerializer):
    team = PostableTeamField(help_text="A team you are on or lead.")
    title = serializers.CharField(max_length=200, allow_blank=True)
    link = serializers.URLField(max_length=500, required=False, allow_blank=True, default="")
    text = serializers.CharField(
        max_length=TEXT_LIMIT, required=False, allow_blank=True, default=""
    )


class WinFilterSerializer(serializers.Serializer):
    team = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


@extend_schema_view(
    list=extend_schema(
        operation_id="wins_list",
        summary="Wins shared with your teams, newest first",
        parameters=[OpenApiParameter("team", OpenApiTypes.INT)],
        responses={200: WinSerializer(many=True), 400: VALIDATION_ERROR},
    ),
    retrieve=extend_schema(
        operation_id="wins_retrieve",
        parameters=[ID_PARAM],
        responses={200: WinSerializer, 404: NOT_FOUND},
    ),
)
class WinViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Recognition for the team — separate from both feedback streams."""

    serializer_class = WinSerializer
    lookup_value_converter = ID_CONVERTER

    def get_queryset(self):
        return Win.objects.visible_to(self.request.user).select_related("team", "author")

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(WinFilterSerializer, self.request)
        if "team" in params:
            queryset = queryset.filter(team_id=params["team"])
        return queryset

    @extend_schema(
        operation_id="wins_create",
        summary="Share a win with a team you are on",
        request=WinCreateSerializer,
        responses={201: WinSerializer, 400: VALIDATION_ERROR},
    )
    def create(self, request):
        data = validated(WinCreateSerializer, request)
        win = services.win_share(author=request.user, **data)
        return Response(WinSerializer(win).data, status=status.HTTP_201_CREATED)


# --- Interpretive terms ----------------------------------------------------------------


class InterpretiveTermSerializer(serializers.ModelSerializer):
    class Meta:
        model = InterpretiveTerm
        fields = ["id", "phrase", "hint"]
        read_only_fields = ["id"]
        # Uniqueness is checked below, on the normalised phrase.
        extra_kwargs = {"phrase": {"validators": []}}

    def validate_phrase(self, value: str) -> str:
        # Matching ignores case and spacing, so "You  Seem" is "you seem".
        phrase = " ".join(value.lower().split())
        if not phrase:
            raise serializers.ValidationError("Give a word or phrase.")
        taken = InterpretiveTerm.objects.filter(phrase=phrase)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise serializers.ValidationError("That phrase is already on the list.")
        return phrase

    def validate(self, attrs):
        attrs = super().validate(attrs)
        refuse_unknown_fields(self)
        return attrs


def _term_schemas() -> dict:
    writes = {400: VALIDATION_ERROR, 403: ADMINS_ONLY}
    term = InterpretiveTermSerializer
    term_id = [ID_PARAM]
    return {
        "list": extend_schema(
            operation_id="interpretive_terms_list", responses={200: term(many=True)}
        ),
        "retrieve": extend_schema(
            operation_id="interpretive_terms_retrieve",
            parameters=term_id,
            responses={200: term, 404: NOT_FOUND},
        ),
        "create": extend_schema(
            operation_id="interpretive_terms_create", responses={201: term, **writes}
        ),
        "update": extend_schema(
            operation_id="interpretive_terms_update",
            parameters=term_id,
            responses={200: term, **writes, 404: NOT_FOUND},
        ),
        "partial_update": extend_schema(
            operation_id="interpretive_terms_partial_update",
            parameters=term_id,
            responses={200: term, **writes, 404: NOT_FOUND},
        ),
        "destroy": extend_schema(
            operation_id="interpretive_terms_destroy",
            parameters=term_id,
            responses={204: None, 403: ADMINS_ONLY, 404: NOT_FOUND},
        ),
    }


@extend_schema_view(**_term_schemas())
class InterpretiveTermViewSet(viewsets.ModelViewSet):
    """Words and phrases that usually signal interpretation rather than observation.
    Feedback forms show their hints; they never block."""

    serializer_class = InterpretiveTermSerializer
    permission_classes = [ReadOrProgrammeAdmin]
    lookup_value_converter = ID_CONVERTER

    def get_queryset(self):
        return InterpretiveTerm.objects.order_by("phrase", "id")
