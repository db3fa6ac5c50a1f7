"""The manager's page, "My team": this week's rhythm of the people they coach."""

from django.shortcuts import render

from coaching import selectors as coaching
from people.access import role_required
from people.models import Team
from people.roles import Role
from people.selectors import people_below


@role_required(Role.MANAGER)
def home_manager(request):
    reports = coaching.people_overview(manager=request.user)
    below = people_below(person=request.user).filter(is_active=True)
    return render(
        request,
        "dashboards/team.html",
        {
            "reports": reports,
            "people_below_count": below.count(),
            "teams_led": Team.objects.filter(lead=request.user),
        },
    )
