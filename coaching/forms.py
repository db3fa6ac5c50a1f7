"""Forms parse and validate input; the services decide. Person and team choices are
limited to what the signed-in person may pick, so a forged id is just "not a valid
choice"."""

from django import forms
from django.db.models import Q, QuerySet
from django.utils import timezone

from people.models import Team, User
from people.pickers import offer_people, source
from people.roles import Role
from people.selectors import people_below, roles_of

from .models import (
    RATING_COMMENT_LIMIT,
    TEXT_LIMIT,
    CancelReason,
    CommitmentStatus,
    FocusArea,
    GoalStatus,
    SessionKind,
)
from .ratings import SCORE_LABELS


class LocalDateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class DateInput(forms.DateInput):
    """A browser date picker: its value is always ISO, whatever the locale's format."""

    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


def _below(user):
    return people_below(person=user).filter(is_active=True).order_by("display_name")


def _holds(role: Role):
    return lambda user: role in roles_of(user)


@source("below", allowed=_holds(Role.MANAGER))
def _below_to_pick(user: User, params) -> QuerySet[User]:
    """Whom a manager plans a 1:1, a call review or a role-play with."""
    return _below(user)


@source("managers-below", allowed=_holds(Role.MANAGER_OF_MANAGERS))
def _managers_below(user: User, params) -> QuerySet[User]:
    """Whom a manager of managers reviews: the managers below them."""
    return _below(user).filter(direct_reports__isnull=False).distinct()


class SessionStartForm(forms.Form):
    """Fields every kind shares. The time is read in the viewer's own time zone."""

    scheduled_start = forms.DateTimeField(
        label="When", widget=LocalDateTimeInput(), help_text="In your time zone."
    )
    duration_minutes = forms.IntegerField(
        label="Minutes",
        min_value=5,
        max_value=480,
        required=False,
        help_text="Leave empty for the usual length.",
    )


