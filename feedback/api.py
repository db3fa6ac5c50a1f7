"""The feedback API under /api/v1/: feedback items (give, read, acknowledge, share).
Beside it: feedback requests and the inbox (feedback.api_requests), evaluative
feedback about the people I review (feedback.api_reviews), wins (feedback.api_wins)
and the interpretive-language list (feedback.api_terms).

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

from datetime import UTC

from django.db.models import Prefetch
from django.http import Http404
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
from rest_framework.response import Response

from coaching.api_goals import GoalRefSerializer, OwnGoalField
from core.api import (
    NOT_FOUND,
    VALIDATION_ERROR,
    DetailSerializer,
    StrictSerializer,
    client_ip,
    page_by_ids,
    query_params,
    validated,
)
from people.access import request_roles
from people.api import PersonRefSerializer
from people.api_common import PersonField
from people.models import User

from . import selectors, services
from .converters import FEEDBACK_REF, FeedbackRefConverter
from .models import (
    TEXT_LIMIT,
    Feedback,
    FeedbackShare,
    Stream,
)

# Ids in paths are `<int:pk>`: anything else is a plain 404 from the resolver.
ID_CONVERTER = "int"
# A feedback item's path names its `Feedback.ref` (feedback.converters).
ITEM_CONVERTER = FEEDBACK_REF

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
REF_PARAM = OpenApiParameter(
    "id",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    pattern=FeedbackRefConverter.regex,
    description="The item's `ref`: its number, or an anonymous answer's random id.",
)


# --- Feedback: representation --------------------------------------------------------


class LiteracyHintSerializer(serializers.Serializer):
    phrase = serializers.CharField()
    hint = serializers.CharField()


class AnonymitySafeSerializer(serializers.ModelSerializer):
    """How an item is named and dated in the API. An anonymous answer has no number
    and no moment — `id` and `created_at` are null, for everyone alike — only its
    random `ref` and the day it came (`created_on`, UTC): a number from the shared
    sequence or a time to the microsecond would let the requester line answers up
    with the order people answered in."""

    id = serializers.SerializerMethodField(
        help_text="The item's number; null for an anonymous answer (use `ref`)."
    )
    ref = serializers.CharField(
        read_only=True,
        help_text="The item's address in paths (`/api/v1/feedback/{ref}/`, "
        "`/feedback/{ref}/`): its number, or a random id for an anonymous answer.",
    )
    created_at = serializers.SerializerMethodField(
        help_text="When it was given; null for an anonymous answer (see `created_on`)."
    )
    created_on = serializers.SerializerMethodField(
        help_text="The day it was given (UTC): all that is told of an anonymous answer."
    )

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_id(self, item):
        return None if item.anonymous else item.pk

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_created_at(self, item):
        return (
            None
            if item.anonymous
            else serializers.DateTimeField().to_representation(item.created_at)
        )

    @extend_schema_field(serializers.DateField())
    def get_created_on(self, item):
        return item.created_at.astimezone(UTC).date().isoformat()


class FeedbackSerializer(AnonymitySafeSerializer):
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
            "ref",
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
            "created_on",
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


def text_field(**kwargs):
    """A free-text field as long as the model allows."""
    return serializers.CharField(max_length=TEXT_LIMIT, allow_blank=True, **kwargs)


class FeedbackCreateSerializer(StrictSerializer):
    recipient = PersonField()
    stream = serializers.ChoiceField(
        choices=Stream.choices,
        help_text="Decided now and never changed: developmental feedback never reaches "
        "an evaluation.",
    )
    # Blank is let through to the service, whose message says what to write.
    observation = text_field(help_text="What happened — what you saw or heard.")
    impact = text_field(required=False, default="", help_text="What it led to.")
    suggestion = text_field(required=False, default="", help_text="One thing to try next time.")


class FeedbackFilterSerializer(serializers.Serializer):
    stream = serializers.ChoiceField(choices=Stream.choices, required=False)
    received = serializers.BooleanField(required=False, default=None, allow_null=True)
    given = serializers.BooleanField(required=False, default=None, allow_null=True)


class AcknowledgeSerializer(StrictSerializer):
    reflection = text_field(
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
    lookup_value_converter = ITEM_CONVERTER

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
        parameters=[REF_PARAM],
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
        if not self.get_queryset().filter(selectors.by_ref(pk)).exists():
            raise Http404
        refuse_stream_change(request.data)
        raise MethodNotAllowed(request.method)

    @extend_schema(
        operation_id="feedback_update",
        summary="Not allowed: feedback is never edited",
        description="Sending `stream` is refused with 400 “The stream cannot be "
        "changed.”; anything else is 405. The recipient acknowledges through "
        "`acknowledge`.",
        parameters=[REF_PARAM],
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
        parameters=[REF_PARAM],
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
        parameters=[REF_PARAM],
        request=AcknowledgeSerializer,
        responses={200: FeedbackSerializer, 400: VALIDATION_ERROR, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def acknowledge(self, request, pk=None):
        item = self._item(pk)
        refuse_stream_change(request.data)
        data = validated(AcknowledgeSerializer, request)
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
        parameters=[REF_PARAM],
        request=ShareSerializer,
        responses={200: FeedbackSerializer, 400: VALIDATION_ERROR, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def share(self, request, pk=None):
        item = self._item(pk)
        data = validated(ShareSerializer, request)
        services.feedback_share(feedback=item, actor=request.user, person=data["person"])
        return self._respond(self._item(pk))

    @extend_schema(
        operation_id="feedback_unshare",
        summary="Stop showing an item to someone",
        parameters=[REF_PARAM],
        request=UnshareSerializer,
        responses={200: FeedbackSerializer, 400: VALIDATION_ERROR, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def unshare(self, request, pk=None):
        item = self._item(pk)
        data = validated(UnshareSerializer, request)
        services.feedback_share_revoke(feedback=item, actor=request.user, person=data["person"])
        return self._respond(self._item(pk))
