"""Cadence health for HR and programme admins: the whole organisation, aggregates only."""

from django.db.models import Count, Q
from django.shortcuts import render

from people.access import role_required
from people.models import Team, User
from people.roles import Role


@role_required(Role.HR)
def home_hr(request):
    people = User.objects.filter(is_active=True).aggregate(
        total=Count("pk"),
        managers=Count("pk", filter=Q(direct_reports__isnull=False), distinct=True),
    )
    return render(
        request,
        "dashboards/hr.html",
        {"people": people, "team_count": Team.objects.count()},
    )
