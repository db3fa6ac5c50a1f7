"""The programme admin's People pages' forms: the search of the list, a new person, a
person's name and time zone, manager, appointments, and the reason they leave. A
manager is chosen through the `managers` source: everyone still here (searched when
there are many); the service refuses oneself and loops with its own message."""

from django import forms

from .forms_teams import for_programme_admins, team_leads
from .models import User, available_time_zones
from .pickers import offer_people, source
from .roles import GROUP_FOR_ROLE
from .selectors_people import PEOPLE_STATES
from .services_people import LEAVING_REASONS

source("managers", allowed=for_programme_admins)(team_leads)

NAME_LIMIT = User._meta.get_field("display_name").max_length
EMAIL_LIMIT = User._meta.get_field("email").max_length
SEARCH_LIMIT = 100


def _time_zones():
    return [(tz, tz) for tz in sorted(available_time_zones())]


class PeopleSearchForm(forms.Form):
    q = forms.CharField(
        label="Find someone by name or email", max_length=SEARCH_LIMIT, required=False
    )
    show = forms.ChoiceField(
        choices=[(key, label) for key, (label, _) in PEOPLE_STATES.items()],
        required=False,
        widget=forms.HiddenInput,
    )


class _ManagerField(forms.ModelChoiceField):
    def __init__(self, **kwargs):
        super().__init__(
            queryset=User.objects.none(),
            required=False,
            empty_label="Nobody",
            error_messages={"invalid_choice": "Pick someone who is still here."},
            **kwargs,
        )


class PersonDetailsForm(forms.Form):
    display_name = forms.CharField(
        label="Name",
        max_length=NAME_LIMIT,
        error_messages={"required": "Give their name as others see it."},
    )
    time_zone = forms.ChoiceField(
        choices=_time_zones, help_text="Their sessions and reminders are shown in it."
    )


class PersonNewForm(PersonDetailsForm):
    email = forms.EmailField(
        max_length=EMAIL_LIMIT,
        help_text="They sign in with it: by single sign-on, or with a password they set "
        "from the welcome email or “Forgot your password?” on the sign-in page.",
        error_messages={"required": "Give the address they sign in with."},
    )
    manager = _ManagerField(help_text="Who they report to; they can be given one later.")
    welcome = forms.BooleanField(
        label="Email them a link to set their password",
        required=False,
        initial=True,
        help_text="With where to sign in. The link works for three days; you can send "
        "another from their page.",
    )
    field_order = ["display_name", "email", "time_zone", "manager", "welcome"]

    def __init__(self, *args, user: User, **kwargs):
        kwargs.setdefault("initial", {}).setdefault("time_zone", "UTC")
        super().__init__(*args, **kwargs)
        offer_people(self.fields["manager"], source="managers", user=user)


class ManagerForm(forms.Form):
    manager = _ManagerField(
        label="Reports to",
        help_text="Who they report to now; their 1:1s are with their team's lead. "
        "The line's history is kept.",
    )

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(self.fields["manager"], source="managers", user=user)


class AppointmentsForm(forms.Form):
    roles = forms.MultipleChoiceField(
        label="Appointed to",
        choices=[(str(role), role.label) for role in GROUP_FOR_ROLE],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="HR see cadence health across the organisation, never anyone's words. "
        "Programme admins configure the programme and open the administration site.",
    )


class LeaveForm(forms.Form):
    reason = forms.ChoiceField(
        label="Why",
        choices=[("", "Choose a reason"), *LEAVING_REASONS.items()],
        error_messages={"required": "Say why: it is kept as a code, never as words."},
    )