class OneOnOneForm(SessionStartForm):
    coachee = forms.ModelChoiceField(
        queryset=User.objects.none(), label="With", empty_label="Choose a person"
    )
    focus_area = forms.ModelChoiceField(
        queryset=FocusArea.objects.none(), required=False, empty_label="None in particular"
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(self.fields["coachee"], source="below", user=user)
        self.fields["focus_area"].queryset = FocusArea.objects.active_on(timezone.localdate())


class TeamCallReviewForm(SessionStartForm):
    team = forms.ModelChoiceField(queryset=Team.objects.none(), empty_label="Choose a team")
    presenter = forms.ModelChoiceField(
        queryset=User.objects.none(), empty_label="Choose who presents the call"
    )
    call_url = forms.URLField(label="Recording link", max_length=500, assume_scheme="https")
    call_title = forms.CharField(label="Call title", max_length=200)
    call_date = forms.DateField(label="Call date", widget=DateInput())
    call_timestamps = forms.CharField(
        label="Moments to look at",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One per line, e.g. “04:10 first pricing question”.",
    )
    focus_area = forms.ModelChoiceField(
        queryset=FocusArea.objects.none(), required=False, empty_label="None in particular"
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        leads = list(_below(user).values_list("pk", flat=True)) + [user.pk]
        self.fields["team"].queryset = Team.objects.filter(lead__in=leads)
        offer_people(self.fields["presenter"], source="below", user=user)
        self.fields["focus_area"].queryset = FocusArea.objects.active_on(timezone.localdate())


class RolePlayForm(SessionStartForm):
    participants = forms.ModelMultipleChoiceField(
        queryset=User.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    focus_area = forms.ModelChoiceField(
        queryset=FocusArea.objects.none(), empty_label="Choose a focus area"
    )
    scenario = forms.CharField(
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Who the buyer is, what they want, where the conversation starts.",
    )
    drills = forms.CharField(
        max_length=TEXT_LIMIT,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Short repetitions, e.g. “three rounds of the pricing pushback”.",
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(self.fields["participants"], source="below", user=user)
        self.fields["focus_area"].queryset = FocusArea.objects.active_on(timezone.localdate())


class ManagerReviewForm(SessionStartForm):
    coachee = forms.ModelChoiceField(
        queryset=User.objects.none(), label="Manager", empty_label="Choose a manager"
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(self.fields["coachee"], source="managers-below", user=user)


class PeerSessionForm(SessionStartForm):
    peer = forms.ModelChoiceField(queryset=User.objects.none(), empty_label="Choose a peer")

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(self.fields["peer"], source="colleagues", user=user)


FORM_FOR_KIND = {
    SessionKind.ONE_ON_ONE: OneOnOneForm,
    SessionKind.TEAM_CALL_REVIEW: TeamCallReviewForm,
    SessionKind.ROLE_PLAY: RolePlayForm,
    SessionKind.MANAGER_REVIEW: ManagerReviewForm,
    SessionKind.PEER: PeerSessionForm,
}


class GrowingTextarea(forms.Textarea):
    """A box tall enough for what it holds (up to MAX_ROWS; then it scrolls), so written
    notes are read whole rather than clipped. Browsers that size a box to its content
    (CSS `field-sizing`) keep growing it while one types; the rows are for the rest."""

    MAX_ROWS = 20
    CHARS_PER_ROW = 60  # about a line of the notes column on a laptop

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        text = str(value or "")
        lines = sum(1 + len(line) // self.CHARS_PER_ROW for line in text.splitlines())
        shown = context["widget"]["attrs"]
        shown["rows"] = min(max(int(shown.get("rows", 2)), lines), self.MAX_ROWS)
        return context


class NotesForm(forms.Form):
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    goal = forms.CharField(
        required=False, max_length=TEXT_LIMIT, widget=GrowingTextarea(attrs={"rows": 2})
    )
    reality = forms.CharField(
        required=False, max_length=TEXT_LIMIT, widget=GrowingTextarea(attrs={"rows": 4})
    )
    reality_evidence_url = forms.URLField(
        assume_scheme="https",
        required=False,
        max_length=500,
        label="Evidence link",
        help_text="A recorded call or document the Reality refers to.",
    )
    options = forms.CharField(
        required=False, max_length=TEXT_LIMIT, widget=GrowingTextarea(attrs={"rows": 3})
    )
    will = forms.CharField(
        required=False, max_length=TEXT_LIMIT, widget=GrowingTextarea(attrs={"rows": 3})
    )
    notes = forms.CharField(
        required=False, max_length=TEXT_LIMIT, widget=GrowingTextarea(attrs={"rows": 6})
    )

    HINTED = ("goal", "reality", "options", "will", "notes")

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "notes_%s")
        super().__init__(*args, **kwargs)
        # The GROW hints beside each box describe it to screen readers too.
        for name in self.HINTED:
            self.fields[name].widget.attrs["aria-describedby"] = f"{self.auto_id % name}_helptext"

    def changes(self) -> dict[str, str]:
        """Only the fields the page actually sent (a prepare form sends two)."""
        return {
            name: self.cleaned_data[name]
            for name in self.fields
            if name != "version" and name in self.data
        }


class PrivateNoteForm(forms.Form):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "private_%s")
        super().__init__(*args, **kwargs)

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    text = forms.CharField(
        required=False,
        max_length=TEXT_LIMIT,
        label="Your private notes",
        widget=forms.Textarea(attrs={"rows": 4}),
    )


class AgendaItemForm(forms.Form):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "agenda_%s")
        super().__init__(*args, **kwargs)

    text = forms.CharField(max_length=500, label="Add to the agenda")


class CommitmentForm(forms.Form):
    text = forms.CharField(max_length=500, label="What will be done")
    evidence = forms.CharField(max_length=500, label="How we will know")
    due_on = forms.DateField(label="By", widget=DateInput())
    owner = forms.ModelChoiceField(queryset=User.objects.none(), required=False, label="Who")

    def __init__(self, *args, session=None, **kwargs):
        kwargs.setdefault("auto_id", "commitment_%s")
        super().__init__(*args, **kwargs)
        if session is not None:
            ids = [p.person_id for p in session.participants.all()]
            self.fields["owner"].queryset = User.objects.filter(pk__in=ids)
            self.fields["owner"].empty_label = None
            coachee = session.coachee
            if coachee is not None:
                self.fields["owner"].initial = coachee.pk


class CommitmentCloseForm(forms.Form):
    status = forms.ChoiceField(
        choices=[(CommitmentStatus.DONE, "Done"), (CommitmentStatus.DROPPED, "Dropped")]
    )
    reason = forms.CharField(max_length=500, required=False)
    session = forms.IntegerField(required=False, widget=forms.HiddenInput)


class CommitmentReopenForm(forms.Form):
    """Undo closing a commitment; from the session page, the session it is shown on."""

    session = forms.IntegerField(required=False, widget=forms.HiddenInput)


class CancelForm(forms.Form):
    reason = forms.ChoiceField(choices=CancelReason.choices, widget=forms.RadioSelect)
    note = forms.CharField(
        max_length=500,
        required=False,
        label="Anything to add",
        help_text="Needed when the reason is “Other”.",
    )


class RescheduleForm(SessionStartForm):
    pass


class GoalForm(forms.Form):
    """A development goal, for the signed-in person or someone below them. Focus
    areas offered: the current ones that apply to the goal's owner."""

    title = forms.CharField(
        max_length=200,
        label="What I want to get better at",
        help_text="The one thing that matters most this quarter, in your own words.",
    )
    success = forms.CharField(
        max_length=500,
        required=False,
        label="How I'll know",
        help_text="What you would see or hear once you are there.",
    )
    focus_area = forms.ModelChoiceField(
        queryset=FocusArea.objects.none(),
        required=False,
        label="Focus area",
        empty_label="None",
        help_text="The programme's focus area this goal serves, if any.",
        error_messages={"invalid_choice": "Pick a current focus area from the list."},
    )

    def __init__(self, *args, owner: User, kept_focus_area=None, **kwargs):
        kwargs.setdefault("auto_id", "goal_%s")
        super().__init__(*args, **kwargs)
        today = timezone.localdate(timezone=owner.tzinfo)
        offered = Q(pk__in=FocusArea.objects.active_on(today).for_person(owner).values("pk"))
        if kept_focus_area is not None:  # an ended focus area may be kept
            offered |= Q(pk=kept_focus_area.pk)
        self.fields["focus_area"].queryset = FocusArea.objects.filter(offered).order_by("name")


class GoalCloseForm(forms.Form):
    status = forms.ChoiceField(
        choices=[(GoalStatus.ACHIEVED, "Achieved"), (GoalStatus.DROPPED, "Dropped")],
        error_messages={"invalid_choice": "Close a goal as achieved or dropped."},
    )


class RatingForm(forms.Form):
    """Was this session useful? — 1 to 5 and an optional comment. The template lays
    the scores out as a fieldset with a legend (see coaching/_rating.html)."""

    score = forms.TypedChoiceField(
        choices=list(SCORE_LABELS.items()),
        coerce=int,
        widget=forms.RadioSelect,
        label="Was this session useful?",
        error_messages={
            "required": "Pick a score from 1 (not useful) to 5 (very useful).",
            "invalid_choice": "Rate it from 1 (not useful) to 5 (very useful).",
        },
    )
    comment = forms.CharField(
        required=False,
        max_length=RATING_COMMENT_LIMIT,
        label="Anything to add? (optional)",
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={
            "max_length": f"Keep the comment under {RATING_COMMENT_LIMIT:,} characters."
        },
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "rating_%s")
        super().__init__(*args, **kwargs)
