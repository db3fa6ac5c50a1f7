"""The coaching API under /api/v1/: sessions, with their shared notes, the requester's
private note, the coachee's rating and the held / cancel / reschedule actions; and the
plumbing the rest of the coaching API shares (agenda items: coaching.api_agenda,
commitments: coaching.api_commitments, focus areas and prompts:
coaching.api_focus_areas).

Views validate, call one service or selector and respond. Who may *see* what is
`visible_to`; who may *do* what is `coaching.rules`, enforced by the services. The
status codes are the same everywhere:

- not visible to the requester → 404 (never 403: existence is not revealed);
- visible, but `coaching.rules` say the requester may not do this (a manager reading
  along tries to edit the notes, a coachee tries to cancel) → 403 with the service's
  message;
- bad input or a refused change → 400 with the message a page would show (also
  for removing someone else's agenda item: that rule lives only in the service);
- notes saved from an older `version` are merged per field; a field two people
  changed → 409 with both texts and the version saved now, so nothing is lost.
"""

from contextlib import contextmanager
from datetime import UTC, datetime

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, NotFound, PermissionDenied
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response

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
from people.api import PersonRefSerializer, TeamRefSerializer
from people.api_common import PersonField
from people.models import Team, User
from scorecards.models import RecordedCall

from . import ratings, rules, selectors, services
from .models import (
    RATING_COMMENT_LIMIT,
    TEXT_LIMIT,
    CancelReason,
    CoachingSession,
    FocusArea,
    ParticipantRole,
    PrivateNote,
    SessionChange,
    SessionKind,
    SessionParticipant,
    SessionRating,
    SessionStatus,
    SharedNotes,
)
from .selectors_notes import notes_shown

# Ids in paths are `<int:pk>` (the router uses path(), not regexes): anything else is a
# plain 404 from the resolver, and the view always gets an int.
ID_CONVERTER = "int"


# --- Plumbing ------------------------------------------------------------------------


def stale_response(stale: services.StaleEdit, detail: str | None = None) -> Response:
    body = {"detail": detail or str(stale), "current": stale.current, "version": stale.version}
    if stale.conflicts:
        body["conflicts"] = stale.conflicts
    return Response(body, status=status.HTTP_409_CONFLICT)


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "This conflicts with what is saved."
    default_code = "conflict"


class NotesConflict(Conflict):
    """An action sent with notes that would overwrite someone else's words: the
    409 carries both texts, as a notes save does, and nothing happened."""

    def __init__(self, stale: services.StaleEdit):
        super().__init__()
        self.detail = {
            "detail": f"Nothing was done: {stale}",
            "current": stale.current,
            "version": stale.version,
            "conflicts": stale.conflicts,
        }


@contextmanager
def stale_as_409():
    try:
        yield
    except services.StaleEdit as stale:
        raise NotesConflict(stale) from None


FORBIDDEN = OpenApiResponse(
    DetailSerializer,
    description="You can see this but may not do it (for example a manager reading "
    "along, or someone not running the session). Carries the reason.",
)


class AwareDateTimeField(serializers.DateTimeField):
    """ISO 8601 with a time zone. A naive time is refused: read as UTC it would put
    a session hours off for anyone not in UTC."""

    default_error_messages = {
        "naive": "Give a date and time with a time zone, e.g. 2026-05-04T09:30:00+02:00."
    }

    def enforce_timezone(self, value):
        if timezone.is_naive(value):
            self.fail("naive")
        return super().enforce_timezone(value)


