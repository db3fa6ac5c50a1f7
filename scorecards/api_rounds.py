"""Scoring rounds under /api/v1/scoring-rounds/: the raters of one call against one
template version, and the reveal rule.

A round is visible to its raters, whoever opened it and (calibrations aside) the
subject's management chain; anyone else gets 404. What the detail shows of the
scorecards in it is `Scorecard.objects.visible_to` — self-assessment first, everyone
blind until they scored (the coach and the rest of the management chain too: they see
what was scored once every rater is done or the round is closed), the manager last in
a team review, a calibration once closed: who has scored is shown, never what, until
revealed.

Rounds are opened here for a self-assessment, a coach with the subject, peers asked
by the subject, or a calibration (team call reviews open theirs from the session).
Saving your scorecard, declining and closing are actions; someone who sees the round
but is not one of its raters (or did not open it, for closing) gets 403."""

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
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
    StrictSerializer,
    inline_enum,
    query_params,
    validated,
)
from people.api import PersonRefSerializer
from people.api_common import PersonField

from . import rules, selectors, services
from .api_common import (
    CONTEXT_ENUM,
    FORBIDDEN,
    ID,
    ID_CONVERTER,
    RATER_ROLE_ENUM,
    CallRefSerializer,
    RoundScorecardSerializer,
    StrictItemSerializer,
    TemplateRefSerializer,
)
from .api_templates import NoInputSerializer, VersionSerializer
from .models import TEXT_LIMIT, RoundContext, ScoringRound, Template

STATES = ["submitted", "hidden", "draft", "declined", "waiting"]
OPENABLE = [RoundContext.SELF, RoundContext.COACH, RoundContext.PEER, RoundContext.CALIBRATION]

# --- Representation --------------------------------------------------------------------------


class RoundListSerializer(serializers.ModelSerializer):
    context = serializers.SerializerMethodField()
    work = CallRefSerializer(read_only=True)
    template = TemplateRefSerializer(source="version.template", read_only=True)
    version = serializers.IntegerField(source="version.number", read_only=True)
    opened_by = PersonRefSerializer(source="created_by", read_only=True)
    raters_count = serializers.IntegerField(read_only=True)
    submitted_count = serializers.IntegerField(
        read_only=True, help_text="How many have submitted (never what they scored)."
    )

    class Meta:
        model = ScoringRound
        fields = ["id", "context", "title", "work", "template", "version", "opened_by"]
        fields += ["created_at", "closed_at", "raters_count", "submitted_count"]
        read_only_fields = fields

    @extend_schema_field(CONTEXT_ENUM)
    def get_context(self, scoring) -> str:
        return scoring.context


class RaterLineSerializer(serializers.Serializer):
    person = PersonRefSerializer(source="rater.person")
    role = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField(
        help_text="submitted (and shown to you), hidden (submitted, not yet shown to you), "
        "draft (yours, not submitted), declined, or waiting."
    )
    scorecard = serializers.SerializerMethodField(
        help_text="Their scorecard's id, when you may see it."
    )

    @extend_schema_field(RATER_ROLE_ENUM)
    def get_role(self, line) -> str:
        return line.rater.role

    @extend_schema_field(inline_enum(STATES))
    def get_state(self, line) -> str:
        return line.state

    def get_scorecard(self, line) -> int | None:
        return line.scorecard.pk if line.scorecard is not None else None


class AgreementSerializer(serializers.Serializer):
    median = serializers.FloatField()
    low = serializers.IntegerField()
    high = serializers.IntegerField()
    spread = serializers.IntegerField()
    within_one = serializers.FloatField(help_text="Share of raters within one point, 0–1.")
    outliers = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Ids of raters more than one point from the median.",
    )


class RatingSerializer(serializers.Serializer):
    rater = serializers.IntegerField()
    rating = serializers.IntegerField()


class CriterionRowSerializer(serializers.Serializer):
    criterion = serializers.IntegerField(source="criterion.pk")
    title = serializers.CharField(source="criterion.title")
    ratings = serializers.SerializerMethodField()
    agreement = AgreementSerializer(allow_null=True)
    gap = serializers.FloatField(
        allow_null=True,
        help_text="The self-assessment minus the others' median (a half point when two "
        "others disagree).",
    )

    @extend_schema_field(RatingSerializer(many=True))
    def get_ratings(self, row) -> list:
        return [{"rater": rater, "rating": score.rating} for rater, score in row.ratings.items()]


