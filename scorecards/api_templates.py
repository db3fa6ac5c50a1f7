"""The scorecard template library under /api/v1/scorecard-templates/: everyone signed
in reads it; programme admins add, edit, retire and restore templates (others get
403). Editing a version somebody scored with makes a new version (the service
decides); old scorecards keep theirs. Templates are never deleted (405)."""

from django.db.models import Count, OuterRef, Subquery
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.api import (
    ADMINS_ONLY,
    NOT_FOUND,
    VALIDATION_ERROR,
    StrictSerializer,
    query_params,
    validated,
)
from people.api_common import ReadOrProgrammeAdmin

from . import selectors, services
from .api_common import ID, ID_CONVERTER, StrictItemSerializer
from .models import MAX_SCALE, TEXT_LIMIT, Anchor, CriterionVersion, Template, TemplateVersion

# --- Representation --------------------------------------------------------------------------


class TemplateListSerializer(serializers.ModelSerializer):
    current_version = serializers.IntegerField(
        read_only=True, help_text="The number of the version new scoring uses."
    )
    criteria_count = serializers.IntegerField(
        read_only=True, help_text="Criteria in the current version."
    )

    class Meta:
        model = Template
        fields = ["id", "name", "description", "created_at", "retired_at"]
        fields += ["current_version", "criteria_count"]
        read_only_fields = fields


class AnchorSerializer(serializers.ModelSerializer):
    class Meta:
        model = Anchor
        fields = ["level", "description"]
        read_only_fields = fields


class CriterionSerializer(serializers.ModelSerializer):
    criterion = serializers.IntegerField(
        source="criterion_id",
        read_only=True,
        help_text="The lineage: the same criterion through the template's versions.",
    )
    weight = serializers.DecimalField(
        max_digits=4, decimal_places=2, coerce_to_string=False, read_only=True
    )
    anchors = AnchorSerializer(many=True, read_only=True)

    class Meta:
        model = CriterionVersion
        fields = ["id", "criterion", "position", "title", "behaviour", "scale_max"]
        fields += ["weight", "anchors"]
        read_only_fields = fields


class VersionSerializer(serializers.ModelSerializer):
    criteria = CriterionSerializer(many=True, read_only=True)

    class Meta:
        model = TemplateVersion
        fields = ["id", "number", "created_at", "criteria"]
        read_only_fields = fields


class VersionRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = TemplateVersion
        fields = ["number", "created_at"]
        read_only_fields = fields


class TemplateDetailSerializer(serializers.ModelSerializer):
    version = VersionSerializer(
        source="shown_version",
        read_only=True,
        help_text="The current version, or the one asked for with `?version=N`.",
    )
    versions = VersionRefSerializer(
        source="version_list", many=True, read_only=True, help_text="Newest first."
    )

    class Meta:
        model = Template
        fields = ["id", "name", "description", "created_at", "retired_at"]
        fields += ["version", "versions"]
        read_only_fields = fields


# --- Input ---------------------------------------------------------------------------------


class CriterionInputSerializer(StrictItemSerializer):
    title = serializers.CharField(max_length=120)
    behaviour = serializers.CharField(
        max_length=TEXT_LIMIT, help_text="What good looks like, as something you can observe."
    )
    scale_max = serializers.IntegerField(
        required=False,
        default=services.DEFAULT_SCALE,
        help_text=f"The top level of the scale (it runs from 1), 2–{MAX_SCALE}.",
    )
    weight = serializers.DecimalField(
        max_digits=4, decimal_places=2, required=False, default=1, coerce_to_string=False
    )
    anchors = serializers.DictField(
        child=serializers.CharField(max_length=500, allow_blank=True),
        required=False,
        default=dict,
        help_text='What each level looks like, by level: {"1": "…", "4": "…"}.',
    )
    criterion = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The lineage this criterion continues (from a version of this template); "
        "null for a new criterion.",
    )

    def validate_anchors(self, anchors):
        levels = {}
        for level, text in anchors.items():
            if not str(level).isdigit():
                raise serializers.ValidationError(f"Anchors are keyed by level; not “{level}”.")
            levels[int(level)] = text
        return levels

    def to_spec(self, data) -> services.CriterionSpec:
        return services.CriterionSpec(
            title=data["title"],
            behaviour=data["behaviour"],
            scale_max=data["scale_max"],
            weight=data["weight"],
            anchors=data["anchors"],
            criterion=data["criterion"],
        )


class TemplateCreateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(
        max_length=TEXT_LIMIT, required=False, allow_blank=True, default=""
    )
    criteria = CriterionInputSerializer(many=True, help_text="In order; 1–20.")


class TemplateUpdateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(max_length=TEXT_LIMIT, required=False, allow_blank=True)
    criteria = CriterionInputSerializer(
        many=True,
        required=False,
        help_text="The whole list, as it should be now; continue a criterion by giving "
        "its lineage in `criterion`. Leave it out to keep the criteria.",
    )

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if not attrs:
            raise serializers.ValidationError("Send any of: name, description, criteria.")
        return attrs

    def to_representation(self, template):
        # The browsable API fills its PATCH form through this serializer from the
        # template shown: give it the current criteria as they would be sent back.
        version = selectors.version_with_criteria(services.current_version(template).pk)
        return {
            "name": template.name,
            "description": template.description,
            "criteria": [
                {
                    "title": c.title,
                    "behaviour": c.behaviour,
                    "scale_max": c.scale_max,
                    "weight": float(c.weight),
                    "anchors": {str(a.level): a.description for a in c.anchors.all()},
                    "criterion": c.criterion_id,
                }
                for c in version.criteria.all()
            ],
        }