class VisibleSessionField(serializers.PrimaryKeyRelatedField):
    """A session the requester can see (with its people, for the rules). Any other id
    — unknown or someone else's — is the same 400, so ids cannot be probed."""

    default_error_messages = {
        "does_not_exist": "Unknown session.",
        "incorrect_type": "Give a session id (a number), not {data_type}.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("queryset", CoachingSession.objects.none())  # for the schema
        super().__init__(**kwargs)

    def get_queryset(self):
        return CoachingSession.objects.visible_to(self.context["request"].user).with_people()


class CurrentFocusAreaField(serializers.PrimaryKeyRelatedField):
    default_error_messages = {
        "does_not_exist": "No current focus area with id {pk_value}.",
        "incorrect_type": "Give a focus area id (a number), not {data_type}.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("queryset", FocusArea.objects.none())  # for the schema
        super().__init__(**kwargs)

    def get_queryset(self):
        return selectors.focus_areas_for_choice()


# A team call review is planned by the team's lead or someone above them; any other
# team — unknown or not theirs — gets this one message.
NOT_YOUR_TEAM = "Pick a team that you, or someone who reports to you, leads."


class TeamField(serializers.PrimaryKeyRelatedField):
    default_error_messages = {
        "does_not_exist": "No team with id {pk_value}.",
        "incorrect_type": "Give a team id (a number), not {data_type}.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("queryset", Team.objects.all())
        super().__init__(**kwargs)


class ReviewTeamField(TeamField):
    default_error_messages = {"does_not_exist": NOT_YOUR_TEAM}


# --- Sessions: representation --------------------------------------------------------


class FocusAreaRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = FocusArea
        fields = ["id", "name"]


class PresentedCallSerializer(serializers.ModelSerializer):
    class Meta:
        model = RecordedCall
        fields = ["url", "title", "call_date", "timestamps"]


class ParticipantSerializer(serializers.ModelSerializer):
    person = PersonRefSerializer()

    class Meta:
        model = SessionParticipant
        fields = ["person", "role", "speaking_order"]


class SessionChangeSerializer(serializers.ModelSerializer):
    actor = PersonRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = SessionChange
        fields = [
            "kind",
            "actor",
            "at",
            "from_start",
            "from_minutes",
            "to_start",
            "to_minutes",
            "cancel_reason",
            "cancel_note",
            "sequence",
        ]
        read_only_fields = fields


class SessionSerializer(serializers.ModelSerializer):
    """A session as the requester sees it. Never carries private notes; the shared
    notes are at `sessions/{id}/notes/`."""

    team = TeamRefSerializer(read_only=True, allow_null=True)
    focus_area = FocusAreaRefSerializer(read_only=True, allow_null=True)
    participants = ParticipantSerializer(many=True, read_only=True)
    presented_call = PresentedCallSerializer(read_only=True, allow_null=True)
    changes = SessionChangeSerializer(
        many=True,
        read_only=True,
        help_text="Who moved or cancelled it, when, from when to when; oldest first.",
    )
    viewer_role = serializers.SerializerMethodField(
        help_text="The requester's role in the session; null for a manager reading along."
    )
    can_run = serializers.SerializerMethodField(help_text="May log it held, move it or cancel it.")
    can_edit = serializers.SerializerMethodField(help_text="May edit the shared notes.")

    class Meta:
        model = CoachingSession
        fields = [
            "id",
            "kind",
            "status",
            "scheduled_start",
            "original_start",
            "duration_minutes",
            "team",
            "focus_area",
            "participants",
            "presented_call",
            "scenario",
            "drills",
            "held_at",
            "held_but_empty",
            "cancel_reason",
            "cancel_note",
            "sequence",
            "changes",
            "viewer_role",
            "can_run",
            "can_edit",
        ]
        read_only_fields = fields

    @property
    def _viewer(self):
        return self.context["request"].user

    @extend_schema_field(inline_enum(ParticipantRole.values, nullable=True))
    def get_viewer_role(self, session) -> str | None:
        return rules.role_in(self._viewer, session)

    def get_can_run(self, session) -> bool:
        return rules.may_run(self._viewer, session)

    def get_can_edit(self, session) -> bool:
        return rules.may_edit_notes(self._viewer, session)


class SessionFilterSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=SessionStatus.choices, required=False)
    kind = serializers.ChoiceField(choices=SessionKind.choices, required=False)
    person = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)

    def get_fields(self):
        fields = super().get_fields()
        # `from` is a keyword in Python, so these two are added by name.
        fields["from"] = AwareDateTimeField(required=False)
        fields["to"] = AwareDateTimeField(required=False)
        return fields


# --- Sessions: creating --------------------------------------------------------------


class SessionCreateBase(StrictSerializer):
    kind = serializers.ChoiceField(choices=SessionKind.choices)
    scheduled_start = AwareDateTimeField(
        help_text="ISO 8601 with a time zone; within 60 days back and a year ahead."
    )
    duration_minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=5,
        max_value=480,
        help_text="Defaults to the kind's usual length.",
    )

    def create_session(self, actor: User) -> CoachingSession:  # pragma: no cover
        raise NotImplementedError


