"""Forms parse and validate input; the services decide. Choices (people, calls,
templates) are limited to what the signed-in person may pick, so a forged id is "not
a valid choice" and never reaches a service."""

from django import forms
from django.db.models import Q, QuerySet
from django.forms.models import ModelChoiceIterator
from django.utils import timezone

from people.models import User
from people.pickers import offer_people, source
from people.selectors import is_in_management_chain, people_below

from . import rules, selectors
from .models import MAX_SCALE, TEXT_LIMIT, RecordedCall, Template, TemplateVersion, WorkKind
from .services import DEFAULT_SCALE, MAX_CRITERIA, CriterionSpec, ScoreInput


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class PersonChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, person: User) -> str:
        return person.display_name


class PeopleChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, person: User) -> str:
        return person.display_name


class LatestFirstIterator(ModelChoiceIterator):
    """The field's first `shown` choices only: what the list offers, not what the
    field accepts (any call in the queryset validates)."""

    def __init__(self, field):
        super().__init__(field)
        self.queryset = self.queryset[: field.shown]
        self._read: list | None = None

    def __iter__(self):
        # Read once: Django's Select asks for the first choice (is it an empty one?)
        # before drawing them all, and each iteration is a query — above the head of
        # an organisation, a sort of every visible call each time.
        if self._read is None:
            self._read = list(super().__iter__())
        return iter(self._read)


class CallChoiceField(forms.ModelChoiceField):
    """A call, from the latest `shown` — above a large organisation hundreds of
    thousands are visible, and a list of them all took seconds to send (and to scroll).
    An older one is still accepted by id (the API, a bookmarked form)."""

    iterator = LatestFirstIterator
    shown = 200

    def label_from_instance(self, call: RecordedCall) -> str:
        return f"{call.title} · {call.person.display_name} · {call.call_date:%d %b %Y}"


@source("me-and-below")
def _me_and_below(user: User, params=None) -> QuerySet[User]:
    """Whose call someone logs: their own, or of anyone active below them."""
    below = people_below(person=user).filter(is_active=True).values("pk")
    return User.objects.filter(Q(pk=user.pk) | Q(pk__in=below)).order_by("display_name")


# --- Calls ----------------------------------------------------------------------------------


class CallForm(forms.Form):
    person = PersonChoiceField(
        queryset=User.objects.none(),
        label="Whose call",
        empty_label=None,
        error_messages={"invalid_choice": "Pick yourself or someone below you."},
    )
    kind = forms.ChoiceField(choices=WorkKind.choices, initial=WorkKind.CALL, label="What")
    title = forms.CharField(max_length=200, help_text="E.g. “Discovery — Northwind Traders”.")
    url = forms.URLField(
        label="Recording link",
        max_length=500,
        required=False,
        assume_scheme="https",
        help_text="Needed for a recorded call; a role-play may have none.",
    )
    call_date = forms.DateField(label="Date", widget=DateInput())
    timestamps = forms.CharField(
        label="Moments worth a look",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One per line, e.g. “04:10 first pricing question”.",
    )

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(self.fields["person"], source="me-and-below", user=user)
        self.fields["person"].initial = user.pk
        self.fields["call_date"].initial = timezone.localdate(timezone=user.tzinfo)


# --- Starting to score a call ---------------------------------------------------------------

HOW_SELF, HOW_COACH, HOW_PEER = "self", "coach", "peer"
HOW_LABELS = {
    HOW_SELF: "Score it myself",
    HOW_PEER: "Score it myself and ask colleagues to score it too",
    HOW_COACH: "Score it as their coach (they score it themselves first)",
}


