"""Skill pages: a person's scorecard trends led by their focus areas, and a team's
spread of scores on its focus area. Aggregates of scorecards; never the scorecards'
words."""

from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from people.access import request_roles
from people.selectors import access_person

from . import skills


def _render_person(request, person):
    today = timezone.localdate(timezone=person.tzinfo)
    context = skills.skill_overview(viewer=request.user, person=person, today=today)
    return render(request, "coaching/skills.html", {"person": person, **context})


@require_GET
def skills_mine(request):
    return _render_person(request, request.user)


@require_GET
def person_skills(request, pk):
    """For the people above them: what the scorecards say about their skills."""
    return _render_person(request, access_person(user=request.user, pk=pk))


@require_GET
def team_skills(request, pk):
    team, anonymise = skills.access_team_skills(
        user=request.user, roles=request_roles(request), pk=pk
    )
    context = skills.team_distributions(team=team, today=timezone.localdate(), anonymise=anonymise)
    return render(request, "coaching/team_skills.html", {"team": team, **context})