class OneOnOneCreateSerializer(SessionCreateBase):
    """A weekly 1:1: you coach someone who reports to you (directly or further down)."""

    coachee = PersonField()
    focus_area = CurrentFocusAreaField(required=False, allow_null=True)

    def create_session(self, actor):
        data = self.validated_data
        return services.one_on_one_create(
            coach=actor,
            coachee=data["coachee"],
            start=data["scheduled_start"],
            duration_minutes=data.get("duration_minutes"),
            focus_area=data.get("focus_area"),
        )


class TeamCallReviewCreateSerializer(SessionCreateBase):
    """A team dissects one member's recorded call; the host rotates if not given."""

    team = ReviewTeamField(help_text="A team you lead, or one led by someone below you.")
    presenter = PersonField()
    host = PersonField(required=False, allow_null=True)
    call_url = serializers.URLField(max_length=500)
    call_title = serializers.CharField(max_length=200)
    call_date = serializers.DateField()
    call_timestamps = serializers.CharField(
        max_length=2000, required=False, allow_blank=True, default=""
    )
    focus_area = CurrentFocusAreaField(required=False, allow_null=True)

    def create_session(self, actor):
        data = self.validated_data
        try:
            return services.team_call_review_create(
                actor=actor,
                team=data["team"],
                start=data["scheduled_start"],
                presenter=data["presenter"],
                call_url=data["call_url"],
                call_title=data["call_title"],
                call_date=data["call_date"],
                call_timestamps=data["call_timestamps"],
                host=data.get("host"),
                focus_area=data.get("focus_area"),
                duration_minutes=data.get("duration_minutes"),
            )
        except Http404:
            # The service hides other people's teams; here that is a bad team id.
            raise DjangoValidationError({"team": NOT_YOUR_TEAM}) from None


class RolePlayCreateSerializer(SessionCreateBase):
    """Practice of one focus area with people who report to you."""

    participants = PersonField(many=True, allow_empty=False)
    focus_area = CurrentFocusAreaField(
        error_messages={
            "required": "A role-play practises one focus area: pick one.",
            "null": "A role-play practises one focus area: pick one.",
        }
    )
    scenario = serializers.CharField(max_length=TEXT_LIMIT)
    drills = serializers.CharField(
        max_length=TEXT_LIMIT, required=False, allow_blank=True, default=""
    )
    team = TeamField(required=False, allow_null=True)

    def create_session(self, actor):
        data = self.validated_data
        return services.role_play_create(
            coach=actor,
            participants=data["participants"],
            focus_area=data["focus_area"],
            start=data["scheduled_start"],
            scenario=data["scenario"],
            drills=data["drills"],
            team=data.get("team"),
            duration_minutes=data.get("duration_minutes"),
        )


class ManagerReviewCreateSerializer(SessionCreateBase):
    """A manager of managers coaches a manager below them on their coaching."""

    manager = PersonField()

    def create_session(self, actor):
        data = self.validated_data
        return services.manager_review_create(
            coach=actor,
            manager=data["manager"],
            start=data["scheduled_start"],
            duration_minutes=data.get("duration_minutes"),
        )


class PeerSessionCreateSerializer(SessionCreateBase):
    """Peer coaching between you and one colleague."""

    peer = PersonField()

    def create_session(self, actor):
        data = self.validated_data
        return services.peer_session_create(
            actor=actor,
            peer=data["peer"],
            start=data["scheduled_start"],
            duration_minutes=data.get("duration_minutes"),
        )


SESSION_CREATE_SERIALIZERS = {
    SessionKind.ONE_ON_ONE: OneOnOneCreateSerializer,
    SessionKind.TEAM_CALL_REVIEW: TeamCallReviewCreateSerializer,
    SessionKind.ROLE_PLAY: RolePlayCreateSerializer,
    SessionKind.MANAGER_REVIEW: ManagerReviewCreateSerializer,
    SessionKind.PEER: PeerSessionCreateSerializer,
}


class SessionKindSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=SessionKind.choices)


# --- Notes ---------------------------------------------------------------------------


class NotesContentSerializer(serializers.ModelSerializer):
    class Meta:
        model = SharedNotes
        fields = list(SharedNotes.FIELDS)
        read_only_fields = fields


class NotesSerializer(serializers.ModelSerializer):
    class Meta:
        model = SharedNotes
        fields = [*SharedNotes.FIELDS, "version", "updated_at", "coachee_prepared_at"]
        read_only_fields = fields


