"""Pages that compose several apps: the front door (where "/" sends each person) and
the programme admin's home. The homes of reps, managers and HR are in this app too
(views_team, views_hr); /healthz is core's (core/views.py)."""

from django.shortcuts import redirect, render

from notifications.selectors_outbox import delivery_state
from people.access import request_roles, role_required
from people.models import Team, User
from people.roles import Role
from people.rules import may_become_first_programme_admin

from . import setup_steps
from .waiting import waiting_for

# Where "/" sends each person: the first role in this order they hold.
HOME_FOR_ROLE = [
    (Role.MANAGER, "dashboards:home_manager"),
    (Role.HR, "dashboards:home_hr"),
    (Role.PROGRAMME_ADMIN, "dashboards:home_programme"),
]


def home(request):
    if may_become_first_programme_admin(request.user):  # a fresh install's first sign-in
        return redirect("people:first_programme_admin")
    roles = request_roles(request)
    for role, url_name in HOME_FOR_ROLE:
        if role in roles:
            return redirect(url_name)
    return redirect("dashboards:home_rep")


@role_required(Role.PROGRAMME_ADMIN)
def home_programme(request):
    return render(
        request,
        "dashboards/programme.html",
        {
            "setup": setup_steps.progress(reader=request.user),
            "people_count": User.objects.filter(is_active=True).count(),
            "never_signed_in": User.objects.filter(is_active=True, last_login__isnull=True).count(),
            "team_count": Team.objects.count(),
            "delivery": delivery_state(),
            "waiting": waiting_for(person=request.user, roles=request_roles(request)),
        },
    )
