"""The Closed days page's form: a name and two days. The service decides the rest."""

from django import forms

from .services_closures import NAME_LIMIT


class ClosureForm(forms.Form):
    name = forms.CharField(
        max_length=NAME_LIMIT,
        widget=forms.TextInput(attrs={"placeholder": "Winter break"}),
        error_messages={"required": "Name the closure, e.g. “Winter break”."},
    )
    first_day = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"required": "Give the first closed day.", "invalid": "Give a date."},
    )
    last_day = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Included. The same as the first for a single day.",
        error_messages={"required": "Give the last closed day.", "invalid": "Give a date."},
    )
