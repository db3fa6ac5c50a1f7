from django import forms

from core.forms import WEEKDAYS, TimeInput

from .models import User, available_time_zones, work_days_of
from .services_imports import MAX_UPLOAD_BYTES, TOO_LARGE


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(
        choices=[],
        help_text="Sessions and reminders are shown in this time zone.",
    )
    work_days = forms.TypedMultipleChoiceField(
        choices=WEEKDAYS,
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        label="Working days",
        help_text="Free slots for 1:1s are offered on these days only.",
        error_messages={"required": "Pick at least one working day."},
    )
    work_starts = forms.TimeField(
        label="Working day starts", widget=TimeInput(), help_text="In your time zone."
    )
    work_ends = forms.TimeField(
        label="Working day ends", widget=TimeInput(), help_text="In your time zone."
    )

    class Meta:
        model = User
        fields = ["display_name", "time_zone"]
        labels = {"display_name": "Your name as others see it"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [(tz, tz) for tz in sorted(available_time_zones())]
        person = self.instance
        self.initial.setdefault("work_days", work_days_of(person.work_days))
        self.initial.setdefault("work_starts", person.work_starts)
        self.initial.setdefault("work_ends", person.work_ends)


class PeopleImportForm(forms.Form):
    file = forms.FileField(
        label="CSV file",
        widget=forms.FileInput(attrs={"accept": ".csv,text/csv"}),
        help_text="UTF-8 CSV with a header row: email, name, manager_email, team, "
        "time_zone, role. At most 10 MB (10,000 people are about 1 MB).",
        error_messages={
            "required": "Choose a CSV file to upload.",
            "empty": "The file is empty.",
        },
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(TOO_LARGE)
        return upload
