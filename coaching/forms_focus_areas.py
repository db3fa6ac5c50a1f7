"""The programme admin's focus-area form: parsed and checked here, decided by
`services_focus_areas` (whose messages land on the same fields). Its teams are
offered through a source (people/pickers.py): listed when few, searched by name when
many — an organisation of 10,000 has 900 teams."""

from django import forms

from people.forms_teams import for_programme_admins
from people.models import Team, User
from people.pickers import TEAMS, offer_people, source
from scorecards.models import Criterion

from .forms import DateInput
from .models import TEXT_LIMIT, FocusArea


class CriterionChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Criterion) -> str:
        return obj.label


@source("teams", allowed=for_programme_admins, offers=TEAMS)
def every_team(user: User, params):
    return Team.objects.select_related("lead").order_by("name", "pk")


class FocusAreaForm(forms.Form):
    name = forms.CharField(
        max_length=FocusArea._meta.get_field("name").max_length,
        help_text="The skill, in a few words: “Discovery: ask before you pitch”.",
    )
    behaviours = forms.CharField(
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="What good looks like, one observable behaviour per line: what someone "
        "listening to the call would see or hear.",
    )
    starts_on = forms.DateField(label="Starts on", widget=DateInput())
    ends_on = forms.DateField(
        label="Ends on",
        required=False,
        widget=DateInput(),
        help_text="Leave empty while it is the focus. A quarter is usual: long enough for "
        "the cadence to move the skill.",
    )
    teams = forms.ModelMultipleChoiceField(
        queryset=Team.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="None chosen: the whole organisation.",
        error_messages={"invalid_choice": "Pick teams from the list."},
    )
    criteria = CriterionChoiceField(
        queryset=Criterion.objects.labelled(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Measured by these scorecard criteria",
        help_text="Skill trends and team distributions for the focus area follow them.",
        error_messages={"invalid_choice": "Pick criteria from the scorecard library."},
    )

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(self.fields["teams"], source="teams", user=user)

    @classmethod
    def initial_for(cls, area: FocusArea) -> dict:
        return {
            "name": area.name,
            "behaviours": area.behaviours,
            "starts_on": area.starts_on,
            "ends_on": area.ends_on,
            "teams": list(area.teams.all()),
            "criteria": list(area.criteria.all()),
        }

    def clean(self):
        data = super().clean()
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", "A focus area ends on or after the day it starts.")
        return data