class RoundDetailSerializer(serializers.Serializer):
    """A round as the requester may see it (`scorecards.selectors.round_view`)."""

    id = serializers.IntegerField(source="round.pk")
    context = serializers.SerializerMethodField()
    title = serializers.CharField(source="round.title")
    work = CallRefSerializer(source="round.work")
    opened_by = PersonRefSerializer(source="round.created_by")
    created_at = serializers.DateTimeField(source="round.created_at")
    closed_at = serializers.DateTimeField(source="round.closed_at", allow_null=True)
    session = serializers.IntegerField(
        source="round.session_id", allow_null=True, help_text="A team call review's session."
    )
    template = TemplateRefSerializer(source="version.template")
    version = VersionSerializer(help_text="The template version scored, criteria and anchors.")
    raters = RaterLineSerializer(source="lines", many=True)
    scorecards = RoundScorecardSerializer(
        source="visible", many=True, help_text="The submitted scorecards shown to you."
    )
    rows = CriterionRowSerializer(
        many=True, help_text="Per criterion: the ratings shown to you, side by side."
    )
    alpha = serializers.FloatField(
        allow_null=True, help_text="Krippendorff's alpha (interval) over what is shown."
    )
    waiting_on_me = serializers.BooleanField()
    hidden_until_i_score = serializers.BooleanField(
        help_text="You rate this round and have not submitted or declined, and someone "
        "else has scored: their scores and words show once you have — whoever you are "
        "(a coach does not read the self-assessment first)."
    )
    hidden_until_everyone_scored = serializers.BooleanField(
        help_text="You see this round without rating in it (the subject's management "
        "chain) and someone has scored while others still score: you see who has "
        "scored, and what once every rater has submitted or declined, or the round "
        "is closed."
    )
    mine = RoundScorecardSerializer(allow_null=True, help_text="Your scorecard, draft or not.")
    can_close = serializers.SerializerMethodField()

    @extend_schema_field(CONTEXT_ENUM)
    def get_context(self, view) -> str:
        return view.round.context

    def get_can_close(self, view) -> bool:
        user = self.context["request"].user
        return not view.round.is_closed and rules.may_close(user, view.round)


# --- Input -----------------------------------------------------------------------------------


@extend_schema_field(OpenApiTypes.INT)
class VisibleCallField(serializers.PrimaryKeyRelatedField):
    """A call the requester may see. Any other id — unknown or someone else's — is the
    same 400, so ids cannot be probed."""

    default_error_messages = {
        "does_not_exist": "No call with id {pk_value} among the calls you can see.",
        "incorrect_type": "Give a call's id (a number), not {data_type}.",
    }

    def get_queryset(self):
        return selectors.calls_visible_to(self.context["request"].user).select_related("person")


@extend_schema_field(OpenApiTypes.INT)
class TemplateField(serializers.PrimaryKeyRelatedField):
    default_error_messages = {
        "does_not_exist": "No scorecard template with id {pk_value}.",
        "incorrect_type": "Give a template's id (a number), not {data_type}.",
    }

    def get_queryset(self):
        return Template.objects.all()


@extend_schema_field(inline_enum(OPENABLE))
class OpenableContextField(serializers.ChoiceField):
    default_error_messages = {
        "invalid_choice": "Open a self, coach, peer or calibration round, not “{input}”; "
        "a team call review opens its own from the session."
    }

    def __init__(self, **kwargs):
        super().__init__(choices=[(c.value, c.label) for c in OPENABLE], **kwargs)


# Which of the optional fields each kind of round takes.
EXTRA_FIELDS = {
    RoundContext.SELF: set(),
    RoundContext.COACH: set(),
    RoundContext.PEER: {"peers"},
    RoundContext.CALIBRATION: {"raters", "title"},
}