def _note_text(**kwargs):
    return serializers.CharField(
        required=False, allow_blank=True, max_length=TEXT_LIMIT, trim_whitespace=False, **kwargs
    )


class NotesUpdateSerializer(StrictSerializer):
    version = serializers.IntegerField(
        min_value=0, help_text="The version you started from (from GET)."
    )
    goal = _note_text()
    reality = _note_text()
    reality_evidence_url = serializers.URLField(required=False, allow_blank=True, max_length=500)
    options = _note_text()
    will = _note_text()
    notes = _note_text()

    def to_internal_value(self, data):
        # Also where it is nested (the `notes` of held / cancel / reschedule), which
        # StrictSerializer alone does not reach.
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return super().to_internal_value(data)

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if not set(attrs) & set(SharedNotes.FIELDS):
            raise serializers.ValidationError(
                f"Send at least one of: {', '.join(SharedNotes.FIELDS)}."
            )
        return attrs


class FieldConflictSerializer(serializers.Serializer):
    saved = serializers.CharField(help_text="What the other person saved (kept).")
    yours = serializers.CharField(help_text="What you sent (not saved).")


class StaleNotesSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current = NotesContentSerializer(help_text="The notes as saved now.")
    version = serializers.IntegerField(help_text="Their version: resend from this one.")
    conflicts = serializers.DictField(
        child=FieldConflictSerializer(),
        required=False,
        help_text="Per field both of you changed: both texts. The other fields you sent "
        "are merged and saved (in `current`).",
    )


ACTION_ERRORS = {
    400: VALIDATION_ERROR,
    403: FORBIDDEN,
    404: NOT_FOUND,
    409: OpenApiResponse(
        StaleNotesSerializer, description="The notes sent clash with what someone saved."
    ),
}


def notes_sent(data: dict) -> dict | None:
    """The `notes` object of a held / cancel / reschedule request, as the service
    takes it (None when none was sent)."""
    return dict(data["notes"]) if data.get("notes") else None


# --- Sessions: actions ---------------------------------------------------------------


NOTES_FIRST_HELP = (
    "The shared notes typed so far (`version` you started from and the fields), "
    "saved first in the same request, merged per field; if someone else changed the "
    "same field, nothing happens and the answer is 409 with both texts."
)


def _notes_first():
    return NotesUpdateSerializer(required=False, help_text=NOTES_FIRST_HELP)


class SessionHeldSerializer(StrictSerializer):
    held_at = AwareDateTimeField(
        required=False, allow_null=True, help_text="When it took place; defaults to now."
    )
    notes = _notes_first()


# The same choices as a session's `cancel_reason`, so the schema points at that enum
# rather than naming the same set twice.
@extend_schema_field({"$ref": "#/components/schemas/CancelReasonEnum"})
class CancelReasonField(serializers.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(choices=CancelReason.choices, **kwargs)


class SessionCancelSerializer(StrictSerializer):
    reason = CancelReasonField()
    note = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="Required when the reason is “other”.",
    )
    notes = _notes_first()


class SessionRescheduleSerializer(StrictSerializer):
    scheduled_start = AwareDateTimeField()
    duration_minutes = serializers.IntegerField(
        required=False, allow_null=True, min_value=5, max_value=480
    )
    notes = _notes_first()


class PrivateNoteSerializer(serializers.Serializer):
    text = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField()


class PrivateNoteUpdateSerializer(StrictSerializer):
    text = serializers.CharField(allow_blank=True, max_length=TEXT_LIMIT, trim_whitespace=False)
    version = serializers.IntegerField(min_value=0)


class PrivateNoteTextSerializer(serializers.Serializer):
    text = serializers.CharField(allow_blank=True)


class StalePrivateNoteSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current = PrivateNoteTextSerializer()
    version = serializers.IntegerField()


# --- Session usefulness ---------------------------------------------------------------


class SessionRatingSerializer(serializers.ModelSerializer):
    """Your own rating of a session: nobody else ever reads it one by one."""

    open_until = serializers.SerializerMethodField(
        help_text="Until when you can change or remove it (14 days after the session was held)."
    )

    class Meta:
        model = SessionRating
        fields = ["score", "comment", "created_at", "updated_at", "open_until"]
        read_only_fields = fields

    def get_open_until(self, rating) -> datetime:
        return ratings.rating_closes_at(self.context["session"])


