"""The Audit log's filters (a GET form): what happened — an area or one verb, chosen in
one list grouped by area — who did it or had it done to them (the `anyone` people
source: everyone, deactivated people too, searched when there are many), and from
which day to which day in the reader's time zone."""

from datetime import datetime, time, timedelta

from django import forms
from django.utils import timezone

from .audit_catalogue import AREAS
from .forms_teams import for_programme_admins
from .models import User
from .pickers import offer_people, source
from .selectors_audit import AuditFilters, validate_day

FROM_AFTER_TO = "The first day comes after the last: swap them."


@source("anyone", allowed=for_programme_admins)
def anyone(user: User, params):
    """Everyone, here or deactivated: the audit trail outlives people's leaving."""
    return User.objects.order_by("display_name", "pk")


def _what_choices():
    return [
        ("", "Everything"),
        *(
            (area.label, [(key, f"All: {area.label.lower()}"), *area.verbs.items()])
            for key, area in AREAS.items()
        ),
    ]


def _day(label: str) -> forms.DateField:
    return forms.DateField(
        label=label,
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        validators=[validate_day],
        error_messages={"invalid": "Give a date like 2026-03-31."},
    )


class AuditFilterForm(forms.Form):
    what = forms.ChoiceField(
        label="What happened",
        choices=_what_choices,
        required=False,
        error_messages={"invalid_choice": "Choose what happened from the list."},
    )
    person = forms.ModelChoiceField(
        queryset=User.objects.none(),
        required=False,
        label="Who",
        empty_label="Anyone",
        help_text="What they did, and what was done to them.",
        error_messages={"invalid_choice": "Choose someone from the list."},
    )
    since = _day("From")
    until = _day("To")

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(self.fields["person"], source="anyone", user=user)

    def clean(self):
        data = super().clean()
        first, last = data.get("since"), data.get("until")
        if first and last and first > last:
            raise forms.ValidationError(FROM_AFTER_TO)
        return data

    def filters(self) -> AuditFilters:
        data = self.cleaned_data
        what = data["what"]
        return AuditFilters(
            area=what if what in AREAS else "",
            verb=what if what and what not in AREAS else "",
            person=data["person"],
            since=_midnight(data["since"]),
            until=_midnight(data["until"], days_after=1),
        )


def _midnight(day, *, days_after: int = 0) -> datetime | None:
    """The start of `day` (plus `days_after`) in the reader's time zone."""
    if day is None:
        return None
    return timezone.make_aware(
        datetime.combine(day + timedelta(days=days_after), time()),
        timezone.get_current_timezone(),
    )
