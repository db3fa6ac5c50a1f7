"""People imports under /api/v1/people-imports/, for programme admins (404 to anyone
else): upload a CSV file (multipart, field `file`), read an import, apply or discard
it. As on the page: a wrong file is a 400 listing every problem by line, with nothing
kept; a right one is answered 202 while a worker counts what it would change."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from core.api import NOT_FOUND, VALIDATION_ERROR, StrictSerializer, inline_enum, validated

from . import import_worker
from . import selectors_imports as selectors
from . import services_imports as services
from .access import HasRole
from .api import PersonRefSerializer
from .importing import PeopleImportError
from .models import ImportStatus
from .roles import Role

IMPORT_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)


class ImportCountsSerializer(serializers.Serializer):
    created = serializers.IntegerField()
    updated = serializers.IntegerField()
    unchanged = serializers.IntegerField()
    teams_created = serializers.IntegerField()


class PeopleImportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    file_name = serializers.CharField()
    status = serializers.SerializerMethodField(
        help_text="checking → ready (or invalid) → applying → applied (or failed); "
        "discarded from checking or ready."
    )
    row_count = serializers.IntegerField(help_text="People in the file.")
    uploaded_by = PersonRefSerializer(allow_null=True)
    uploaded_at = serializers.DateTimeField()
    applied_by = PersonRefSerializer(allow_null=True)
    status_changed_at = serializers.DateTimeField()
    checked_counts = ImportCountsSerializer(
        allow_null=True, help_text="What the trial run found the import would change."
    )
    applied_counts = ImportCountsSerializer(allow_null=True, help_text="What it changed.")
    problem_count = serializers.IntegerField()

    # `status` names other sets of choices elsewhere in the API: kept inline.
    @extend_schema_field(inline_enum(ImportStatus.values))
    def get_status(self, job) -> str:
        return job.status


class PeopleImportDetailSerializer(PeopleImportSerializer):
    problems = serializers.ListField(
        child=serializers.CharField(),
        source="problem_lines",
        help_text=f"The first {import_worker.PROBLEMS_KEPT}, as 'line N: …'.",
    )


class PeopleImportUploadSerializer(StrictSerializer):
    file = serializers.FileField(
        help_text="UTF-8 CSV: email, name, manager_email, team, time_zone, role.",
        allow_empty_file=False,
    )

    def validate_file(self, upload):
        if upload.size > services.MAX_UPLOAD_BYTES:
            raise serializers.ValidationError(services.TOO_LARGE)
        return upload


@extend_schema_view(
    list=extend_schema(
        operation_id="people_imports_list",
        summary="Every people import, newest first (programme admins)",
        responses={200: PeopleImportSerializer(many=True), 404: NOT_FOUND},
    ),
    retrieve=extend_schema(
        operation_id="people_imports_retrieve",
        summary="A people import, with its problems",
        parameters=[IMPORT_ID],
        responses={200: PeopleImportDetailSerializer, 404: NOT_FOUND},
    ),
)
class PeopleImportViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Import people, reporting lines, teams and appointed roles from a CSV file."""

    permission_classes = [HasRole.of(Role.PROGRAMME_ADMIN)]
    serializer_class = PeopleImportSerializer
    lookup_value_converter = "int"

    def get_queryset(self):
        return selectors.imports_listed() if self.action == "list" else selectors.imports()

    def get_serializer_class(self):
        if self.action == "create":
            return PeopleImportUploadSerializer
        if self.action == "list":
            return PeopleImportSerializer
        return PeopleImportDetailSerializer

    def _detail(self, job, code=status.HTTP_200_OK):
        return Response(PeopleImportDetailSerializer(job).data, code)

    @extend_schema(
        operation_id="people_imports_create",
        summary="Upload a CSV file: every row is checked now; a worker then counts what "
        "it would change",
        request={"multipart/form-data": PeopleImportUploadSerializer},
        responses={202: PeopleImportDetailSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    def create(self, request):
        upload = validated(PeopleImportUploadSerializer, request)["file"]
        try:
            job = services.import_upload(
                actor=request.user, file_name=upload.name, raw=upload.read()
            )
        except PeopleImportError as exc:
            raise ValidationError({"file": exc.errors}) from None
        return self._detail(self.get_queryset().get(pk=job.pk), status.HTTP_202_ACCEPTED)

    def _act(self, service, code):
        try:
            job = service(actor=self.request.user, job=self.get_object())
        except PeopleImportError as exc:
            raise ValidationError(exc.errors) from None
        return self._detail(self.get_queryset().get(pk=job.pk), code)

    @extend_schema(
        operation_id="people_imports_apply",
        summary="Apply a checked import; a worker imports it in one transaction",
        parameters=[IMPORT_ID],
        request=None,
        responses={202: PeopleImportDetailSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def apply(self, request, pk=None):
        return self._act(services.import_apply, status.HTTP_202_ACCEPTED)

    @extend_schema(
        operation_id="people_imports_discard",
        summary="Discard a checked import nobody will apply, and its file",
        parameters=[IMPORT_ID],
        request=None,
        responses={200: PeopleImportDetailSerializer, 400: VALIDATION_ERROR, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["post"])
    def discard(self, request, pk=None):
        return self._act(services.import_discard, status.HTTP_200_OK)


def register(router) -> None:
    router.register("people-imports", PeopleImportViewSet, basename="people-import")
