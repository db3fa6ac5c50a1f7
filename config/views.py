"""Pages that belong to no single app: the front door, the programme admin's home and
/healthz. The homes of reps, managers and HR are dashboards (the `dashboards` app)."""

from django.contrib.auth.decorators import login_not_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from people.access import request_roles, role_required
from people.models import Team, User
from people.roles import Role

from .health import check_broker, check_database

# Where "/" sends each person: the first role in this order they hold.
HOME_FOR_ROLE = [
    (Role.MANAGER, "home_manager"),
    (Role.HR, "home_hr"),
    (Role.PROGRAMME_ADMIN, "home_programme"),
]


def home(request):
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
            "people_count": User.objects.filter(is_active=True).count(),
            "team_count": Team.objects.count(),
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
    checks = {"database": check_database(), "broker": check_broker()}
    healthy = all(reason is None for reason in checks.values())
    body = {
        "status": "ok" if healthy else "unavailable",
        "checks": {name: reason or "ok" for name, reason in checks.items()},
    }
    return JsonResponse(body, status=200 if healthy else 503)