class RoundCreateSerializer(StrictSerializer):
    context = OpenableContextField(
        help_text="self: you score your own call. coach: you score the call of someone "
        "below you, and they are asked to score it first. peer: you ask colleagues to "
        "score your call. calibration: raters score one call blind until you close it."
    )
    work = VisibleCallField(help_text="The recorded call.")
    template = TemplateField(help_text="A template in the library (not retired).")
    peers = PersonField(many=True, required=False, help_text="peer: the colleagues asked.")
    raters = PersonField(many=True, required=False, help_text="calibration: the raters.")
    title = serializers.CharField(
        max_length=200, required=False, allow_blank=True, help_text="calibration: a name."
    )

    def validate(self, attrs):
        attrs = super().validate(attrs)
        context = attrs["context"]
        # Empty ones are no matter: an HTML form sends every field, blank or not.
        given = {name for name in ("peers", "raters", "title") if attrs.get(name)}
        stray = sorted(given - EXTRA_FIELDS[context])
        if stray:
            raise serializers.ValidationError(
                {name: [f"Not part of a {context} round."] for name in stray}
            )
        if context == RoundContext.PEER and not attrs.get("peers"):
            raise serializers.ValidationError({"peers": ["Ask at least one colleague."]})
        return attrs


class ScoreInputSerializer(StrictItemSerializer):
    criterion = serializers.IntegerField(
        help_text="A criterion id of the round's template version (`version.criteria`)."
    )
    rating = serializers.IntegerField(
        allow_null=True, help_text="1 to the criterion's `scale_max`; null: not rated yet."
    )
    evidence_at = serializers.CharField(
        max_length=12, required=False, allow_blank=True, default="", help_text="e.g. 04:10"
    )
    evidence = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class ScorecardSaveSerializer(StrictSerializer):
    scores = ScoreInputSerializer(many=True, required=False, default=list)
    keep = serializers.CharField(
        max_length=TEXT_LIMIT, required=False, allow_blank=True, default=""
    )
    try_next = serializers.CharField(
        max_length=TEXT_LIMIT, required=False, allow_blank=True, default=""
    )
    submit = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Submit: every criterion rated; final. Otherwise saved as your draft.",
    )


class RoundFilterSerializer(serializers.Serializer):
    context = serializers.ChoiceField(choices=RoundContext.choices, required=False)
    open = serializers.BooleanField(required=False, default=False)
    waiting = serializers.BooleanField(required=False, default=False)


# --- Views -----------------------------------------------------------------------------------

ACTION_RESPONSES = {
    200: RoundDetailSerializer,
    400: VALIDATION_ERROR,
    403: FORBIDDEN,
    404: NOT_FOUND,
}


