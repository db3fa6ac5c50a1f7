"""The rep's page, "My coaching": their growth, what waits on them, what comes next.
Everyone can be coached, so every signed-in person has it; it only ever shows the
signed-in person's own."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from people.access import request_roles

from .growth import growth_dashboard


@require_GET
def home_rep(request):
    return render(
        request,
        "dashboards/growth.html",
        {
            "dashboard": growth_dashboard(
                person=request.user, waiting=True, roles=request_roles(request)
            )
        },
    )