class SessionRatingUpdateSerializer(StrictSerializer):
    score = serializers.IntegerField(
        min_value=1,
        max_value=5,
        help_text="1 — not useful … 5 — very useful.",
        error_messages={
            "invalid": "Rate it from 1 (not useful) to 5 (very useful), as a number.",
            "min_value": "Rate it from 1 (not useful) to 5 (very useful).",
            "max_value": "Rate it from 1 (not useful) to 5 (very useful).",
        },
    )
    comment = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=RATING_COMMENT_LIMIT,
        help_text="Optional. Your coach reads it only among at least five ratings from "
        "three people, without your name; nobody else reads it.",
        error_messages={
            "max_length": f"Keep the comment under {RATING_COMMENT_LIMIT:,} characters."
        },
    )


NOT_THE_RATER = "Only the person coached in this session can rate it."


# --- Sessions: views -----------------------------------------------------------------

SESSION_CREATE_REQUEST = PolymorphicProxySerializer(
    component_name="SessionCreate",
    serializers={kind.value: cls for kind, cls in SESSION_CREATE_SERIALIZERS.items()},
    resource_type_field_name="kind",
)
SESSION_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)


class NewestFirstCursor(CursorPagination):
    """Pages of sessions, newest first, with `next` and `previous` links and no total:
    above a large organisation a million sessions are visible, and counting them cost
    seconds before any page. A link stays right while sessions are added (a page
    number would shift)."""

    ordering = ("-scheduled_start", "-id")
    page_size = 50

    def decode_cursor(self, request):
        """A cursor carries the position it stopped at; one that was not ours may carry
        anything there, which the filter on `scheduled_start` would choke on. Ours carry
        an offset, and a moment that cannot move to UTC (the year 9999 west of it) is
        not one of ours either."""
        cursor = super().decode_cursor(request)
        if cursor is not None and cursor.position is not None:
            try:
                moment = parse_datetime(cursor.position)
                if moment is not None and moment.utcoffset() is not None:
                    moment.astimezone(UTC)
                else:
                    moment = None
            except (ValueError, OverflowError):
                moment = None
            if moment is None:
                raise NotFound(self.invalid_cursor_message)
        return cursor


