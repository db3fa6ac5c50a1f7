"""Forms of the learning loop. Choices are limited to what the signed-in person may
pick (their sessions, commitments, pairs, teams, current focus areas), so a forged
id is "not a valid choice"; the services decide the rest."""

from django import forms
from django.utils import timezone

from people.models import User

from . import selectors
from .models import (
    BODY_LIMIT,
    Audience,
    Experiment,
    ExperimentStatus,
    Learning,
    LearningKind,
    PlaybookModule,
)


def _session_label(owner: User):
    def label(session) -> str:
        others = [
            p.person.display_name for p in session.participants.all() if p.person_id != owner.pk
        ]
        when = timezone.localtime(session.scheduled_start).strftime("%-d %b %Y")
        with_whom = f" · with {', '.join(others)}" if others else ""
        return f"{session.get_kind_display()} · {when}{with_whom}"

    return label


def _pair_label(pair) -> str:
    names = ", ".join(m.person.display_name for m in pair.members.all() if m.left_at is None)
    return f"Peer pair: {names}"


def _commitment_label(commitment) -> str:
    text = commitment.text if len(commitment.text) <= 70 else commitment.text[:69] + "…"
    return f"{text} ({commitment.owner.display_name}, by {commitment.due_on:%-d %b})"


class ExperimentForm(forms.Form):
    """A new experiment, or the owner's edit of one. Links offered: the owner's
    sessions around now, the open commitments they may see, their live pairs, the
    current focus areas that apply to them (and whatever it already links to)."""

    hypothesis = forms.CharField(
        max_length=300,
        label="Hypothesis",
        help_text="What you believe, in a sentence: “Leading with the conclusion keeps the room.”",
    )
    test = forms.CharField(
        max_length=2_000,
        label="The small test this week",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="What you will try, where, how many times.",
    )
    evidence = forms.CharField(
        max_length=500,
        required=False,
        label="What would change my mind",
        help_text="The evidence that would tell you the hypothesis is wrong.",
    )
    focus_area = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Focus area",
        empty_label="None",
        error_messages={"invalid_choice": "Pick a current focus area from the list."},
    )
    session = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="From or for a session",
        empty_label="None",
        error_messages={"invalid_choice": "Pick one of your sessions from the list."},
    )
    commitment = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Serves a commitment",
        empty_label="None",
        error_messages={"invalid_choice": "Pick a commitment from the list."},
    )
    pair = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Shared with my peer pair",
        empty_label="None",
        help_text="Your partners in the pair see the experiment and its result.",
        error_messages={"invalid_choice": "Pick one of your peer pairs from the list."},
    )

    def __init__(self, *args, owner: User, kept: Experiment | None = None, **kwargs):
        kwargs.setdefault("auto_id", "experiment_%s")
        super().__init__(*args, **kwargs)
        kept = kept or Experiment()
        fields = self.fields
        fields["focus_area"].queryset = selectors.focus_areas_for(
            person=owner, kept=kept.focus_area if kept.focus_area_id else None
        )
        fields["session"].queryset = selectors.sessions_to_link(owner=owner, kept=kept.session_id)
        fields["session"].label_from_instance = _session_label(owner)
        commitments = selectors.commitments_to_offer(owner=owner, kept=kept.commitment_id)
        fields["commitment"].queryset = commitments.order_by("due_on", "pk")
        fields["commitment"].label_from_instance = _commitment_label
        fields["pair"].queryset = selectors.pairs_to_link(owner=owner, kept=kept.pair_id)
        fields["pair"].label_from_instance = _pair_label


class ExperimentFinishForm(forms.Form):
    result = forms.CharField(
        max_length=2_000,
        label="What happened",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="What you saw or heard, how many times you tried it.",
    )
    learning = forms.CharField(
        max_length=2_000,
        required=False,
        label="What I learned",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="What you will keep doing, or do differently.",
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "finish_%s")
        super().__init__(*args, **kwargs)


