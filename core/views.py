"""Pages of no app: /healthz (is this replica able to serve?) and the favicon."""

from django.contrib.auth.decorators import login_not_required
from django.http import JsonResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .health import check_broker, check_database


@login_not_required
@require_GET
def favicon(request):
    return redirect(static("img/favicon.svg"), permanent=True)


@login_not_required
@never_cache
@require_GET
def healthz(request):
    """200 while pages can be served: only the database is vital. A broker outage is
    reported ("degraded") but keeps the replica in its load balancer's rotation —
    pages work without Redis, and what workers must do waits in the database."""
    checks = {"database": check_database(), "broker": check_broker()}
    if checks["database"]:
        state, code = "unavailable", 503
    elif checks["broker"]:
        state, code = "degraded", 200
    else:
        state, code = "ok", 200
    body = {"status": state, "checks": {name: reason or "ok" for name, reason in checks.items()}}
    return JsonResponse(body, status=code)
