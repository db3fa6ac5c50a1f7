"""The Team cadence page's forms: which teams to show, and the policy to apply."""

from django import forms

from .models import CadencePolicy
from .selectors_policies import TEAM_STATES


class TeamsShownForm(forms.Form):
    show = forms.ChoiceField(
        choices=[(key, label) for key, (label, _) in TEAM_STATES.items()],
        required=False,
        error_messages={"invalid_choice": "Show all teams, or those with or without a policy."},
    )


class PolicyApplyForm(forms.Form):
    policy = forms.ModelChoiceField(
        queryset=CadencePolicy.objects.all(),
        empty_label=None,
        error_messages={
            "required": "Pick the policy the team keeps.",
            "invalid_choice": "Pick a policy from the list.",
        },
    )
