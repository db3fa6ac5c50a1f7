"""Peer pairs under /api/v1/: `peer-pairs/` (list, form, read, adjust the agreement,
accept, decline, leave, end; the pair's notes and habits; the people one may pair
with their focus-area averages; the programme admins' overview) and `pair-habits/`
(read, retire, check-ins).

Every list is scoped by the models' `visible_to`: a pair for its members and whoever
formed it, its notes, habits and check-ins for its members only; anything else is
404. The reason someone gave for declining or leaving is only in the overview, for
programme admins. Bad input → 400 with the reason, nothing saved."""

from django.core.exceptions import ValidationError as DjangoValidationError
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
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from coaching.api import FocusAreaRefSerializer
from coaching.models import CoachingSession
from core.api import (
    MAX_ID,
    NOT_FOUND,
    VALIDATION_ERROR,
    DetailSerializer,
    StrictSerializer,
    inline_enum,
    query_params,
    validated,
)
from core.errors import Forbidden
from people.access import HasRole, request_roles
from people.api import PersonRefSerializer
from people.models import User
from people.roles import Role

from . import rules, selectors, services
from .models import (
    NOTE_LIMIT,
    CheckInOutcome,
    Habit,
    HabitCheckIn,
    PairingRationale,
    PairNote,
    PeerPair,
)

PAIR_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)
HABIT_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)
MEMBER_STATES = ["invited", "accepted", "declined", "left"]
PAIR_STATUSES = ["forming", "active", "ended"]
NOT_A_LEAD = OpenApiResponse(
    DetailSerializer, description="Only programme admins and leads (for their people) form pairs."
)
NOT_YOURS = OpenApiResponse(
    DetailSerializer, description="You see it but may not do this (`peers.rules`): the reason."
)


# --- Output --------------------------------------------------------------------------------


class PairMemberSerializer(serializers.Serializer):
    person = PersonRefSerializer()
    state = serializers.SerializerMethodField()
    accepted_at = serializers.DateTimeField(allow_null=True)
    left_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(inline_enum(MEMBER_STATES))
    def get_state(self, member) -> str:
        return selectors.member_state(member, self.context["pair"])


class NextSessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    scheduled_start = serializers.DateTimeField()


class PeerPairSerializer(serializers.ModelSerializer):
    status = serializers.SerializerMethodField()
    focus_area = FocusAreaRefSerializer(read_only=True, allow_null=True)
    created_by = PersonRefSerializer(read_only=True)
    members = serializers.SerializerMethodField()
    cadence = serializers.SerializerMethodField()
    next_session = serializers.SerializerMethodField(
        help_text="The next scheduled session from the pair's cadence (its page is for "
        "the members)."
    )

    class Meta:
        model = PeerPair
        fields = ["id", "status", "rationale", "rationale_note", "focus_area"]
        fields += ["agreement_text", "weekday", "local_time", "time_zone", "interval_weeks"]
        fields += ["duration_minutes", "cadence", "created_by", "created_at", "started_at"]
        fields += ["ended_at", "members", "next_session"]
        read_only_fields = fields

    @extend_schema_field(inline_enum(PAIR_STATUSES))
    def get_status(self, pair) -> str:
        return pair.status

    @extend_schema_field(PairMemberSerializer(many=True))
    def get_members(self, pair):
        return PairMemberSerializer(pair.members.all(), many=True, context={"pair": pair}).data

    def get_cadence(self, pair) -> str:
        return selectors.cadence_text(pair)

    @extend_schema_field(NextSessionSerializer(allow_null=True))
    def get_next_session(self, pair):
        if getattr(pair, "next_session_id", None) is None:
            return None
        return NextSessionSerializer(
            {"id": pair.next_session_id, "scheduled_start": pair.next_session_start}
        ).data


class OverviewMemberSerializer(PairMemberSerializer):
    left_reason = serializers.CharField(
        help_text="What they gave as a reason, if anything: programme admins only."
    )


class PairOverviewSerializer(PeerPairSerializer):
    class Meta(PeerPairSerializer.Meta):
        fields = [f for f in PeerPairSerializer.Meta.fields if f != "agreement_text"]
        read_only_fields = fields

    @extend_schema_field(OverviewMemberSerializer(many=True))
    def get_members(self, pair):
        return OverviewMemberSerializer(pair.members.all(), many=True, context={"pair": pair}).data


class PairNoteSerializer(serializers.ModelSerializer):
    author = PersonRefSerializer(read_only=True)

    class Meta:
        model = PairNote
        fields = ["id", "author", "text", "created_at"]
        read_only_fields = fields


