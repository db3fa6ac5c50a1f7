"""The manager's page, "My team": this week's rhythm of the people they coach, who has
gone without a 1:1, commitments, what waits on them, each person's skill trend on
their focus area, and how they coach. A manager of managers also gets the managers
below them for the monthly manager review, each row opening that manager's page
read-only (`/team/managers/<id>/`: anyone above that manager; 404 for everyone
else)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from core.paging import parse_page
from people.access import request_roles, role_required
from people.roles import Role

from . import team
from .views_hr import skills_page
from .windows import DEFAULT_WEEKS, WEEK_CHOICES, parse_weeks, window_ending


@require_GET
@role_required(Role.MANAGER)
def home_manager(request):
    return _page(request, manager=request.user)


@require_GET
@role_required(Role.MANAGER)
def skills_below(request):
    """Skills across everyone below the manager, at every level: the head's view of
    whether coaching moves skill in their part of the organisation."""
    return skills_page(request, below=request.user)


@require_GET
def team_manager(request, pk: int):
    """Another manager's dashboard, read-only, for the people above them."""
    if pk == request.user.pk and Role.MANAGER in request_roles(request):
        return redirect("dashboards:home_manager")
    return _page(request, manager=team.access_manager(viewer=request.user, pk=pk))


def _page(request, *, manager):
    """A wrong `weeks` or `managers_page` is a 400 with the reason, the page shown over
    the default window or from the first page of managers."""
    status, window_error, page_error = 200, None, None
    try:
        weeks = parse_weeks(request.GET.get("weeks"))
    except ValidationError as exc:
        weeks, status, window_error = DEFAULT_WEEKS, 400, " ".join(exc.messages)
    try:
        managers_page = parse_page(request.GET.get("managers_page"))
    except ValidationError as exc:
        managers_page, status, page_error = 1, 400, " ".join(exc.messages)
    dashboard = team.team_dashboard(
        viewer=request.user,
        manager=manager,
        window=window_ending(weeks=weeks),
        managers_page=managers_page,
        waiting=True,
    )
    return render(
        request,
        "dashboards/team.html",
        {
            "dashboard": dashboard,
            "week_choices": WEEK_CHOICES,
            "window_error": window_error,
            "page_error": page_error,
            "escalate_after": settings.CADENCE_ESCALATE_AFTER,
            "refresh_minutes": settings.DASHBOARD_REFRESH_MINUTES,
            "today": timezone.localdate(),
        },
        status=status,
    )
