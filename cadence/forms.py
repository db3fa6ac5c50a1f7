"""Forms parse input for the cadence pages; the services decide."""

from django import forms

from core.forms import TimeInput

from .models import PLANNED_KINDS, EndReason, Recurrence, Weekday
from .selectors_plans import PLAN_STATES


class PlanRuleForm(forms.Form):
    """Day, time, length and rhythm of one plan. Only the fields its kind of rule uses
    are shown; `changes()` is what differs from the plan."""

    weekday = forms.TypedChoiceField(label="Day", choices=Weekday.choices, coerce=int)
    local_time = forms.TimeField(label="Time", widget=TimeInput())
    duration_minutes = forms.IntegerField(label="Minutes", min_value=5, max_value=480)
    interval_weeks = forms.IntegerField(
        label="Every how many weeks", min_value=1, max_value=8, required=False
    )
    week_of_month = forms.TypedChoiceField(
        label="Which one in the month",
        choices=[(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th")],
        coerce=int,
        required=False,
    )

    def __init__(self, *args, plan, **kwargs):
        kwargs.setdefault("prefix", f"plan-{plan.pk}")
        kwargs.setdefault(
            "initial",
            {
                "weekday": plan.weekday,
                "local_time": plan.local_time,
                "duration_minutes": plan.duration_minutes,
                "interval_weeks": plan.interval_weeks,
                "week_of_month": plan.week_of_month,
            },
        )
        super().__init__(*args, **kwargs)
        self.plan = plan
        self.fields["local_time"].help_text = f"In {plan.time_zone}."
        if plan.recurrence != Recurrence.WEEKLY:
            del self.fields["interval_weeks"]
        if plan.recurrence != Recurrence.MONTHLY_NTH:
            del self.fields["week_of_month"]
        if "interval_weeks" in self.fields:
            self.fields["interval_weeks"].required = True
        if "week_of_month" in self.fields:
            self.fields["week_of_month"].required = True

    def changes(self) -> dict:
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if value is not None and getattr(self.plan, name) != value
        }


class PauseForm(forms.Form):
    paused = forms.TypedChoiceField(
        choices=[("1", "Pause"), ("0", "Resume")], coerce=lambda value: value == "1"
    )


class EndPlanForm(forms.Form):
    reason = forms.ChoiceField(
        label="Why it ends",
        choices=[("", "Pick a reason")]
        + [(value, label) for value, label in EndReason.choices if value != EndReason.POLICY_ENDED],
    )
    note = forms.CharField(
        label="Note",
        max_length=500,
        required=False,
        help_text="Needed when the reason is “Other”.",
    )

    def __init__(self, *args, plan, **kwargs):
        kwargs.setdefault("prefix", f"end-{plan.pk}")
        super().__init__(*args, **kwargs)


def plan_with_forms(plan, **bound):
    """The plan with its own forms (`_plan.html`); `bound` ones (with the input just
    refused) take their place."""
    plan.edit_form = bound.get("edit_form") or PlanRuleForm(plan=plan)
    plan.end_form = bound.get("end_form") or EndPlanForm(plan=plan)
    plan.pause_error = bound.get("pause_error")
    # An ended plan shows no form: a change refused because it ended meanwhile (sent
    # from a page opened before) says why on its own.
    plan.refused = [
        error
        for form in (bound.get("edit_form"), bound.get("end_form"))
        if form is not None and not plan.is_live
        for errors in form.errors.values()
        for error in errors
    ] + list(bound.get("restart_error") or [])
    return plan


class PlanSearchForm(forms.Form):
    """Programme → Plans: by name (coach, coachee or team), kind, and state (the tabs)."""

    q = forms.CharField(label="Find by coach, coachee or team", max_length=100, required=False)
    kind = forms.ChoiceField(
        label="Kind",
        choices=[("", "Every kind"), *PLANNED_KINDS],
        required=False,
        error_messages={"invalid_choice": "Choose a kind from the list."},
    )
    show = forms.ChoiceField(
        choices=[(key, label) for key, (label, _) in PLAN_STATES.items()],
        required=False,
        widget=forms.HiddenInput,
    )
