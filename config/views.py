"""Pages that belong to no single app: the role home pages and /healthz.

Home pages compose several apps; they live here (DESIGN: pages that compose apps go
to the rightmost app they need or to config/) and call each app's selectors."""

from django.contrib.auth.decorators import login_not_required
from django.db.models import Count, Q
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from coaching import selectors as coaching
from feedback import selectors as feedback
from feedback.models import Stream
from people.access import request_roles, role_required
from people.models import Team, User
from people.roles import Role
from people.selectors import current_teams, management_chain, people_below
from scorecards import selectors as scorecards

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


def home_rep(request):
    """Everyone can be coached, so every signed-in person has this page."""
    user = request.user
    chain = management_chain(person=user)
    return render(
        request,
        "home/rep.html",
        {
            "manager": chain[0] if chain else None,
            "skip_level": chain[1] if len(chain) > 1 else None,
            "teams": current_teams(person=user),
            "goals": list(coaching.goals_of(viewer=user, owner=user).filter(status="active")),
            "goal": coaching.current_goal(person=user),
            "upcoming": coaching.upcoming_sessions(person=user, limit=5),
            "commitments": list(
                coaching.commitments_of(viewer=user, owner=user).filter(status="open")
            ),
            "recent": coaching.recent_sessions(person=user, limit=5),
            "focus_areas": coaching.active_focus_areas(person=user),
            "scorecards_waiting": scorecards.waiting_on(user=user).count(),
            **_feedback_panel(user),
        },
    )


def _feedback_panel(user) -> dict:
    """Requests waiting on me and the latest developmental items I received: two
    queries, whatever the numbers (the list needs no themes or shares)."""
    latest = list(
        feedback.my_feedback(user=user, stream=Stream.DEVELOPMENTAL).prefetch_related(None)[:3]
    )
    for item in latest:
        item.shown_author = feedback.author_shown(item, user)
    return {"feedback_waiting": feedback.inbox(user=user).count(), "feedback_latest": latest}


@role_required(Role.MANAGER)
def home_manager(request):
    reports = coaching.people_overview(manager=request.user)
    below = people_below(person=request.user).filter(is_active=True)
    return render(
        request,
        "home/manager.html",
        {
            "reports": reports,
            "people_below_count": below.count(),
            "teams_led": Team.objects.filter(lead=request.user),
        },
    )


@role_required(Role.HR)
def home_hr(request):
    people = User.objects.filter(is_active=True).aggregate(
        total=Count("pk"),
        managers=Count("pk", filter=Q(direct_reports__isnull=False), distinct=True),
    )
    return render(
        request,
        "home/hr.html",
        {"people": people, "team_count": Team.objects.count()},
    )


@role_required(Role.PROGRAMME_ADMIN)
def home_programme(request):
    return render(
        request,
        "home/programme.html",
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
