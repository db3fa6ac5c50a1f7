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


def add_service_errors(form: forms.Form, exc) -> None:
    """Put a service's ValidationError on a form: on the field it names when the form
    has that field, otherwise at the top. Shared by every app's pages."""
    if hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)
