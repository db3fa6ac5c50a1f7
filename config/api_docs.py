"""The API's documentation page (Swagger UI)."""

from drf_spectacular.views import SpectacularSwaggerSplitView


class ApiDocsView(SpectacularSwaggerSplitView):
    """Authenticates before it picks a format: otherwise a request it cannot answer in
    the asked format (406) met a bad token only while its error page was rendered,
    outside DRF's error handling — a 500 instead of a 401."""

    def initial(self, request, *args, **kwargs):
        self.perform_authentication(request)
        super().initial(request, *args, **kwargs)
