"""Forms for peer pairs. They parse; the services decide (who may be paired, how
many, how often), so a refusal reads the same on the page and in the API."""

from django import forms
from django.db.models import QuerySet
from django.utils import timezone

from coaching.models import CoachingSession
from core.forms import WEEKDAYS, TimeInput
from people.models import User, available_time_zones
from people.pickers import offer_people, source

from .models import NOTE_LIMIT, REQUEST_NOTE_LIMIT, CheckInOutcome, PairingRationale
from .rules import may_form_pairs
from .selectors import (
    PAIR_STATES,
    FocusScore,
    current_focus_area,
    current_focus_areas,
    focus_scores,
    formable_people,
    peer_requests_of,
)
from .services import (
    CHECK_IN_NOTE_LIMIT,
    DEFAULT_MINUTES,
    HABIT_LIMIT,
    MAX_INTERVAL,
    MAX_MINUTES,
    MIN_INTERVAL,
    MIN_MINUTES,
    REASON_LIMIT,
)


def _scored(user: User, params, people: list[User]) -> dict[int, str]:
    """Names, each with the latest coaches'-and-peers' average on `?focus_area=` (as
    far as `user` may see scores) when one is chosen, and whether they asked for a
    peer."""
    ids = [p.pk for p in people]
    asked = peer_requests_of(ids)
    focus_area = current_focus_area(params.get("focus_area"))
    scores = focus_scores(viewer=user, focus_area=focus_area, people=ids) if focus_area else {}
    labels = {}
    for p in people:
        label = score_label(p, scores.get(p.pk)) if focus_area else p.display_name
        labels[p.pk] = f"{label} · asked for a peer" if p.pk in asked else label
    return labels


@source("pairable", allowed=lambda user: may_form_pairs(user), labels=_scored)
def _pairable(user: User, params) -> QuerySet[User]:
    """Whom `user` may put in a pair."""
    return formable_people(user=user)


def score_label(person: User, score: FocusScore | None) -> str:
    if score is None:
        return f"{person.display_name} — no scores you can see on this focus area"
    trend = ""
    if score.change:
        way = "up" if score.change > 0 else "down"
        trend = f", {way} {abs(score.change):g} on the month before"
    return (
        f"{person.display_name} — {score.average:g} from coaches and peers "
        f"({score.month:%b %Y}, {score.count} score{'s' if score.count != 1 else ''}{trend})"
    )


class PairForm(forms.Form):
    """Form a pair or a trio. People offered: those the signed-in person may pair;
    with a focus area chosen, each with their latest coaches'-and-peers' average on
    its criteria, so complementary or similar people can be put together."""

    members = forms.ModelMultipleChoiceField(
        queryset=User.objects.all(),
        widget=forms.CheckboxSelectMultiple,
        label="Who",
        help_text="Two people, or three for a trio. Each reads the agreement and accepts or "
        "declines; nobody is told why someone declined.",
        error_messages={
            "required": "Pick two or three people.",
            "invalid_choice": "Pick people from the list.",
            "invalid_pk_value": "Pick people from the list.",
        },
    )
    focus_area = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label="None",
        label="Current focus",
        help_text="What the pair works on. Scores shown beside people follow this focus area.",
        error_messages={"invalid_choice": "Pick a current focus area from the list."},
    )
    rationale = forms.ChoiceField(
        choices=PairingRationale.choices,
        widget=forms.RadioSelect,
        label="Why these people",
        error_messages={"required": "Say why these people: complementary or similar."},
    )
    rationale_note = forms.CharField(
        max_length=500,
        required=False,
        label="In a sentence",
        help_text="E.g. “Rita leads discovery; Pavel is learning it and is strong on next steps.”",
    )
    weekday = forms.TypedChoiceField(choices=WEEKDAYS, coerce=int, initial=1, label="Day")
    local_time = forms.TimeField(label="Time", widget=TimeInput(), initial="10:00")
    time_zone = forms.ChoiceField(
        required=False,
        label="Time zone",
        help_text="Leave empty for the first person's time zone.",
    )
    interval_weeks = forms.IntegerField(
        initial=2,
        label="Every … weeks",
        help_text=f"A flexible frequency: every {MIN_INTERVAL} to {MAX_INTERVAL} weeks.",
    )
    duration_minutes = forms.IntegerField(
        initial=DEFAULT_MINUTES,
        label="Minutes",
        help_text=f"{DEFAULT_MINUTES} minutes is the default ({MIN_MINUTES}–{MAX_MINUTES}).",
    )
    agreement_text = forms.CharField(
        max_length=NOTE_LIMIT,
        widget=forms.Textarea(attrs={"rows": 9}),
        label="Agreement",
        help_text="Confidentiality, candour, respect, and progress without shaming. Each "
        "member accepts it; you can adjust it until someone has.",
    )

    def __init__(self, *args, user: User, focus_area=None, roles=None, **kwargs):
        """Offers the people `user` may pair, each with their latest average on
        `focus_area` when one is chosen."""
        kwargs.setdefault("auto_id", "pair_%s")
        super().__init__(*args, **kwargs)
        # Any id is parsed (the service says why someone cannot be paired); the boxes
        # offer only the people this person may pair.
        offer_people(
            self.fields["members"],
            source="pairable",
            user=user,
            params={"focus_area": focus_area.pk} if focus_area else {},
            people=formable_people(user=user, roles=roles),
            validate=False,
        )
        self.fields["focus_area"].queryset = current_focus_areas()
        self.fields["time_zone"].choices = [("", "First person's")] + [
            (tz, tz) for tz in sorted(available_time_zones())
        ]

    def clean_members(self):
        raw = self.data.getlist(self.add_prefix("members")) if hasattr(self.data, "getlist") else []
        if len(raw) != len(set(raw)):
            raise forms.ValidationError("Pick each person once.")
        return list(self.cleaned_data["members"])


