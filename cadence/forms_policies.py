"""The Team cadence pages' forms: which teams to show, the policy to apply, and a
policy's name and, for each kind of session, whether teams keep it and its rule."""

from django import forms
from django.forms.utils import ErrorDict

from core.forms import TimeInput

from .models import CadencePolicy, PolicyItem, Recurrence, Weekday
from .selectors_policies import TEAM_STATES
from .services_policies import (
    DESCRIPTION_LIMIT,
    ITEM_FIELDS,
    NAME_LIMIT,
    POLICY_KINDS,
    SUGGESTED_ITEMS,
)

KIND_LABELS = {
    "one_on_one": "1:1s — each member with the team lead",
    "team_call_review": "Team call review — the whole team",
    "role_play": "Skill role-play — the whole team",
    "manager_review": "Manager review — the lead with their own manager",
}


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


class PolicyForm(forms.Form):
    name = forms.CharField(
        max_length=NAME_LIMIT,
        error_messages={"required": "Name the policy, e.g. “Field sales standard”."},
    )
    description = forms.CharField(
        label="What it is for",
        max_length=DESCRIPTION_LIMIT,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Who should keep it and why — teams and leads read this when it is applied.",
    )


class PolicyItemForm(forms.Form):
    """One kind of session in a policy: whether the team keeps it and its rule. Only
    a kept kind's rule is read; the page shows the rule's fields together."""

    keeps = forms.BooleanField(required=False)
    recurrence = forms.ChoiceField(label="How often", choices=Recurrence.choices)
    weekday = forms.TypedChoiceField(label="Day", choices=Weekday.choices, coerce=int)
    interval_weeks = forms.IntegerField(
        label="Weeks apart",
        min_value=1,
        max_value=8,
        required=False,
        help_text="Weekly rules only.",
        error_messages={"min_value": "Every 1 to 8 weeks.", "max_value": "Every 1 to 8 weeks."},
    )
    week_of_month = forms.TypedChoiceField(
        label="Week of month",
        choices=[(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th")],
        coerce=int,
        required=False,
        help_text="n-th weekday rules only.",
    )
    local_time = forms.TimeField(
        label="Time", widget=TimeInput(), help_text="Each coach's local time."
    )
    duration_minutes = forms.IntegerField(
        label="Minutes",
        min_value=5,
        max_value=480,
        error_messages={
            "min_value": "Between 5 and 480 minutes.",
            "max_value": "Between 5 and 480 minutes.",
        },
    )

    def __init__(self, *args, kind: str, **kwargs):
        super().__init__(*args, prefix=kind, **kwargs)
        self.kind = kind
        self.fields["keeps"].label = KIND_LABELS[kind]

    def full_clean(self):
        # A kind the team does not keep: nothing else of it is read, so nothing can be wrong.
        keeps = self.fields["keeps"].widget.value_from_datadict(
            self.data, self.files, self.add_prefix("keeps")
        )
        if self.is_bound and not keeps:
            self._errors, self.cleaned_data = ErrorDict(), {"keeps": False}
            return
        super().full_clean()

    @classmethod
    def initial_for(cls, kind: str, item: PolicyItem | None) -> dict:
        rule = (
            {field: getattr(item, field) for field in ITEM_FIELDS}
            if item is not None
            else SUGGESTED_ITEMS[kind]
        )
        return {"keeps": item is not None, "interval_weeks": 1, "week_of_month": 1, **rule}

    def rule(self) -> dict | None:
        """The rule to save, or None when the team does not keep this kind."""
        if not self.cleaned_data.get("keeps"):
            return None
        rule = {field: self.cleaned_data.get(field) for field in ITEM_FIELDS}
        rule["interval_weeks"] = rule["interval_weeks"] or 1
        rule["week_of_month"] = rule["week_of_month"] or 1
        return rule


def policy_item_forms(data=None, *, policy: CadencePolicy | None) -> list[PolicyItemForm]:
    """One form per kind a policy may hold: the posted ones, or filled from the policy
    (a new one starts from the programme's suggested rhythm, every kind kept)."""
    if data is not None:
        return [PolicyItemForm(data, kind=kind) for kind in POLICY_KINDS]
    items = {item.kind: item for item in policy.items.all()} if policy else {}
    return [
        PolicyItemForm(
            kind=kind,
            initial=PolicyItemForm.initial_for(kind, items.get(kind))
            | ({} if policy else {"keeps": True}),
        )
        for kind in POLICY_KINDS
    ]