@extend_schema_view(
    list=extend_schema(
        operation_id="scoring_rounds_list",
        summary="Rounds that concern you, newest first",
        parameters=[
            OpenApiParameter("context", enum=RoundContext.values),
            OpenApiParameter("open", OpenApiTypes.BOOL, description="Only open ones (`?open=1`)."),
            OpenApiParameter(
                "waiting",
                OpenApiTypes.BOOL,
                description="Only open ones waiting for your scorecard (`?waiting=1`).",
            ),
        ],
        responses={200: RoundListSerializer(many=True), 400: VALIDATION_ERROR},
    ),
)
class ScoringRoundViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Scoring rounds: who scores which call against which template version, and
    which scorecards you may see yet."""

    serializer_class = RoundListSerializer
    lookup_value_converter = ID_CONVERTER

    def get_serializer_class(self):
        # The browsable API fills its forms through the view's serializer: each
        # write with its own input.
        inputs = {
            "retrieve": RoundDetailSerializer,
            "create": RoundCreateSerializer,
            "scorecard": ScorecardSaveSerializer,
            "decline": NoInputSerializer,
            "close": NoInputSerializer,
        }
        return inputs.get(self.action, RoundListSerializer)

    def get_queryset(self):
        return (
            selectors.rounds_for(user=self.request.user)
            .select_related("created_by")
            .order_by("-created_at", "-id")
        )

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(RoundFilterSerializer, self.request)
        if "context" in params:
            queryset = queryset.filter(context=params["context"])
        if params.get("open"):
            queryset = queryset.filter(closed_at__isnull=True)
        if params.get("waiting"):
            waiting = selectors.waiting_on(user=self.request.user)
            queryset = queryset.filter(pk__in=waiting.values("pk"))
        return queryset

    def _round(self, pk) -> ScoringRound:
        return selectors.access_round(user=self.request.user, pk=pk)

    def _respond(self, pk, code=status.HTTP_200_OK) -> Response:
        scoring = self._round(pk)
        view = selectors.round_view(user=self.request.user, scoring=scoring)
        return Response(
            RoundDetailSerializer(view, context=self.get_serializer_context()).data, status=code
        )

    @extend_schema(
        operation_id="scoring_rounds_retrieve",
        summary="A round as you may see it",
        description="Who rates it and how far each is (never their scores until the reveal "
        "rule shows them to you), the scorecards shown to you, the ratings side by side "
        "per criterion with their agreement and the self-assessment gap, and your own "
        "scorecard (a draft too).",
        parameters=[ID],
        responses={200: RoundDetailSerializer, 404: NOT_FOUND},
    )
    def retrieve(self, request, pk=None):
        return self._respond(pk)

    @extend_schema(
        operation_id="scoring_rounds_create",
        summary="Open a self-assessment, coach, peer or calibration round",
        request=RoundCreateSerializer,
        responses={
            201: RoundDetailSerializer,
            400: VALIDATION_ERROR,
            403: FORBIDDEN,
        },
    )
    def create(self, request):
        data = validated(RoundCreateSerializer, request)
        context, work, template = data["context"], data["work"], data["template"]
        user = request.user
        try:
            if context == RoundContext.SELF:
                scoring = services.self_assessment_open(actor=user, work=work, template=template)
            elif context == RoundContext.COACH:
                scoring = services.coach_scoring_open(actor=user, work=work, template=template)
            elif context == RoundContext.PEER:
                scoring = services.peer_scoring_open(
                    actor=user, work=work, template=template, peers=data["peers"]
                )
            else:
                scoring = services.calibration_open(
                    actor=user,
                    work=work,
                    template=template,
                    raters=data.get("raters", []),
                    title=data.get("title", ""),
                )
        except DjangoValidationError as refusal:
            # The service speaks of raters; a peer round's body calls them peers.
            if context == RoundContext.PEER and hasattr(refusal, "error_dict"):
                errors = refusal.message_dict
                if "raters" in errors:
                    errors["peers"] = errors.pop("raters")
                raise DjangoValidationError(errors) from refusal
            raise
        return self._respond(scoring.pk, status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="scoring_rounds_scorecard",
        summary="Save your scorecard in the round, as a draft or submitted",
        description="Scores for criteria of the round's version, each on its scale; "
        "submitting needs every criterion rated and is final. Only the round's raters "
        "score (403 for others who can see it).",
        parameters=[ID],
        request=ScorecardSaveSerializer,
        responses=ACTION_RESPONSES,
    )
    @action(detail=True, methods=["put"])
    def scorecard(self, request, pk=None):
        scoring = self._round(pk)
        data = validated(ScorecardSaveSerializer, request)
        services.scorecard_save(
            actor=request.user,
            scoring=scoring,
            scores=[services.ScoreInput(**item) for item in data["scores"]],
            keep=data["keep"],
            try_next=data["try_next"],
            submit=data["submit"],
        )
        return self._respond(pk)

    @extend_schema(
        operation_id="scoring_rounds_decline",
        summary="Not scoring this one (a subject then sees the others' scores)",
        parameters=[ID],
        request=None,
        responses=ACTION_RESPONSES,
    )
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        scoring = self._round(pk)
        services.round_decline(actor=request.user, scoring=scoring)
        return self._respond(pk)

    @extend_schema(
        operation_id="scoring_rounds_close",
        summary="Close the round (only whoever opened it)",
        description="Ends scoring and reveals what waited for it: a calibration, the "
        "manager's scorecard in a team review.",
        parameters=[ID],
        request=None,
        responses=ACTION_RESPONSES,
    )
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        scoring = self._round(pk)
        services.round_close(actor=request.user, scoring=scoring)
        return self._respond(pk)
