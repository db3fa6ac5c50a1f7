"""The programme admin's Teams pages' forms: a team's name and lead, a person to add,
the search of the list. People are offered through two sources (searched when there
are many): everyone active for a lead, and everyone active not on the team yet."""

from django import forms
from django.http import Http404

from .models import User
from .pickers import offer_people, source
from .roles import Role
from .selectors import roles_of
from .services_teams import TEAM_NAME_LIMIT


def for_programme_admins(user: User) -> bool:
    return Role.PROGRAMME_ADMIN in roles_of(user)


@source("team-leads", allowed=for_programme_admins)
def team_leads(user: User, params):
    """Whoever is still here may lead a team."""
    return User.objects.filter(is_active=True).order_by("display_name", "pk")


@source("team-joiners", allowed=for_programme_admins)
def team_joiners(user: User, params):
    """Whoever is still here and not on the team (`params["team"]`) now."""
    team = str(params.get("team", ""))
    if not team.isdigit() or len(team) > 18:
        raise Http404
    return (
        User.objects.filter(is_active=True)
        .exclude(memberships__team_id=int(team), memberships__left_at__isnull=True)
        .order_by("display_name", "pk")
    )


class TeamSearchForm(forms.Form):
    q = forms.CharField(label="Find a team", max_length=TEAM_NAME_LIMIT, required=False)


class TeamForm(forms.Form):
    name = forms.CharField(
        max_length=TEAM_NAME_LIMIT, error_messages={"required": "A team needs a name."}
    )
    lead = forms.ModelChoiceField(
        queryset=User.objects.none(),
        required=False,
        empty_label="No lead yet",
        help_text="Who runs the team's 1:1s and call reviews. A team keeps a cadence only "
        "with a lead.",
        error_messages={"invalid_choice": "Pick someone who is still here."},
    )

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(self.fields["lead"], source="team-leads", user=user)


class MemberAddForm(forms.Form):
    person = forms.ModelChoiceField(
        queryset=User.objects.none(),
        label="Add someone",
        empty_label="Pick someone",
        error_messages={
            "required": "Pick the person to add.",
            "invalid_choice": "Pick someone still here and not on the team yet.",
        },
    )

    def __init__(self, *args, user: User, team, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(
            self.fields["person"], source="team-joiners", user=user, params={"team": team.pk}
        )