class AgreementForm(forms.Form):
    agreement_text = forms.CharField(
        max_length=NOTE_LIMIT, widget=forms.Textarea(attrs={"rows": 9}), label="Agreement"
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "agreement_%s")  # several forms on one page
        super().__init__(*args, **kwargs)


class StepOutForm(forms.Form):
    """Decline or leave. The reason is optional and goes to programme admins only."""

    reason = forms.CharField(
        max_length=REASON_LIMIT,
        required=False,
        label="Reason (optional)",
        help_text="Only programme admins see it — not your partner, not your manager.",
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "leave_%s")  # several forms on one page
        super().__init__(*args, **kwargs)


class PairNoteForm(forms.Form):
    text = forms.CharField(
        max_length=NOTE_LIMIT,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Note",
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "note_%s")  # several forms on one page
        super().__init__(*args, **kwargs)
        # The notes section says once who reads them; the box points at that sentence.
        self.fields["text"].widget.attrs["aria-describedby"] = "pair-notes-privacy"


class HabitForm(forms.Form):
    text = forms.CharField(
        max_length=HABIT_LIMIT,
        label="A habit or milestone",
        help_text="Small and observable: “Ask two open questions before pitching on every "
        "discovery call.”",
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "habit_%s")  # several forms on one page
        super().__init__(*args, **kwargs)


class CheckInForm(forms.Form):
    outcome = forms.ChoiceField(
        choices=CheckInOutcome.choices,
        widget=forms.RadioSelect,
        error_messages={"required": "Pick kept, partly or not yet."},
    )
    note = forms.CharField(max_length=CHECK_IN_NOTE_LIMIT, required=False, label="Note")
    session = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label="Not tied to a session",
        error_messages={"invalid_choice": "Pick one of this pair's sessions you were in."},
    )

    def __init__(self, *args, sessions=(), **kwargs):
        super().__init__(*args, **kwargs)
        # Any session id parses; the service checks it belongs to the pair.
        self.fields["session"].queryset = CoachingSession.objects.all()
        self.fields["session"].widget.choices = [("", "Not tied to a session")] + [
            (s.pk, f"{timezone.localtime(s.scheduled_start):%a %d %b %Y, %H:%M}") for s in sessions
        ]


class PairOverviewForm(forms.Form):
    """Which pairs All pairs shows (the page and the API's `status`)."""

    show = forms.ChoiceField(
        choices=[(key, label) for key, (label, _) in PAIR_STATES.items()],
        required=False,
        error_messages={"invalid_choice": "Show all pairs, or those forming, active or ended."},
    )


class PeerRequestForm(forms.Form):
    """Ask for a peer: what you would like to work on, and a focus area if it is one."""

    note = forms.CharField(
        max_length=REQUEST_NOTE_LIMIT,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="What would you like to work on? (optional)",
        help_text="E.g. “Handling pricing pushback — I'd like someone who does it well.”",
    )
    focus_area = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label="None in particular",
        label="Focus area",
        error_messages={"invalid_choice": "Pick a current focus area from the list."},
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "ask_%s")
        super().__init__(*args, **kwargs)
        self.fields["focus_area"].queryset = current_focus_areas()