class StartScoringForm(forms.Form):
    """How a call gets scored depends on whose it is: your own — alone or with
    colleagues; someone's below you — as their coach."""

    template = forms.ModelChoiceField(
        queryset=Template.objects.none(),
        label="Scorecard",
        empty_label=None,
        error_messages={"invalid_choice": "Pick a scorecard from the list."},
    )
    how = forms.ChoiceField(label="How", widget=forms.RadioSelect)
    peers = PeopleChoiceField(
        queryset=User.objects.none(),
        required=False,
        label="Colleagues to ask",
        widget=forms.SelectMultiple(attrs={"size": 6}),
        help_text="Only when asking colleagues.",
    )

    def __init__(self, *args, call: RecordedCall, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["template"].queryset = selectors.offered_templates()
        if call.person_id == user.pk:
            ways = [HOW_SELF, HOW_PEER]
        elif is_in_management_chain(manager=user, person=call.person_id):
            ways = [HOW_COACH]
        else:  # a colleague asked to score it, a calibrating rater: nothing to start
            ways = []
            self.fields["how"].error_messages["invalid_choice"] = (
                "Only the person whose call it is, or someone they report to, starts scoring it."
            )
        self.fields["how"].choices = [(way, HOW_LABELS[way]) for way in ways]
        self.fields["how"].initial = ways[0] if ways else None
        if call.person_id == user.pk:
            offer_people(self.fields["peers"], source="colleagues", user=user)
        else:
            del self.fields["peers"]

    def clean(self):
        data = super().clean()
        if data.get("how") == HOW_PEER and not data.get("peers"):
            self.add_error("peers", "Pick at least one colleague to ask.")
        return data


# --- One scorecard ----------------------------------------------------------------------------


class ScorecardForm(forms.Form):
    """One row per criterion of the round's template version: a rating on its scale
    (each level labelled with its anchor), the moment in the recording and what was
    seen; then one thing to keep and one thing to try."""

    keep = forms.CharField(
        label="One thing to keep",
        required=False,
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    try_next = forms.CharField(
        label="One thing to try",
        required=False,
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, version: TemplateVersion, **kwargs):
        kwargs.setdefault("auto_id", "score_%s")
        super().__init__(*args, **kwargs)
        self.rows = []
        for criterion in version.criteria.all():
            anchors = {a.level: a.description for a in criterion.anchors.all()}
            levels = [
                (str(level), anchors.get(level, "")) for level in range(1, criterion.scale_max + 1)
            ]
            names = (f"rating_{criterion.pk}", f"moment_{criterion.pk}", f"evidence_{criterion.pk}")
            self.fields[names[0]] = forms.ChoiceField(
                label=criterion.title,
                choices=levels,
                required=False,
                widget=forms.RadioSelect,
                error_messages={
                    "invalid_choice": f"Rate “{criterion.title}” from 1 to {criterion.scale_max}."
                },
            )
            self.fields[names[1]] = forms.CharField(
                label="Moment",
                required=False,
                max_length=12,
                widget=forms.TextInput(attrs={"placeholder": "04:10", "size": 6}),
            )
            self.fields[names[2]] = forms.CharField(
                label="What you saw or heard",
                required=False,
                max_length=500,
            )
            self.rows.append((criterion, *(self[name] for name in names)))
        self.order_fields([*(bound.name for row in self.rows for bound in row[1:]), "keep"])

    # The button pressed: "submit" (final) or "draft"; none at all saves a draft too.
    ACTIONS = ("", "draft", "submit")

    def clean(self):
        data = super().clean()
        if self.data.get("action", "") not in self.ACTIONS:
            raise forms.ValidationError("Save a draft or submit your scores.")
        return data

    @property
    def submitting(self) -> bool:
        return self.data.get("action") == "submit"

    def score_inputs(self) -> list[ScoreInput]:
        data = self.cleaned_data
        return [
            ScoreInput(
                criterion=criterion.pk,
                rating=int(data[rating.name]) if data[rating.name] else None,
                evidence_at=data[moment.name],
                evidence=data[evidence.name],
            )
            for criterion, rating, moment, evidence in self.rows
        ]

    @classmethod
    def initial_from(cls, scorecard) -> dict:
        """A draft's values, to carry on where the rater left off."""
        if scorecard is None:
            return {}
        initial = {"keep": scorecard.keep, "try_next": scorecard.try_next}
        for score in scorecard.scores.all():
            initial[f"rating_{score.criterion_id}"] = str(score.rating)
            initial[f"moment_{score.criterion_id}"] = score.evidence_at
            initial[f"evidence_{score.criterion_id}"] = score.evidence
        return initial


# --- Calibration ----------------------------------------------------------------------------


class CalibrationForm(forms.Form):
    title = forms.CharField(max_length=200, help_text="E.g. “Q3 discovery calibration”.")
    work = CallChoiceField(
        queryset=RecordedCall.objects.none(),
        label="The call",
        empty_label=None,
        error_messages={"invalid_choice": "Pick a call from the list."},
        help_text="Yours or of someone below you, the latest 200. Add one first if it is not here.",
    )
    template = forms.ModelChoiceField(
        queryset=Template.objects.none(),
        label="Scorecard",
        empty_label=None,
        error_messages={"invalid_choice": "Pick a scorecard from the list."},
    )
    raters = PeopleChoiceField(
        queryset=User.objects.none(),
        label="Raters",
        widget=forms.CheckboxSelectMultiple,
        help_text="Each scores blind; the scores show once you close the calibration.",
        error_messages={"required": "Invite at least two raters."},
    )

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["work"].queryset = (
            selectors.calls_for_lists(user).select_related("person").order_by("-call_date", "-pk")
        )
        self.fields["template"].queryset = selectors.offered_templates()
        raters = self.fields["raters"]
        offer_people(raters, source="raters", user=user)
        raters.initial = lambda: _raters_ticked(raters.widget, user)

    @property
    def has_calls(self) -> bool:
        """Whether any call is offered: read with the list itself (no query more)."""
        return any(True for _ in self.fields["work"].widget.choices)


@source("raters", allowed=rules.may_calibrate)
def _managers(user: User, params=None) -> QuerySet[User]:
    """Whom a calibration invites: the active managers (anyone with a direct report)."""
    return (
        User.objects.filter(is_active=True, direct_reports__isnull=False)
        .distinct()
        .order_by("display_name")
    )


def _raters_ticked(widget, user: User) -> list[int]:
    """Usually every manager rates: ticked for the few a list shows. Behind a search
    (a large organisation's thousand), the managers who report to whoever runs it —
    the group a manager of managers coaches — are ticked, and the rest are found."""
    if widget.searching:
        return list(_managers(user).filter(reports_to=user).values_list("pk", flat=True))
    return [value.value for value, _ in widget.choices]


# --- Template editor --------------------------------------------------------------------------


def parse_anchors(text: str, scale_max: int) -> dict[int, str]:
    """One line per level from 1 up; a blank line leaves that level without an anchor."""
    lines = (text or "").replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) > scale_max:
        raise forms.ValidationError(
            f"{len(lines)} anchor lines for a scale of 1–{scale_max}: one line per level."
        )
    return {level: line.strip() for level, line in enumerate(lines, start=1) if line.strip()}


class CriterionForm(forms.Form):
    criterion = forms.IntegerField(required=False, widget=forms.HiddenInput)
    title = forms.CharField(max_length=120)
    behaviour = forms.CharField(
        label="What good looks like",
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Something you could see or hear on the recording.",
    )
    scale_max = forms.IntegerField(
        label="Top of the scale", min_value=2, max_value=MAX_SCALE, initial=DEFAULT_SCALE
    )
    weight = forms.DecimalField(
        min_value=0.01, max_value=10, decimal_places=2, initial=1, label="Weight"
    )
    anchors = forms.CharField(
        label="What each level looks like",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One line per level, starting with 1.",
    )

    def clean(self):
        data = super().clean()
        if "scale_max" in data and "anchors" in data:
            try:
                data["anchor_levels"] = parse_anchors(data["anchors"], data["scale_max"])
            except forms.ValidationError as exc:
                self.add_error("anchors", exc)
        return data

    def spec(self) -> CriterionSpec:
        data = self.cleaned_data
        return CriterionSpec(
            title=data["title"],
            behaviour=data["behaviour"],
            scale_max=data["scale_max"],
            weight=data["weight"],
            anchors=data["anchor_levels"],
            criterion=data["criterion"],
        )

    @staticmethod
    def initial_for(criterion) -> dict:
        levels = {a.level: a.description for a in criterion.anchors.all()}
        return {
            "criterion": criterion.criterion_id,
            "title": criterion.title,
            "behaviour": criterion.behaviour,
            "scale_max": criterion.scale_max,
            "weight": criterion.weight,
            "anchors": "\n".join(levels.get(n, "") for n in range(1, criterion.scale_max + 1)),
        }


class BaseCriterionFormSet(forms.BaseFormSet):
    def specs(self) -> list[CriterionSpec]:
        """The kept rows in their chosen order (`ordered_forms` leaves out deleted rows
        and blank extra ones)."""
        return [form.spec() for form in self.ordered_forms]


CriterionFormSet = forms.formset_factory(
    CriterionForm,
    formset=BaseCriterionFormSet,
    extra=1,
    can_order=True,
    can_delete=True,
    max_num=MAX_CRITERIA,
    validate_max=True,
)


class TemplateForm(forms.Form):
    name = forms.CharField(max_length=120)
    description = forms.CharField(
        required=False, max_length=TEXT_LIMIT, widget=forms.Textarea(attrs={"rows": 2})
    )
