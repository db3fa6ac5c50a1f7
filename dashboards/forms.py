from django import forms

from .windows import DEFAULT_WEEKS, WEEK_CHOICES, parse_weeks


class WindowForm(forms.Form):
    """The window a dashboard looks at (a GET form): the last N weeks."""

    weeks = forms.CharField(
        label="Window",
        required=False,
        widget=forms.Select(choices=[(w, f"last {w} weeks") for w in WEEK_CHOICES]),
    )

    def __init__(self, data=None, **kwargs):
        # Always bound (a GET form), the default window shown as chosen.
        data = {key: data.get(key) for key in data} if data else {}
        data.setdefault("weeks", str(DEFAULT_WEEKS))
        super().__init__(data, **kwargs)

    def clean_weeks(self) -> int:
        return parse_weeks(self.cleaned_data.get("weeks"))
