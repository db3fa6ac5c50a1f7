"""Pages that belong to no single app: the front door, the programme admin's home and
/healthz. The homes of reps, managers and HR are dashboards (the `dashboards` app)."""

from django.contrib.auth.decorators import login_not_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from cadence.selectors_outbox import delivery_state
from dashboards.waiting import waiting_for
from people.access import request_roles, role_required
from people.models import Team, User
from people.roles import Role
from people.selectors import may_become_first_programme_admin

from . import setup_steps
from .health import check_broker, check_database

# Where "/" sends each person: the first role in this order they hold.
HOME_FOR_ROLE = [
    (Role.MANAGER, "home_manager"),
    (Role.HR, "home_hr"),
    (Role.PROGRAMME_ADMIN, "home_programme"),
]


def home(request):
    if may_become_first_programme_admin(request.user):  # a fresh install's first sign-in
        return redirect("first_programme_admin")
    roles = request_roles(request)
    for role, url_name in HOME_FOR_ROLE:
        if role in roles:
            return redirect(url_name)
    return redirect("home_rep")


@role_required(Role.PROGRAMME_ADMIN)
def home_programme(request):
    return render(
        request,
        "programme.html",
        {
            "setup": setup_steps.progress(reader=request.user),
            "people_count": User.objects.filter(is_active=True).count(),
            "never_signed_in": User.objects.filter(is_active=True, last_login__isnull=True).count(),
            "team_count": Team.objects.count(),
            "delivery": delivery_state(),
            "waiting": waiting_for(person=request.user, roles=request_roles(request)),
        },
    )


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
