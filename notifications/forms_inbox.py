"""The notifications page's forms: marking one's own read (up to the newest shown) and
one's email preferences with quiet hours. The services decide; these parse."""

from django import forms

from core.forms import TimeInput

from .models import NotificationPreference
from .services import MANAGER_PREFERENCE_FIELDS, PREFERENCE_FIELDS


class NotificationPreferenceForm(forms.ModelForm):
    class Meta:
        model = NotificationPreference
        fields = list(PREFERENCE_FIELDS)
        widgets = {"quiet_from": TimeInput(), "quiet_until": TimeInput()}

    def __init__(self, *args, manages_people: bool, **kwargs):
        """Someone without reports is not offered the kinds only managers receive; as
        the fields are gone, saving leaves their stored values alone."""
        super().__init__(*args, **kwargs)
        if not manages_people:
            for name in MANAGER_PREFERENCE_FIELDS:
                del self.fields[name]

    def validate_unique(self):
        """The service keeps one row per person."""


class MarkReadForm(forms.Form):
    up_to = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