class NoInputSerializer(StrictSerializer):
    pass


class TemplateFilterSerializer(serializers.Serializer):
    all = serializers.BooleanField(required=False, default=False)


class VersionChoiceSerializer(serializers.Serializer):
    version = serializers.IntegerField(required=False, min_value=1)


def _specs(criteria: list[dict]) -> list[services.CriterionSpec]:
    item = CriterionInputSerializer()
    return [item.to_spec(data) for data in criteria]


# --- Views ---------------------------------------------------------------------------------

WRITES = {400: VALIDATION_ERROR, 403: ADMINS_ONLY}


@extend_schema_view(
    list=extend_schema(
        operation_id="scorecard_templates_list",
        summary="The template library: offered templates, by name",
        parameters=[
            OpenApiParameter(
                "all", OpenApiTypes.BOOL, description="Include retired templates (`?all=1`)."
            )
        ],
        responses={200: TemplateListSerializer(many=True), 400: VALIDATION_ERROR},
    ),
)
class TemplateViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Scorecard templates: what good looks like, criterion by criterion, with an
    anchor per level. Read by everyone signed in; written by programme admins."""

    serializer_class = TemplateListSerializer
    permission_classes = [ReadOrProgrammeAdmin]
    lookup_value_converter = ID_CONVERTER

    def get_serializer_class(self):
        # The browsable API's forms: each write with its own input.
        inputs = {
            "create": TemplateCreateSerializer,
            "partial_update": TemplateUpdateSerializer,
            "retire": NoInputSerializer,
            "restore": NoInputSerializer,
            "retrieve": TemplateDetailSerializer,
        }
        return inputs.get(self.action, TemplateListSerializer)

    def get_queryset(self):
        current = TemplateVersion.objects.filter(template=OuterRef("pk")).order_by("-number")
        return Template.objects.annotate(
            current_version=Subquery(current.values("number")[:1]),
            criteria_count=Subquery(
                current.annotate(n=Count("criteria")).values("n")[:1],
            ),
        ).order_by("name", "id")

    def filter_queryset(self, queryset):
        if self.action == "list" and not query_params(TemplateFilterSerializer, self.request).get(
            "all"
        ):
            queryset = queryset.filter(retired_at__isnull=True)
        return queryset

    def _template(self, pk) -> Template:
        try:
            return Template.objects.get(pk=pk)
        except Template.DoesNotExist:
            raise Http404 from None

    def _detail(self, template: Template, number: int | None = None) -> dict:
        versions = list(template.versions.order_by("-number"))
        chosen = (
            versions[0]
            if number is None
            else next((v for v in versions if v.number == number), None)
        )
        if chosen is None:
            raise Http404(f"No version {number} of this template.")
        template.shown_version = selectors.version_with_criteria(chosen.pk)
        template.version_list = versions
        return TemplateDetailSerializer(template, context=self.get_serializer_context()).data

    @extend_schema(
        operation_id="scorecard_templates_retrieve",
        summary="A template with the criteria and anchors of one version",
        parameters=[
            ID,
            OpenApiParameter("version", OpenApiTypes.INT, description="An older version's number."),
        ],
        responses={200: TemplateDetailSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def retrieve(self, request, pk=None):
        template = self._template(pk)
        number = query_params(VersionChoiceSerializer, request).get("version")
        return Response(self._detail(template, number))

    @extend_schema(
        operation_id="scorecard_templates_create",
        request=TemplateCreateSerializer,
        responses={201: TemplateDetailSerializer, **WRITES},
    )
    def create(self, request):
        data = validated(TemplateCreateSerializer, request)
        template = services.template_create(
            actor=request.user,
            name=data["name"],
            description=data["description"],
            criteria=_specs(data["criteria"]),
        )
        return Response(self._detail(template), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="scorecard_templates_partial_update",
        summary="Edit a template (a used version is kept and a new one made)",
        description="Send any of name, description and the whole list of criteria as it "
        "should be now. A version nobody has scored with is edited in place; one somebody "
        "scored with is kept as it is and a new version made (only if the criteria "
        "changed), so old scorecards keep what they were scored on. A retired template "
        "is restored first.",
        parameters=[ID],
        request=TemplateUpdateSerializer,
        responses={200: TemplateDetailSerializer, **WRITES, 404: NOT_FOUND},
    )
    def partial_update(self, request, pk=None):
        template = self._template(pk)
        data = validated(TemplateUpdateSerializer, request)
        services.template_update(
            actor=request.user,
            template=template,
            criteria=_specs(data["criteria"]) if "criteria" in data else None,
            name=data.get("name"),
            description=data.get("description"),
        )
        return Response(self._detail(self._template(pk)))

    @extend_schema(
        operation_id="scorecard_templates_retire",
        summary="Stop offering a template (kept for the scorecards made with it)",
        parameters=[ID],
        request=None,
        responses={200: TemplateDetailSerializer, **WRITES, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def retire(self, request, pk=None):
        template = services.template_retire(actor=request.user, template=self._template(pk))
        return Response(self._detail(template))

    @extend_schema(
        operation_id="scorecard_templates_restore",
        summary="Offer a retired template again",
        parameters=[ID],
        request=None,
        responses={200: TemplateDetailSerializer, **WRITES, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def restore(self, request, pk=None):
        template = services.template_retire(
            actor=request.user, template=self._template(pk), retired=False
        )
        return Response(self._detail(template))
