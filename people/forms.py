from django import forms

from .models import User, available_time_zones


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(
        choices=[],
        help_text="Sessions and reminders are shown in this time zone.",
    )

    class Meta:
        model = User
        fields = ["display_name", "time_zone"]
        labels = {"display_name": "Your name as others see it"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [(tz, tz) for tz in sorted(available_time_zones())]