class CheckInSerializer(serializers.ModelSerializer):
    checked_by = PersonRefSerializer(read_only=True)
    outcome = serializers.SerializerMethodField()

    class Meta:
        model = HabitCheckIn
        fields = ["id", "checked_by", "outcome", "note", "session", "checked_on", "created_at"]
        read_only_fields = fields

    @extend_schema_field(inline_enum(CheckInOutcome.values))
    def get_outcome(self, check_in) -> str:
        return check_in.outcome


class HabitSerializer(serializers.ModelSerializer):
    owner = PersonRefSerializer(read_only=True)
    recent_check_ins = CheckInSerializer(many=True, read_only=True)

    class Meta:
        model = Habit
        fields = ["id", "pair", "owner", "text", "created_at", "retired_at", "recent_check_ins"]
        read_only_fields = fields


class CandidateSerializer(serializers.Serializer):
    person = PersonRefSerializer()
    focus_average = serializers.FloatField(
        allow_null=True,
        help_text="Latest month's coaches'-and-peers' average on the focus area's criteria, "
        "from the scorecards you may see.",
    )
    month = serializers.DateField(allow_null=True)
    scores = serializers.IntegerField(help_text="How many scores that average is of.")
    previous_month_average = serializers.FloatField(allow_null=True)
    asked_for_peer = serializers.BooleanField(help_text="They asked for a peer.")
    peer_request_note = serializers.CharField(
        allow_null=True, help_text="What they would like to work on, when they asked."
    )


# --- Input -----------------------------------------------------------------------------------


@extend_schema_field(OpenApiTypes.INT)
class CurrentFocusAreaField(serializers.PrimaryKeyRelatedField):
    default_error_messages = {
        "does_not_exist": "Pick a current focus area, or none.",
        "incorrect_type": "Give a focus area's id (a number), not {data_type}.",
    }

    def get_queryset(self):
        return selectors.current_focus_areas()


class PairCreateSerializer(StrictSerializer):
    members = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        help_text="Two people's ids, or three for a trio: on a team you lead or below you "
        "(anyone, for a programme admin).",
    )
    rationale = serializers.ChoiceField(choices=PairingRationale.choices)
    rationale_note = serializers.CharField(
        max_length=500, required=False, allow_blank=True, default=""
    )
    focus_area = CurrentFocusAreaField(required=False, allow_null=True, default=None)
    weekday = serializers.IntegerField(help_text="0 = Monday … 6 = Sunday.")
    local_time = serializers.TimeField(help_text="Wall time in the pair's time zone.")
    time_zone = serializers.CharField(
        max_length=64, required=False, help_text="Defaults to the first member's."
    )
    interval_weeks = serializers.IntegerField(default=2, help_text="Every 1 to 4 weeks.")
    duration_minutes = serializers.IntegerField(
        default=services.DEFAULT_MINUTES, help_text="30 by default."
    )
    agreement_text = serializers.CharField(
        max_length=NOTE_LIMIT, required=False, help_text="Defaults to the programme's template."
    )


class AgreementSerializer(StrictSerializer):
    agreement_text = serializers.CharField(max_length=NOTE_LIMIT)


class StepOutSerializer(StrictSerializer):
    reason = serializers.CharField(
        max_length=services.REASON_LIMIT,
        required=False,
        allow_blank=True,
        default="",
        help_text="Optional; only programme admins ever see it.",
    )


class NoteCreateSerializer(StrictSerializer):
    text = serializers.CharField(max_length=NOTE_LIMIT)


class HabitCreateSerializer(StrictSerializer):
    text = serializers.CharField(max_length=services.HABIT_LIMIT)


class CheckInCreateSerializer(StrictSerializer):
    outcome = serializers.ChoiceField(choices=CheckInOutcome.choices)
    note = serializers.CharField(
        max_length=services.CHECK_IN_NOTE_LIMIT, required=False, allow_blank=True, default=""
    )
    session = serializers.IntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        default=None,
        help_text="One of the pair's sessions you were in (optional).",
    )


class PairFilterSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=PAIR_STATUSES, required=False)


class CandidateFilterSerializer(serializers.Serializer):
    focus_area = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


def _status_filter(queryset, request):
    """`?status=` of a list, as the All pairs page's states (400 if unknown)."""
    wanted = query_params(PairFilterSerializer, request).get("status", "")
    return queryset.filter(selectors.PAIR_STATES[wanted][1])


