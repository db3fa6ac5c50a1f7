"""The API's schema and its documentation page (Swagger UI)."""

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

# Rendered schemas, by format, version and language. A handful at most: the key comes
# partly from the Accept header, so past RENDERED_KEPT nothing more is kept.
_rendered: dict[tuple, tuple[bytes, str, str]] = {}
RENDERED_KEPT = 8


class ApiSchemaView(SpectacularAPIView):
    """/api/schema/, computed once per process. The schema is a function of the code
    and the settings alone (served public: the same for everyone allowed to read it),
    yet generating and rendering it is a noticeable share of a worker's second for any
    signed-in person who asks (bench/routes.py). Each process keeps what it
    rendered, per format, version and language; a changed setting (tests) forgets."""

    _schema_key: tuple | None = None  # this request's, once it reached the schema

    def _get_schema_response(self, request):
        key = self._schema_key = self._key(request)
        if key is not None and key in _rendered:
            content, content_type, disposition = _rendered[key]
            return HttpResponse(
                content, content_type=content_type, headers={"Content-Disposition": disposition}
            )
        return super()._get_schema_response(request)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        key = self._schema_key if response.status_code == 200 else None
        if key and key not in _rendered and len(_rendered) < RENDERED_KEPT:
            response.render()
            _rendered[key] = (
                response.content,
                response["Content-Type"],
                response["Content-Disposition"],
            )
        return response

    def _key(self, request) -> tuple | None:
        if not self.serve_public:  # then each reader's schema is their own: keep none
            return None
        version = self.api_version or request.version or self._get_version_parameter(request)
        language = translation.get_language()  # `?lang=` is in force by now
        return (request.accepted_media_type, request.accepted_renderer.format, version, language)


@receiver(setting_changed)
def _forget_rendered_schemas(**kwargs):
    _rendered.clear()


class ApiDocsView(SpectacularSwaggerSplitView):
    """Authenticates before it picks a format: otherwise a request it cannot answer in
    the asked format (406) met a bad token only while its error page was rendered,
    outside DRF's error handling — a 500 instead of a 401."""

    def initial(self, request, *args, **kwargs):
        self.perform_authentication(request)
        super().initial(request, *args, **kwargs)
