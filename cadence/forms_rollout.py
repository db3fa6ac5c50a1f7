"""Forms of the install-plan pages: the start date, and an item the lead ticks."""

from django import forms

from .rollout import BY_KEY, MANUAL
from .selectors_rollout import SHOWING


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class RolloutStartForm(forms.Form):
    starts_on = forms.DateField(
        label="Starts on",
        widget=DateInput(),
        help_text="Day 0: the items are due 30, 60 and 90 days after it.",
        error_messages={"required": "Give the day the rollout starts."},
    )


class RolloutTickForm(forms.Form):
    item = forms.ChoiceField(
        choices=[(key, BY_KEY[key].title) for key in MANUAL],
        error_messages={
            "invalid_choice": "Only the items the data cannot tell are ticked by hand.",
            "required": "Say which item.",
        },
    )


class RolloutOverviewForm(forms.Form):
    """Which teams the overview shows, and which page of them."""

    show = forms.ChoiceField(
        choices=[(key, label) for key, (label, _) in SHOWING.items()],
        required=False,
        error_messages={
            "invalid_choice": "Show all teams, those with something overdue, under way, "
            "with everything in place or not started."
        },
    )