def _members_from(ids: list[int], user) -> list[User]:
    """The people named, in the order given; an unknown id reads like any other person
    one may not pair (ids cannot be probed)."""
    found = User.objects.in_bulk(ids)
    missing = [pk for pk in ids if pk not in found]
    if missing:
        raise DjangoValidationError(
            {
                "members": "You can pair people on a team you lead or below you; "
                f"not id {missing[0]}."
            }
        )
    return [found[pk] for pk in ids]


# --- Pairs -------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        operation_id="peer_pairs_list",
        summary="Peer pairs you are in (or were) and pairs you formed",
        parameters=[OpenApiParameter("status", enum=PAIR_STATUSES)],
        responses={200: PeerPairSerializer(many=True), 400: VALIDATION_ERROR},
    ),
    retrieve=extend_schema(
        operation_id="peer_pairs_retrieve",
        parameters=[PAIR_ID],
        responses={200: PeerPairSerializer, 404: NOT_FOUND},
    ),
)
class PeerPairViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Peer pairs and trios: formed by programme admins or leads, started once every
    member accepted the agreement, met through the cadence engine."""

    serializer_class = PeerPairSerializer
    lookup_value_converter = "int"

    def get_serializer_class(self):
        inputs = {
            "create": PairCreateSerializer,
            "partial_update": AgreementSerializer,
            "decline": StepOutSerializer,
            "leave": StepOutSerializer,
            "notes": NoteCreateSerializer,
            "habits": HabitCreateSerializer,
        }
        if self.request is not None and self.request.method == "GET":
            return PeerPairSerializer
        return inputs.get(self.action, PeerPairSerializer)

    def get_queryset(self):
        return selectors.pairs_for(user=self.request.user)

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        return _status_filter(queryset, self.request)

    def _respond(self, pair, code=status.HTTP_200_OK):
        pair = selectors.pairs_for(user=self.request.user).filter(pk=pair.pk).first()
        if pair is None:  # e.g. a programme admin ended a pair they do not see
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(PeerPairSerializer(pair).data, status=code)

    @extend_schema(
        operation_id="peer_pairs_create",
        summary="Form a pair or a trio (programme admins; leads, for their people)",
        request=PairCreateSerializer,
        responses={201: PeerPairSerializer, 400: VALIDATION_ERROR, 403: NOT_A_LEAD},
    )
    def create(self, request):
        roles = request_roles(request)
        data = validated(PairCreateSerializer, request)
        if refusal := rules.why_not_form_pairs(request.user, roles):
            raise Forbidden(refusal)
        members = _members_from(data.pop("members"), request.user)
        pair = services.pair_create(actor=request.user, members=members, **data)
        return self._respond(pair, status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="peer_pairs_agreement",
        summary="Adjust the agreement (whoever formed the pair, until someone accepted)",
        parameters=[PAIR_ID],
        request=AgreementSerializer,
        responses={200: PeerPairSerializer, 400: VALIDATION_ERROR, 403: NOT_YOURS, 404: NOT_FOUND},
    )
    def partial_update(self, request, pk=None):
        pair = self.get_object()
        data = validated(AgreementSerializer, request)
        services.pair_agreement_update(pair=pair, actor=request.user, text=data["agreement_text"])
        return self._respond(pair)

    @extend_schema(
        operation_id="peer_pairs_accept",
        summary="Accept the agreement; the pair starts when the last member does",
        parameters=[PAIR_ID],
        request=None,
        responses={200: PeerPairSerializer, 400: VALIDATION_ERROR, 403: NOT_YOURS, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        pair = self.get_object()
        return self._respond(services.pair_accept(pair=pair, actor=request.user))

    @extend_schema(
        operation_id="peer_pairs_decline",
        summary="Decline before the pair starts (a reason is optional, for admins only)",
        parameters=[PAIR_ID],
        request=StepOutSerializer,
        responses={200: PeerPairSerializer, 400: VALIDATION_ERROR, 403: NOT_YOURS, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        pair = self.get_object()
        data = validated(StepOutSerializer, request)
        return self._respond(
            services.pair_decline(pair=pair, actor=request.user, reason=data["reason"])
        )

    @extend_schema(
        operation_id="peer_pairs_leave",
        summary="Leave a pair that started (a reason is optional, for admins only)",
        parameters=[PAIR_ID],
        request=StepOutSerializer,
        responses={200: PeerPairSerializer, 400: VALIDATION_ERROR, 403: NOT_YOURS, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def leave(self, request, pk=None):
        pair = self.get_object()
        data = validated(StepOutSerializer, request)
        return self._respond(
            services.pair_leave(pair=pair, actor=request.user, reason=data["reason"])
        )

    @extend_schema(
        operation_id="peer_pairs_end",
        summary="End the pair (whoever formed it, or a programme admin); history stays",
        parameters=[PAIR_ID],
        request=None,
        responses={
            200: PeerPairSerializer,
            204: None,
            400: VALIDATION_ERROR,
            403: NOT_YOURS,
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["post"])
    def end(self, request, pk=None):
        if selectors.is_programme_admin(request.user, request_roles(request)):
            pair = PeerPair.objects.filter(pk=pk).first()
            if pair is None:
                raise NotFound
        else:
            pair = self.get_object()
        return self._respond(services.pair_end(pair=pair, actor=request.user))

    @extend_schema(
        methods=["GET"],
        operation_id="peer_pairs_notes_list",
        summary="The pair's notes (members only: what was written while they were in it)",
        parameters=[PAIR_ID],
        responses={200: PairNoteSerializer(many=True), 404: NOT_FOUND},
    )
    @extend_schema(
        methods=["POST"],
        operation_id="peer_pairs_notes_create",
        summary="Add a note (current members only)",
        parameters=[PAIR_ID],
        request=NoteCreateSerializer,
        responses={201: PairNoteSerializer, 400: VALIDATION_ERROR, 403: NOT_YOURS, 404: NOT_FOUND},
    )
    # Answers one unpaginated list, and the schema says so.
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def notes(self, request, pk=None):
        pair = self.get_object()
        if request.method == "POST":
            data = validated(NoteCreateSerializer, request)
            note = services.pair_note_add(pair=pair, actor=request.user, text=data["text"])
            note = PairNote.objects.select_related("author").get(pk=note.pk)
            return Response(PairNoteSerializer(note).data, status=status.HTTP_201_CREATED)
        notes = selectors.notes_of(pair=pair, user=request.user)
        return Response(PairNoteSerializer(notes, many=True).data)

    @extend_schema(
        methods=["GET"],
        operation_id="peer_pairs_habits_list",
        summary="Each member's habits with their recent check-ins (members only)",
        parameters=[PAIR_ID],
        responses={200: HabitSerializer(many=True), 404: NOT_FOUND},
    )
    @extend_schema(
        methods=["POST"],
        operation_id="peer_pairs_habits_create",
        summary="Add a habit of your own (current members; at most three at a time)",
        parameters=[PAIR_ID],
        request=HabitCreateSerializer,
        responses={201: HabitSerializer, 400: VALIDATION_ERROR, 403: NOT_YOURS, 404: NOT_FOUND},
    )
    # Answers one unpaginated list, and the schema says so.
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def habits(self, request, pk=None):
        pair = self.get_object()
        if request.method == "POST":
            data = validated(HabitCreateSerializer, request)
            habit = services.habit_add(pair=pair, actor=request.user, text=data["text"])
            habit = selectors.habits_of(user=request.user).get(pk=habit.pk)
            return Response(HabitSerializer(habit).data, status=status.HTTP_201_CREATED)
        habits = selectors.habits_of(user=request.user, pair=pair)
        return Response(HabitSerializer(habits, many=True).data)

    @extend_schema(
        operation_id="peer_pairs_candidates",
        summary="People you may pair, with their latest average on a focus area",
        description="The coaches'-and-peers' average on the focus area's scorecard "
        "criteria, in the latest month with scores — from the scorecards you may see "
        "yourself (none for a programme admin who is not in someone's chain). By name, "
        "a page at a time: a programme admin may pair anyone in the organisation. 404 "
        "for people who do not form pairs.",
        parameters=[OpenApiParameter("focus_area", OpenApiTypes.INT)],
        responses={200: CandidateSerializer(many=True), 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=False, methods=["get"])
    def candidates(self, request):
        roles = request_roles(request)
        if not rules.may_form_pairs(request.user, roles):
            raise NotFound
        params = query_params(CandidateFilterSerializer, request)
        focus_area = None
        if "focus_area" in params:
            focus_area = selectors.current_focus_areas().filter(pk=params["focus_area"]).first()
            if focus_area is None:
                raise serializers.ValidationError({"focus_area": "Pick a current focus area."})
        people = self.paginate_queryset(selectors.formable_people(user=request.user, roles=roles))
        ids = [p.pk for p in people]
        scores = selectors.focus_scores(viewer=request.user, focus_area=focus_area, people=ids)
        asked = selectors.peer_requests_of(ids)
        rows = []
        for person in people:
            score, ask = scores.get(person.pk), asked.get(person.pk)
            rows.append(
                {
                    "person": person,
                    "focus_average": score.average if score else None,
                    "month": score.month if score else None,
                    "scores": score.count if score else 0,
                    "previous_month_average": score.previous if score else None,
                    "asked_for_peer": ask is not None,
                    "peer_request_note": ask.note if ask else None,
                }
            )
        return self.get_paginated_response(CandidateSerializer(rows, many=True).data)

    @extend_schema(
        operation_id="peer_pairs_overview",
        summary="Every pair, with the reasons people gave for leaving (programme admins)",
        description="Never the pairs' notes, habits or check-ins. 404 for anyone else.",
        parameters=[OpenApiParameter("status", enum=PAIR_STATUSES)],
        responses={
            200: PairOverviewSerializer(many=True),
            400: VALIDATION_ERROR,
            404: NOT_FOUND,
        },
    )
    @action(
        detail=False,
        methods=["get"],
        permission_classes=[HasRole.of(Role.PROGRAMME_ADMIN)],
    )
    def overview(self, request):
        page = self.paginate_queryset(_status_filter(selectors.overview_queryset(), request))
        return self.get_paginated_response(PairOverviewSerializer(page, many=True).data)


# --- Habits --------------------------------------------------------------------------------------


def _session_for(pk):
    if pk is None:
        return None
    session = CoachingSession.objects.filter(pk=pk).first()
    if session is None:
        raise serializers.ValidationError(
            {"session": "Pick one of this pair's sessions you were in."}
        )
    return session


@extend_schema_view(
    list=extend_schema(
        operation_id="pair_habits_list",
        summary="The habits in your pairs (yours and your partners'), with recent check-ins",
        responses={200: HabitSerializer(many=True)},
    ),
    retrieve=extend_schema(
        operation_id="pair_habits_retrieve",
        parameters=[HABIT_ID],
        responses={200: HabitSerializer, 404: NOT_FOUND},
    ),
)
class PairHabitViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Habits each member keeps; the partner checks them in at each session."""

    serializer_class = HabitSerializer
    lookup_value_converter = "int"

    def get_serializer_class(self):
        if self.action == "check_ins" and self.request and self.request.method == "POST":
            return CheckInCreateSerializer
        return HabitSerializer

    def get_queryset(self):
        return selectors.habits_of(user=self.request.user).order_by("pair_id", "created_at", "pk")

    def _respond(self, habit):
        return Response(HabitSerializer(self.get_queryset().get(pk=habit.pk)).data)

    @extend_schema(
        operation_id="pair_habits_retire",
        summary="Retire one of your habits",
        parameters=[HABIT_ID],
        request=None,
        responses={200: HabitSerializer, 400: VALIDATION_ERROR, 403: NOT_YOURS, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def retire(self, request, pk=None):
        habit = self.get_object()
        return self._respond(services.habit_retire(habit=habit, actor=request.user))

    @extend_schema(
        methods=["GET"],
        operation_id="pair_habits_check_ins_list",
        summary="Every check-in of the habit, newest first",
        parameters=[HABIT_ID],
        responses={200: CheckInSerializer(many=True), 404: NOT_FOUND},
    )
    @extend_schema(
        methods=["POST"],
        operation_id="pair_habits_check_ins_create",
        summary="Check in your partner's habit (once per session)",
        parameters=[HABIT_ID],
        request=CheckInCreateSerializer,
        responses={201: CheckInSerializer, 400: VALIDATION_ERROR, 403: NOT_YOURS, 404: NOT_FOUND},
    )
    # Answers one unpaginated list, and the schema says so.
    @action(detail=True, methods=["get", "post"], url_path="check-ins", pagination_class=None)
    def check_ins(self, request, pk=None):
        habit = self.get_object()
        if request.method == "POST":
            data = validated(CheckInCreateSerializer, request)
            check_in = services.habit_check_in(
                habit=habit,
                actor=request.user,
                outcome=data["outcome"],
                note=data["note"],
                session=_session_for(data["session"]),
            )
            check_in = HabitCheckIn.objects.select_related("checked_by").get(pk=check_in.pk)
            return Response(CheckInSerializer(check_in).data, status=status.HTTP_201_CREATED)
        return Response(CheckInSerializer(selectors.check_ins_of(habit=habit), many=True).data)


def register(router) -> None:
    """Add this area's viewsets to the API router."""
    router.register("peer-pairs", PeerPairViewSet, basename="peer-pair")
    router.register("pair-habits", PairHabitViewSet, basename="pair-habit")