class LearningForm(forms.Form):
    """Publish (or edit) a learning. The team is the audience when it is for my team,
    and where it comes from when it is for everyone."""

    kind = forms.ChoiceField(choices=LearningKind.choices, label="Kind")
    title = forms.CharField(max_length=200, label="Title")
    body = forms.CharField(
        max_length=BODY_LIMIT,
        label="What you learned",
        widget=forms.Textarea(attrs={"rows": 10}),
        help_text="What you tried, what happened, what a colleague could copy. For a checklist "
        "or a template, one item a line.",
    )
    tags = forms.CharField(
        max_length=1_000,
        required=False,
        label="Tags",
        help_text="Comma-separated, e.g. discovery, pricing, objections (at most 20, up to 40 "
        "characters each).",
    )
    focus_area = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Focus area",
        empty_label="None",
        error_messages={"invalid_choice": "Pick a current focus area from the list."},
    )
    audience = forms.ChoiceField(
        choices=Audience.choices, widget=forms.RadioSelect, label="Who sees it"
    )
    team = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Team",
        empty_label="None",
        help_text="Required for “My team”: the team that sees it. For everyone, the team it "
        "comes from (optional).",
        error_messages={"invalid_choice": "Pick a team you are on (or lead)."},
    )
    experiment = forms.ModelChoiceField(
        queryset=None,
        required=False,
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": "Publish from one of your own finished experiments."},
    )
    session = forms.ModelChoiceField(
        queryset=None,
        required=False,
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": "Publish from a session you took part in."},
    )

    def __init__(self, *args, author: User, kept: Learning | None = None, **kwargs):
        kwargs.setdefault("auto_id", "learning_%s")
        super().__init__(*args, **kwargs)
        fields = self.fields
        fields["focus_area"].queryset = selectors.focus_areas_for(
            person=author, kept=kept.focus_area if kept and kept.focus_area_id else None
        )
        fields["team"].queryset = selectors.my_teams(
            person=author, kept=kept.team_id if kept is not None else None
        )
        if kept is not None:
            # Where it came from is kept as it was.
            del fields["experiment"], fields["session"]
        else:
            fields["experiment"].queryset = Experiment.objects.filter(
                owner=author, status=ExperimentStatus.DONE
            )
            fields["session"].queryset = selectors.linkable_session(owner=author)

    def clean(self):
        data = super().clean()
        if (
            data.get("audience") == Audience.TEAM
            and not data.get("team")
            and "team" not in self.errors
        ):
            self.add_error(
                "team", "Pick the team that sees it, or share it with the whole organisation."
            )
        return data


class LibraryFilterForm(forms.Form):
    """The library's search and filters (GET). Focus areas and teams are offered from
    what the reader's learnings carry; any id is accepted (it finds nothing)."""

    q = forms.CharField(max_length=200, required=False, label="Search")
    tag = forms.CharField(max_length=40, required=False, label="Tag")
    kind = forms.ChoiceField(
        choices=[("", "Any kind"), *LearningKind.choices], required=False, label="Kind"
    )
    focus_area = forms.IntegerField(
        required=False, min_value=1, label="Focus area", widget=forms.Select
    )
    team = forms.IntegerField(required=False, min_value=1, label="Team", widget=forms.Select)

    def __init__(self, *args, focus_areas=(), teams=(), **kwargs):
        kwargs.setdefault("auto_id", "filter_%s")
        super().__init__(*args, **kwargs)
        self.fields["focus_area"].widget.choices = [
            ("", "Any focus area"),
            *((a.pk, a.name) for a in focus_areas),
        ]
        self.fields["team"].widget.choices = [("", "Any team"), *((t.pk, t.name) for t in teams)]

    def filters(self) -> selectors.LibraryFilters:
        data = self.cleaned_data if self.is_bound and self.is_valid() else {}
        return selectors.LibraryFilters(
            q=(data.get("q") or "").strip(),
            tag=" ".join((data.get("tag") or "").split()).lower(),
            kind=data.get("kind") or "",
            focus_area=data.get("focus_area"),
            team=data.get("team"),
        )


class TeamPlaybooksForm(forms.Form):
    modules = forms.ModelMultipleChoiceField(
        queryset=PlaybookModule.objects.filter(is_active=True).order_by("position", "name"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Modules this team uses",
        error_messages={"invalid_choice": "Pick modules from the list."},
    )
