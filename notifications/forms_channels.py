"""The Team channels page's forms: connect a team, change a channel's address or
format. The services decide; these parse. The teams without a channel are offered
through a source (people/pickers.py): listed when few, searched by name when many —
an organisation of 10,000 has 900 teams."""

from django import forms

from people.forms_teams import for_programme_admins
from people.models import Team, User
from people.pickers import TEAMS, offer_people, source

from .models import TeamChannel
from .selectors_channels import teams_without_channel
from .services_channels import URL_LIMIT


@source("unconnected-teams", allowed=for_programme_admins, offers=TEAMS)
def unconnected_teams(user: User, params):
    return teams_without_channel().select_related("lead")


URL_HELP = (
    "The channel's incoming webhook (Slack: Apps → Incoming Webhooks; Teams: Connectors "
    "→ Incoming Webhook). It is a credential: it is kept, never shown again."
)


class ChannelConnectForm(forms.Form):
    team = forms.ModelChoiceField(
        queryset=Team.objects.none(),
        empty_label="Pick a team",
        error_messages={
            "required": "Pick the team whose channel this is.",
            "invalid_choice": "Pick a team without a channel from the list.",
        },
    )
    webhook_url = forms.CharField(
        label="Webhook address",
        max_length=URL_LIMIT,
        widget=forms.URLInput(attrs={"placeholder": "https://hooks.slack.com/services/…"}),
        help_text=URL_HELP,
        error_messages={"required": "Paste the channel's incoming webhook address."},
    )
    format = forms.ChoiceField(choices=TeamChannel.Format.choices, initial=TeamChannel.Format.SLACK)

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(self.fields["team"], source="unconnected-teams", user=user)


class ChannelChangeForm(forms.Form):
    webhook_url = forms.CharField(
        label="New webhook address",
        max_length=URL_LIMIT,
        required=False,
        widget=forms.URLInput(),
        help_text="Leave empty to keep the one it has.",
    )
    format = forms.ChoiceField(choices=TeamChannel.Format.choices)

    def __init__(self, *args, channel: TeamChannel, **kwargs):
        kwargs.setdefault("prefix", f"channel-{channel.pk}")
        kwargs.setdefault("initial", {"format": channel.format})
        super().__init__(*args, **kwargs)
        self.channel = channel


class SwitchForm(forms.Form):
    on = forms.TypedChoiceField(
        choices=[("1", "Switch on"), ("0", "Switch off")],
        coerce=lambda value: value == "1",
        error_messages={
            "required": "Switch it on or off.",
            "invalid_choice": "Switch it on or off.",
        },
    )