@extend_schema_view(
    list=extend_schema(
        operation_id="sessions_list",
        summary="Sessions visible to you, latest first, 50 a page (follow `next`)",
        parameters=[
            OpenApiParameter("status", enum=SessionStatus.values),
            OpenApiParameter("kind", enum=SessionKind.values),
            OpenApiParameter(
                "person", OpenApiTypes.INT, description="Sessions this person takes part in."
            ),
            OpenApiParameter(
                "from", OpenApiTypes.DATETIME, description="Scheduled to start at or after."
            ),
            OpenApiParameter(
                "to", OpenApiTypes.DATETIME, description="Scheduled to start at or before."
            ),
        ],
        responses={
            200: SessionSerializer(many=True),
            400: VALIDATION_ERROR,
            404: OpenApiResponse(DetailSerializer, description="A `cursor` we did not give."),
        },
    ),
    retrieve=extend_schema(
        operation_id="sessions_retrieve",
        parameters=[SESSION_ID],
        responses={200: SessionSerializer, 404: NOT_FOUND},
    ),
)
class SessionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Coaching sessions. Visible: participants and everyone above a participant in
    the reporting line (peer sessions stay with the peers). Never edited through PUT,
    PATCH or DELETE: sessions change through their actions."""

    serializer_class = SessionSerializer
    lookup_value_converter = ID_CONVERTER
    pagination_class = NewestFirstCursor

    def get_serializer_class(self):
        # The browsable API fills its PUT form from the answer's object through the
        # view's serializer: notes and private notes are not sessions.
        edits = {
            "notes": NotesUpdateSerializer,
            "private_note": PrivateNoteUpdateSerializer,
            "rating": SessionRatingUpdateSerializer,
        }
        return edits.get(self.action, SessionSerializer)

    def get_queryset(self):
        sessions = CoachingSession.objects
        if self.action == "list":
            visible = sessions.visible_for_lists(self.request.user)
        else:
            visible = sessions.visible_to(self.request.user)
        return (
            visible.with_people(names_only=True)
            .prefetch_related(selectors.changes_prefetch())
            .order_by("-scheduled_start", "-id")
        )

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(SessionFilterSerializer, self.request)
        if "status" in params:
            queryset = queryset.filter(status=params["status"])
        if "kind" in params:
            queryset = queryset.filter(kind=params["kind"])
        if "person" in params:
            queryset = queryset.filter(participants__person_id=params["person"])
        if "from" in params:
            queryset = queryset.filter(scheduled_start__gte=params["from"])
        if "to" in params:
            queryset = queryset.filter(scheduled_start__lte=params["to"])
        return queryset

    def _session(self, pk) -> CoachingSession:
        return selectors.access_session(user=self.request.user, pk=pk)

    def _respond(self, pk, status_code=status.HTTP_200_OK) -> Response:
        session = self._session(pk)
        return Response(self.get_serializer(session).data, status=status_code)

    @extend_schema(
        operation_id="sessions_create",
        summary="Plan a session; you are its coach, host or first peer",
        request=SESSION_CREATE_REQUEST,
        responses={201: SessionSerializer, 400: VALIDATION_ERROR},
    )
    def create(self, request):
        kind = validated(SessionKindSerializer, request)["kind"]
        serializer = SESSION_CREATE_SERIALIZERS[kind](
            data=request.data, context=self.get_serializer_context()
        )
        serializer.is_valid(raise_exception=True)
        session = serializer.create_session(request.user)
        return self._respond(session.pk, status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="sessions_held",
        summary="Log the session held",
        description=(
            "Whoever runs the session, while it is scheduled or missed, from the start of "
            "its day in their own time zone (a 1:1 brought forward to the morning); before "
            "its day, 400: move it to when the people met first."
        ),
        parameters=[SESSION_ID],
        request=SessionHeldSerializer,
        responses={200: SessionSerializer, **ACTION_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def held(self, request, pk=None):
        session = self._session(pk)
        data = validated(SessionHeldSerializer, request)
        with stale_as_409():
            services.session_mark_held(
                session=session,
                actor=request.user,
                held_at=data.get("held_at"),
                notes=notes_sent(data),
            )
        return self._respond(pk)

    @extend_schema(
        operation_id="sessions_cancel",
        summary="Cancel a scheduled session, with a reason",
        parameters=[SESSION_ID],
        request=SessionCancelSerializer,
        responses={200: SessionSerializer, **ACTION_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        session = self._session(pk)
        data = validated(SessionCancelSerializer, request)
        with stale_as_409():
            services.session_cancel(
                session=session,
                actor=request.user,
                reason=data["reason"],
                note=data["note"],
                notes=notes_sent(data),
            )
        return self._respond(pk)

    @extend_schema(
        operation_id="sessions_reschedule",
        summary="Move a scheduled session (its original slot is kept)",
        parameters=[SESSION_ID],
        request=SessionRescheduleSerializer,
        responses={200: SessionSerializer, **ACTION_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def reschedule(self, request, pk=None):
        session = self._session(pk)
        data = validated(SessionRescheduleSerializer, request)
        with stale_as_409():
            services.session_reschedule(
                session=session,
                actor=request.user,
                start=data["scheduled_start"],
                duration_minutes=data.get("duration_minutes"),
                notes=notes_sent(data),
            )
        return self._respond(pk)

    @extend_schema(
        methods=["GET"],
        operation_id="sessions_notes_retrieve",
        summary="The session's shared notes",
        parameters=[SESSION_ID],
        responses={200: NotesSerializer, 404: NOT_FOUND},
    )
    @extend_schema(
        methods=["PUT"],
        operation_id="sessions_notes_update",
        summary="Save shared notes from the version you read",
        description="Send `version` (the one you started from) and any of the note "
        "fields; fields not sent are kept. What others saved since is merged per field: "
        "a field only you changed is saved, one only they changed is kept. If you both "
        "changed the same field, it keeps their text and the answer is 409 with both "
        "texts in `conflicts` (your other fields are saved; resend from `version`). "
        "People who can read but not write the notes (managers above the coach) get 403.",
        parameters=[SESSION_ID],
        request=NotesUpdateSerializer,
        responses={
            200: NotesSerializer,
            400: VALIDATION_ERROR,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: OpenApiResponse(StaleNotesSerializer, description="Someone saved first."),
        },
    )
    @action(detail=True, methods=["get", "put"])
    def notes(self, request, pk=None):
        session = self._session(pk)
        if request.method == "GET":
            return Response(NotesSerializer(notes_shown(session)).data)
        data = validated(NotesUpdateSerializer, request)
        version = data.pop("version")
        try:
            notes = services.notes_save(
                session=session, actor=request.user, base_version=version, changes=data
            )
        except services.StaleEdit as stale:
            return stale_response(stale)
        session.notes = notes  # as saved, shown as the GET shows it (the carried goal)
        return Response(NotesSerializer(notes_shown(session)).data)

    @extend_schema(
        methods=["GET"],
        operation_id="sessions_private_note_retrieve",
        summary="Your own private note on the session",
        description="Only ever the requester's own note; empty with version 0 until "
        "first saved. Only people in the session keep one (403 for others who can see "
        "the session).",
        parameters=[SESSION_ID],
        responses={200: PrivateNoteSerializer, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @extend_schema(
        methods=["PUT"],
        operation_id="sessions_private_note_update",
        summary="Save your own private note from the version you read",
        parameters=[SESSION_ID],
        request=PrivateNoteUpdateSerializer,
        responses={
            200: PrivateNoteSerializer,
            400: VALIDATION_ERROR,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: OpenApiResponse(StalePrivateNoteSerializer, description="Saved elsewhere first."),
        },
    )
    @action(detail=True, methods=["get", "put"], url_path="private-note")
    def private_note(self, request, pk=None):
        session = self._session(pk)
        if request.method == "GET":
            if refusal := rules.why_not_keep_private_note(request.user, session):
                raise Forbidden(refusal)
            note = PrivateNote.objects.visible_to(request.user).filter(session=session).first()
            note = note or PrivateNote(text="", version=0)  # nothing written yet
            return Response(PrivateNoteSerializer(note).data)
        data = validated(PrivateNoteUpdateSerializer, request)
        try:
            note = services.private_note_save(
                session=session,
                author=request.user,
                text=data["text"],
                base_version=data["version"],
            )
        except services.StaleEdit as stale:
            return stale_response(stale)
        return Response(PrivateNoteSerializer(note).data)

    @extend_schema(
        methods=["GET"],
        operation_id="sessions_rating_retrieve",
        summary="Your own rating of the session",
        description="Only ever the requester's own rating: 404 when you have not rated "
        "it, or it is not yours to rate. A coach never reads a single rating.",
        parameters=[SESSION_ID],
        responses={200: SessionRatingSerializer, 404: NOT_FOUND},
    )
    @extend_schema(
        methods=["PUT"],
        operation_id="sessions_rating_update",
        summary="Rate the session, or change your rating",
        description="Only the coachee of a held 1:1 or manager review, for 14 days after "
        "it was held; the same rating is changed if you send it again. Others who can "
        "see the session get 403; a session not held, or held more than 14 days ago, "
        "is a 400.",
        parameters=[SESSION_ID],
        request=SessionRatingUpdateSerializer,
        responses={
            200: SessionRatingSerializer,
            400: VALIDATION_ERROR,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
    )
    @extend_schema(
        methods=["DELETE"],
        operation_id="sessions_rating_destroy",
        summary="Take your rating back while the session is open for rating",
        description="Only your own rating, within 14 days after the session was held: "
        "404 when you have not rated it.",
        parameters=[SESSION_ID],
        request=None,
        responses={204: None, 400: VALIDATION_ERROR, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get", "put", "delete"])
    def rating(self, request, pk=None):
        session = self._session(pk)
        allowed = ratings.is_rater(session, request.user)
        if request.method == "GET":
            mine = ratings.own_rating(session=session, user=request.user) if allowed else None
            if mine is None:
                raise Http404
            return Response(SessionRatingSerializer(mine, context={"session": session}).data)
        if request.method == "DELETE":
            if allowed and ratings.own_rating(session=session, user=request.user) is None:
                raise Http404
            services.session_rating_delete(session=session, rater=request.user)
            return Response(status=status.HTTP_204_NO_CONTENT)
        if not allowed:
            raise PermissionDenied(NOT_THE_RATER)
        data = validated(SessionRatingUpdateSerializer, request)
        rating = services.session_rating_save(
            session=session, rater=request.user, score=data["score"], comment=data["comment"]
        )
        return Response(SessionRatingSerializer(rating, context={"session": session}).data)
