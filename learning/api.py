"""API of the learning loop (registered by learning/api_urls.py):

- `experiments/`: my experiments and those I may see (the owner's chain, current pair
  partners); the owner plans, edits, starts, finishes and drops them.
- `learnings/`: the library, searchable (`?q=&tag=&kind=&focus_area=&team=`); authors
  publish, edit and unpublish their own.
- `playbook-modules/`: read by everyone, written by programme admins.
- `team-playbooks/`: the modules each team uses, for its lead and the people above.

Objects a person may not see are 404; one they see but do not own is 403 on a change
(with the reason). Bad input → 400 naming the field, nothing saved."""

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
from rest_framework.response import Response

from coaching.api import FocusAreaRefSerializer
from coaching.models import CoachingSession, Commitment, FocusArea
from core.api import (
    MAX_ID,
    NOT_FOUND,
    VALIDATION_ERROR,
    DetailSerializer,
    StrictSerializer,
    inline_enum,
    query_params,
    refuse_unknown_fields,
    validated,
)
from core.errors import Forbidden
from peers.models import PeerPair
from people.api import PersonRefSerializer, TeamRefSerializer
from people.api_common import ReadOrProgrammeAdmin
from people.models import Team

from . import rules, selectors, services
from .models import (
    Audience,
    Department,
    Experiment,
    ExperimentStatus,
    Learning,
    LearningKind,
    PlaybookModule,
)

ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)
FORBIDDEN = OpenApiResponse(
    DetailSerializer, description="You can see this but it is not yours to change."
)


def register(router) -> None:
    """Add this area's viewsets to the API router."""
    router.register("experiments", ExperimentViewSet, basename="experiment")
    router.register("learnings", LearningViewSet, basename="learning")
    router.register("playbook-modules", PlaybookModuleViewSet, basename="playbook-module")
    router.register("team-playbooks", TeamPlaybooksViewSet, basename="team-playbook")


# `status`, `kind`, `audience` and `department` name other sets of choices elsewhere in
# the API, so these stay inline (see `core.api.inline_enum`).


def _choice_field(choices_class):
    @extend_schema_field(inline_enum(choices_class.values))
    class Field(serializers.ChoiceField):
        def __init__(self, **kwargs):
            super().__init__(choices=choices_class.choices, **kwargs)

    Field.__name__ = f"{choices_class.__name__}Field"
    return Field


ExperimentStatusField = _choice_field(ExperimentStatus)
LearningKindField = _choice_field(LearningKind)
AudienceField = _choice_field(Audience)
DepartmentField = _choice_field(Department)


class _ScopedField(serializers.PrimaryKeyRelatedField):
    """An id among what the requester may reference; any other id (unknown or not
    theirs) is the same 400, so ids cannot be probed."""

    message = "Not one you can pick."

    def __init__(self, **kwargs):
        kwargs.setdefault("queryset", self.model.objects.none())  # for the schema
        super().__init__(**kwargs)
        self.error_messages["does_not_exist"] = self.message
        self.error_messages["incorrect_type"] = "Give an id (a number), not {data_type}."

    def get_queryset(self):
        return self.scoped(self.context["request"].user)


@extend_schema_field(OpenApiTypes.INT)
class FocusAreaForMeField(_ScopedField):
    model = FocusArea

    message = "Pick a current focus area that applies to you."

    def scoped(self, user):
        return selectors.focus_areas_for(person=user)


@extend_schema_field(OpenApiTypes.INT)
class MySessionField(_ScopedField):
    model = CoachingSession

    message = "Link a session you took part in."

    def scoped(self, user):
        return selectors.linkable_session(owner=user)


@extend_schema_field(OpenApiTypes.INT)
class CommitmentForMeField(_ScopedField):
    model = Commitment

    message = "Link one of your commitments, or one you wrote down."

    def scoped(self, user):
        return selectors.commitments_to_link(owner=user)


