from allauth.account.decorators import secure_admin_login
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path

from core import views as core_views
from core.api_docs import ApiDocsView, ApiSchemaView
from people.api import MeView, MyDataView, MyWorkingHoursView

# A database outage answers 503 (and recovers by itself), anything else 500.
handler500 = "core.error_pages.server_error"
# Under /api/ a URL that matches nothing, or a request Django refuses, answers JSON too.
handler404 = "core.error_pages.page_not_found"
handler403 = "core.error_pages.permission_denied"
handler400 = "core.error_pages.bad_request"

# Admin sign-in goes through allauth, so it is rate-limited and MFA-aware.
admin.site.login = secure_admin_login(admin.site.login)
admin.site.site_header = "Tandem programme administration"
admin.site.site_title = "Tandem admin"

api_v1 = [
    path("me/", MeView.as_view(), name="me"),
    path("me/data/", MyDataView.as_view(), name="me-data"),
    path("me/working-hours/", MyWorkingHoursView.as_view(), name="me-working-hours"),
    path("", include("people.api_urls")),
    path("", include("scorecards.api_urls")),
    path("", include("coaching.api_urls")),
    path("", include("peers.api_urls")),
    path("", include("learning.api_urls")),
    path("", include("feedback.api_urls")),
    path("", include("cadence.api_urls")),
    path("", include("notifications.api_urls")),
    path("", include("dashboards.api_urls")),
]

urlpatterns = [
    # Each app's pages sit in the app's namespace ("coaching:session_detail"); the
    # sign-in override keeps allauth's global name and must precede allauth's URLs.
    path("", include("people.urls_accounts")),
    path("", include("dashboards.urls")),
    path("", include("people.urls")),
    path("", include("scorecards.urls")),
    path("", include("coaching.urls")),
    path("", include("peers.urls")),
    path("", include("learning.urls")),
    path("", include("cadence.urls")),
    path("", include("notifications.urls")),
    path("", include("feedback.urls")),
    path("healthz", core_views.healthz, name="healthz"),
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include((api_v1, "api"), namespace="api")),
    path("api/schema/", ApiSchemaView.as_view(), name="api_schema"),
    # Swagger UI sets inline styles; its scripts still come from our own static files.
    path(
        "api/docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(ApiDocsView.as_view(url_name="api_schema")),
        name="api_docs",
    ),
]