@extend_schema_field(OpenApiTypes.INT)
class MyPairField(_ScopedField):
    model = PeerPair

    message = "Link a peer pair you are in."

    def scoped(self, user):
        return selectors.pairs_to_link(owner=user)


@extend_schema_field(OpenApiTypes.INT)
class MyTeamField(_ScopedField):
    model = Team

    message = "Pick a team you are on (or lead)."

    def scoped(self, user):
        return selectors.my_teams(person=user)


@extend_schema_field(OpenApiTypes.INT)
class MyFinishedExperimentField(_ScopedField):
    model = Experiment
    message = "Publish from one of your own finished experiments."

    def scoped(self, user):
        return Experiment.objects.filter(owner=user, status=ExperimentStatus.DONE)


# --- Experiments ----------------------------------------------------------------------


class ExperimentSerializer(serializers.ModelSerializer):
    owner = PersonRefSerializer(read_only=True)
    status = ExperimentStatusField(read_only=True)
    focus_area = FocusAreaRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Experiment
        fields = ["id", "owner", "hypothesis", "test", "evidence", "result", "learning"]
        fields += ["status", "focus_area", "session", "commitment", "pair"]
        fields += ["created_at", "started_at", "finished_at"]
        read_only_fields = fields


class ExperimentCreateSerializer(StrictSerializer):
    hypothesis = serializers.CharField(max_length=300, help_text="What you believe, in a sentence.")
    test = serializers.CharField(max_length=2_000, help_text="The small test this week.")
    evidence = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="What would change your mind.",
    )
    focus_area = FocusAreaForMeField(required=False, allow_null=True, default=None)
    session = MySessionField(required=False, allow_null=True, default=None)
    commitment = CommitmentForMeField(required=False, allow_null=True, default=None)
    pair = MyPairField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Your partners in the pair see the experiment.",
    )


class ExperimentUpdateSerializer(StrictSerializer):
    hypothesis = serializers.CharField(max_length=300, required=False)
    test = serializers.CharField(max_length=2_000, required=False)
    evidence = serializers.CharField(max_length=500, required=False, allow_blank=True)
    focus_area = FocusAreaForMeField(required=False, allow_null=True)
    session = MySessionField(required=False, allow_null=True)
    commitment = CommitmentForMeField(required=False, allow_null=True)
    pair = MyPairField(required=False, allow_null=True)

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if not attrs:
            raise serializers.ValidationError("Send at least one field to change.")
        return attrs


class ExperimentFinishSerializer(StrictSerializer):
    result = serializers.CharField(
        max_length=2_000,
        required=False,
        allow_blank=True,
        default="",
        help_text="What happened (required to finish).",
    )
    learning = serializers.CharField(max_length=2_000, required=False, allow_blank=True, default="")


class ExperimentFilterSerializer(serializers.Serializer):
    owner = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    status = serializers.ChoiceField(choices=ExperimentStatus.choices, required=False)


EXPERIMENT_WRITE = {200: ExperimentSerializer, 400: VALIDATION_ERROR, 403: FORBIDDEN}


@extend_schema_view(
    list=extend_schema(
        operation_id="experiments_list",
        summary="Experiments you may see: yours, your people's, your pair partners'",
        parameters=[
            OpenApiParameter("owner", OpenApiTypes.INT),
            OpenApiParameter("status", enum=ExperimentStatus.values),
        ],
        responses={200: ExperimentSerializer(many=True), 400: VALIDATION_ERROR},
    ),
    retrieve=extend_schema(
        operation_id="experiments_retrieve",
        parameters=[ID],
        responses={200: ExperimentSerializer, 404: NOT_FOUND},
    ),
)
class ExperimentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Hypothesis, a small test this week, the evidence that would change your mind;
    then the result and the learning. Newest first."""

    serializer_class = ExperimentSerializer
    lookup_value_converter = "int"

    def get_serializer_class(self):
        inputs = {
            "create": ExperimentCreateSerializer,
            "partial_update": ExperimentUpdateSerializer,
            "finish": ExperimentFinishSerializer,
        }
        return inputs.get(self.action, ExperimentSerializer)

    def get_queryset(self):
        return Experiment.objects.visible_to(self.request.user).select_related(
            "owner", "focus_area"
        )

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(ExperimentFilterSerializer, self.request)
        if "owner" in params:
            queryset = queryset.filter(owner_id=params["owner"])
        if "status" in params:
            queryset = queryset.filter(status=params["status"])
        return queryset

    def _respond(self, experiment, code=status.HTTP_200_OK):
        experiment = self.get_queryset().get(pk=experiment.pk)
        return Response(ExperimentSerializer(experiment).data, status=code)

    def _own(self) -> Experiment:
        """The experiment, if the requester runs it: 404 if they may not see it, 403
        (with the reason) if they only read it."""
        experiment = self.get_object()
        if refusal := rules.why_not_change_experiment(self.request.user, experiment):
            raise Forbidden(refusal)
        return experiment

    @extend_schema(
        operation_id="experiments_create",
        summary="Plan an experiment (you own it)",
        request=ExperimentCreateSerializer,
        responses={201: ExperimentSerializer, 400: VALIDATION_ERROR},
    )
    def create(self, request):
        data = validated(ExperimentCreateSerializer, request)
        experiment = services.experiment_create(owner=request.user, **data)
        return self._respond(experiment, status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="experiments_update",
        parameters=[ID],
        request=ExperimentUpdateSerializer,
        responses={**EXPERIMENT_WRITE, 404: NOT_FOUND},
    )
    def partial_update(self, request, pk=None):
        experiment = self._own()
        data = validated(ExperimentUpdateSerializer, request)
        fields = {
            name: data.get(name, getattr(experiment, name))
            for name in ExperimentUpdateSerializer().fields
        }
        experiment = services.experiment_update(experiment=experiment, actor=request.user, **fields)
        return self._respond(experiment)

    @extend_schema(
        operation_id="experiments_start",
        summary="Start a planned experiment",
        parameters=[ID],
        request=None,
        responses={**EXPERIMENT_WRITE, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        experiment = services.experiment_start(experiment=self._own(), actor=request.user)
        return self._respond(experiment)

    @extend_schema(
        operation_id="experiments_finish",
        summary="Record the result (and learning) and mark it done",
        parameters=[ID],
        request=ExperimentFinishSerializer,
        responses={**EXPERIMENT_WRITE, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def finish(self, request, pk=None):
        experiment = self._own()
        data = validated(ExperimentFinishSerializer, request)
        experiment = services.experiment_finish(experiment=experiment, actor=request.user, **data)
        return self._respond(experiment)

    @extend_schema(
        operation_id="experiments_drop",
        summary="Drop an experiment that is planned or running",
        parameters=[ID],
        request=None,
        responses={**EXPERIMENT_WRITE, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def drop(self, request, pk=None):
        experiment = services.experiment_drop(experiment=self._own(), actor=request.user)
        return self._respond(experiment)


# --- The learnings library ------------------------------------------------------------


class LearningSerializer(serializers.ModelSerializer):
    author = PersonRefSerializer(read_only=True)
    kind = LearningKindField(read_only=True)
    audience = AudienceField(read_only=True)
    tags = serializers.SlugRelatedField(many=True, read_only=True, slug_field="name")
    focus_area = FocusAreaRefSerializer(read_only=True, allow_null=True)
    team = TeamRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Learning
        fields = ["id", "author", "kind", "title", "body", "tags", "focus_area", "audience"]
        fields += ["team", "experiment", "session", "published_at", "updated_at"]
        read_only_fields = fields


class TagListField(serializers.ListField):
    """Tag names in, tag names out (also when the browsable API shows the form for an
    existing learning)."""

    child = serializers.CharField()

    def get_attribute(self, instance):
        value = super().get_attribute(instance)
        return [tag.name for tag in value.all()] if hasattr(value, "all") else value


KIND_HELP = "A plain learning, a case study, a checklist or a template."
AUDIENCE_HELP = "Who sees it: `team` (the team's members and lead) or `organisation`."
TAGS_HELP = "Tag names (at most 20, up to 40 characters each); stored in lower case."
TEAM_HELP = (
    "A team you are on or lead: the team that sees it (audience `team`), or the team it "
    "comes from (audience `organisation`)."
)


class LearningCreateSerializer(StrictSerializer):
    kind = LearningKindField(help_text=KIND_HELP)
    title = serializers.CharField(max_length=200)
    body = serializers.CharField(max_length=10_000)
    tags = TagListField(required=False, default=list, help_text=TAGS_HELP)
    focus_area = FocusAreaForMeField(required=False, allow_null=True, default=None)
    audience = AudienceField(help_text=AUDIENCE_HELP)
    team = MyTeamField(required=False, allow_null=True, default=None, help_text=TEAM_HELP)
    experiment = MyFinishedExperimentField(required=False, allow_null=True, default=None)
    session = MySessionField(required=False, allow_null=True, default=None)


class LearningUpdateSerializer(StrictSerializer):
    kind = LearningKindField(required=False, help_text=KIND_HELP)
    title = serializers.CharField(max_length=200, required=False)
    body = serializers.CharField(max_length=10_000, required=False)
    tags = TagListField(required=False, help_text=TAGS_HELP)
    focus_area = FocusAreaForMeField(required=False, allow_null=True)
    audience = AudienceField(required=False, help_text=AUDIENCE_HELP)
    team = MyTeamField(required=False, allow_null=True, help_text=TEAM_HELP)

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if not attrs:
            raise serializers.ValidationError("Send at least one field to change.")
        return attrs


class LibraryFilterSerializer(serializers.Serializer):
    q = serializers.CharField(max_length=200, required=False, allow_blank=True)
    tag = serializers.CharField(max_length=40, required=False, allow_blank=True)
    kind = serializers.ChoiceField(choices=LearningKind.choices, required=False)
    focus_area = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    team = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


@extend_schema_view(
    list=extend_schema(
        operation_id="learnings_list",
        summary="The library: learnings you may see, ranked by relevance when searching",
        parameters=[
            OpenApiParameter(
                "q",
                description="Words to search for in titles and bodies (stemmed on "
                "PostgreSQL: “questions” finds “question”).",
            ),
            OpenApiParameter("tag", description="A tag name."),
            OpenApiParameter("kind", enum=LearningKind.values),
            OpenApiParameter("focus_area", OpenApiTypes.INT),
            OpenApiParameter("team", OpenApiTypes.INT),
        ],
        responses={200: LearningSerializer(many=True), 400: VALIDATION_ERROR},
    ),
    retrieve=extend_schema(
        operation_id="learnings_retrieve",
        parameters=[ID],
        responses={200: LearningSerializer, 404: NOT_FOUND},
    ),
)
class LearningViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Case studies, checklists, templates and plain learnings, shared with a team or
    the whole organisation."""

    serializer_class = LearningSerializer
    lookup_value_converter = "int"

    def get_serializer_class(self):
        inputs = {"create": LearningCreateSerializer, "partial_update": LearningUpdateSerializer}
        return inputs.get(self.action, LearningSerializer)

    def get_queryset(self):
        if self.action == "list":
            params = query_params(LibraryFilterSerializer, self.request)
            filters = selectors.LibraryFilters(
                q=params.get("q", ""),
                tag=" ".join(params.get("tag", "").split()).lower(),
                kind=params.get("kind", ""),
                focus_area=params.get("focus_area"),
                team=params.get("team"),
            )
            learnings = selectors.library(user=self.request.user, filters=filters)
        else:
            learnings = Learning.objects.visible_to(self.request.user).select_related(
                "author", "team", "focus_area"
            )
        return learnings.prefetch_related("tags")

    def _own(self) -> Learning:
        learning = self.get_object()
        if refusal := rules.why_not_change_learning(self.request.user, learning):
            raise Forbidden(refusal)
        return learning

    def _respond(self, learning, code=status.HTTP_200_OK):
        learning = (
            Learning.objects.select_related("author", "team", "focus_area")
            .prefetch_related("tags")
            .get(pk=learning.pk)
        )
        return Response(LearningSerializer(learning).data, status=code)

    @extend_schema(
        operation_id="learnings_create",
        summary="Publish a learning (from scratch, a finished experiment or a session)",
        request=LearningCreateSerializer,
        responses={201: LearningSerializer, 400: VALIDATION_ERROR},
    )
    def create(self, request):
        data = validated(LearningCreateSerializer, request)
        learning = services.learning_publish(author=request.user, **data)
        return self._respond(learning, status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="learnings_update",
        summary="Edit your own learning",
        parameters=[ID],
        request=LearningUpdateSerializer,
        responses={200: LearningSerializer, 400: VALIDATION_ERROR, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def partial_update(self, request, pk=None):
        learning = self._own()
        data = validated(LearningUpdateSerializer, request)
        fields = {
            name: data.get(name, getattr(learning, name))
            for name in ("kind", "title", "body", "focus_area", "audience", "team")
        }
        tags = data.get("tags", [t.name for t in learning.tags.all()])
        learning = services.learning_update(
            learning=learning, actor=request.user, tags=tags, **fields
        )
        return self._respond(learning)

    @extend_schema(
        operation_id="learnings_destroy",
        summary="Unpublish your own learning",
        parameters=[ID],
        responses={204: None, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def destroy(self, request, pk=None):
        services.learning_unpublish(learning=self._own(), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Playbooks ------------------------------------------------------------------------


class PlaybookModuleSerializer(serializers.ModelSerializer):
    department = DepartmentField(help_text="`core` for everyone, or the department's add-on.")
    goal_list = serializers.ListField(child=serializers.CharField(), read_only=True)
    prompt_list = serializers.ListField(child=serializers.CharField(), read_only=True)
    experiment_list = serializers.ListField(child=serializers.CharField(), read_only=True)
    teams = serializers.PrimaryKeyRelatedField(
        many=True, read_only=True, help_text="Teams using it (their leads pick)."
    )

    class Meta:
        model = PlaybookModule
        fields = ["id", "name", "department", "summary", "goals", "goal_list", "prompts"]
        fields += ["prompt_list", "cadence", "experiments", "experiment_list", "position"]
        fields += ["is_active", "teams"]
        read_only_fields = ["id"]
        extra_kwargs = {
            "goals": {"help_text": "One per line."},
            "prompts": {"help_text": "One per line."},
            "experiments": {"help_text": "Example experiments, one per line."},
        }

    def validate(self, attrs):
        attrs = super().validate(attrs)
        refuse_unknown_fields(self)
        if "teams" in getattr(self, "initial_data", {}):
            raise serializers.ValidationError(
                {"teams": "Teams pick their modules themselves: see team-playbooks."}
            )
        return attrs


class PlaybookFilterSerializer(serializers.Serializer):
    all = serializers.BooleanField(required=False, default=False)
    department = serializers.ChoiceField(choices=Department.choices, required=False)


def _config_schema(prefix, serializer, parameters) -> dict:
    writes = {400: VALIDATION_ERROR, 403: FORBIDDEN}
    return {
        "list": extend_schema(
            operation_id=f"{prefix}_list",
            parameters=parameters,
            responses={200: serializer(many=True), 400: VALIDATION_ERROR},
        ),
        "retrieve": extend_schema(
            operation_id=f"{prefix}_retrieve",
            parameters=[ID],
            responses={200: serializer, 404: NOT_FOUND},
        ),
        "create": extend_schema(
            operation_id=f"{prefix}_create", responses={201: serializer, **writes}
        ),
        "update": extend_schema(
            operation_id=f"{prefix}_update",
            parameters=[ID],
            responses={200: serializer, **writes, 404: NOT_FOUND},
        ),
        "partial_update": extend_schema(
            operation_id=f"{prefix}_partial_update",
            parameters=[ID],
            responses={200: serializer, **writes, 404: NOT_FOUND},
        ),
        "destroy": extend_schema(
            operation_id=f"{prefix}_destroy",
            parameters=[ID],
            responses={204: None, 403: FORBIDDEN, 404: NOT_FOUND},
        ),
    }


@extend_schema_view(
    **_config_schema(
        "playbook_modules",
        PlaybookModuleSerializer,
        [
            OpenApiParameter(
                "all", OpenApiTypes.BOOL, description="Include inactive modules (`?all=1`)."
            ),
            OpenApiParameter("department", enum=Department.values),
        ],
    )
)
class PlaybookModuleViewSet(viewsets.ModelViewSet):
    """The core playbook and the department add-ons: goals, prompts, a suggested
    cadence and example experiments. Everyone reads; programme admins write."""

    serializer_class = PlaybookModuleSerializer
    permission_classes = [ReadOrProgrammeAdmin]
    lookup_value_converter = "int"

    def get_queryset(self):
        return selectors.playbook_modules(include_inactive=True)

    def filter_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = query_params(PlaybookFilterSerializer, self.request)
        if not params.get("all"):
            queryset = queryset.filter(is_active=True)
        if "department" in params:
            queryset = queryset.filter(department=params["department"])
        return queryset


class PlaybookModuleRefSerializer(serializers.ModelSerializer):
    department = DepartmentField(read_only=True)

    class Meta:
        model = PlaybookModule
        fields = ["id", "name", "department", "is_active"]
        read_only_fields = fields


class TeamPlaybooksSerializer(serializers.Serializer):
    team = TeamRefSerializer(source="*")
    modules = PlaybookModuleRefSerializer(source="playbook_modules", many=True)


class TeamPlaybooksUpdateSerializer(StrictSerializer):
    modules = serializers.PrimaryKeyRelatedField(
        many=True,
        source="playbook_modules",
        queryset=PlaybookModule.objects.filter(is_active=True),
        help_text="Ids of the active modules the team uses (the whole set).",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["modules"].child_relation.error_messages["does_not_exist"] = (
            "Pick active playbook modules: no active module with id {pk_value}."
        )


@extend_schema_view(
    list=extend_schema(
        operation_id="team_playbooks_list",
        summary="The modules each team you lead (or is led below you) uses",
        responses={200: TeamPlaybooksSerializer(many=True)},
    ),
    retrieve=extend_schema(
        operation_id="team_playbooks_retrieve",
        parameters=[
            OpenApiParameter(
                "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The team's id."
            )
        ],
        responses={200: TeamPlaybooksSerializer, 404: NOT_FOUND},
    ),
)
class TeamPlaybooksViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """A team's picks among the playbook modules, for its lead and the people above
    the lead (404 for everyone else)."""

    serializer_class = TeamPlaybooksSerializer
    lookup_value_converter = "int"

    def get_serializer_class(self):
        if self.action == "update":
            return TeamPlaybooksUpdateSerializer
        return TeamPlaybooksSerializer

    def get_queryset(self):
        return selectors.teams_led_or_below(user=self.request.user).prefetch_related(
            "playbook_modules"
        )

    @extend_schema(
        operation_id="team_playbooks_update",
        summary="Set the modules the team uses",
        parameters=[
            OpenApiParameter(
                "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The team's id."
            )
        ],
        request=TeamPlaybooksUpdateSerializer,
        responses={200: TeamPlaybooksSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def update(self, request, pk=None):
        team = self.get_object()
        data = validated(TeamPlaybooksUpdateSerializer, request)
        services.team_playbooks_set(team=team, actor=request.user, modules=data["playbook_modules"])
        team = self.get_queryset().get(pk=team.pk)
        return Response(TeamPlaybooksSerializer(team).data)
