"""Forms parse and validate input; the services decide. Person and team choices are
limited to what the signed-in person may pick, so a forged id is "not a valid choice"
and never reaches a service."""

from datetime import timedelta

from django import forms
from django.db.models import Q, QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils import timezone

from coaching.models import FocusArea, Goal
from people.models import Team, TeamMembership, User
from people.pickers import colleagues, offer_people, source
from people.selectors import roles_of

from .models import DEFAULT_QUESTION, TEXT_LIMIT, Stream
from .selectors import (
    FROM_AFTER_TO,
    ReviewFilters,
    by_ref,
    may_review,
    my_feedback,
    reviewable_people,
    validate_review_day,
)
from .services import ANONYMITY_THRESHOLD

ANONYMOUS_RULE = (
    f"Only for upward feedback from at least {ANONYMITY_THRESHOLD} of your direct reports; "
    "answers appear together once the request closes (at the end of its due date, or when "
    f"everyone asked has answered or declined) with at least {ANONYMITY_THRESHOLD} answers, "
    "so no one can be identified."
)


class DateInput(forms.DateInput):
    """A native date picker: its value is always ISO, whatever the locale's format."""

    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class GoalChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, goal: Goal) -> str:
        return goal.title  # (a goal's str() is only its id, to keep words out of logs)


def own_goals(user, keep: Goal | None = None):
    """The person's active goals, and the one an item is linked to already."""
    goals = Q(status="active")
    if keep is not None:
        goals |= Q(pk=keep.pk)
    return Goal.objects.filter(owner=user).filter(goals).order_by("-created_at")


def _reviewable(user: User, roles) -> QuerySet[User]:
    return reviewable_people(user=user, roles=roles).order_by("display_name", "pk")


@source("reviewable", allowed=lambda user: may_review(roles_of(user)))
def _reviewable_to_pick(user: User, params) -> QuerySet[User]:
    """Whose evaluative feedback the evaluation screen can be filtered to."""
    return _reviewable(user, roles_of(user))


def share_candidates(feedback, shared_with) -> QuerySet[User]:
    """Whom the recipient of developmental `feedback` may share it with: anyone active
    but themselves, the people it is already shared with and whoever could have
    written it."""
    people = colleagues(feedback.recipient, {}).exclude(pk__in=[p.pk for p in shared_with])
    if feedback.anonymous:
        # Leaving out only the author would name them; leave out everyone asked
        # (as `services.share_refusal` refuses them all alike).
        return people.exclude(feedback_asked_of_me__request=feedback.request_id)
    return people.exclude(pk=feedback.author_id)


@source("share")
def _share_to_pick(user: User, params) -> QuerySet[User]:
    """`?item=`: a developmental item `user` received; anything else is not found."""
    raw = params.get("item", "")
    item = my_feedback(user=user, stream=Stream.DEVELOPMENTAL).filter(by_ref(raw)).first()
    if item is None:
        raise Http404
    return share_candidates(item, [share.person for share in item.live_shares])


def _stream_radio(url_name: str) -> forms.RadioSelect:
    """Choosing a stream swaps the banner above the form (htmx GET of the same page,
    which answers a banner-only request with the banner alone). Without JS the banner
    follows the chosen stream after submitting."""
    return forms.RadioSelect(
        attrs={
            "hx-get": reverse(url_name),
            "hx-target": "#stream-banner",
            "hx-swap": "outerHTML",
        }
    )


def chosen_stream(form: forms.Form) -> str:
    """The stream the form currently stands in (for the banner): what was posted or
    asked for, when it is a real stream, else developmental."""
    value = form["stream"].value()
    return value if value in Stream.values else Stream.DEVELOPMENTAL


class ObservationFields(forms.Form):
    """What happened, what it led to, one thing to try: observation before advice."""

    observation = forms.CharField(
        label="What happened",
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="What you saw or heard — something a camera could have recorded.",
        error_messages={"required": "Say what happened: what you saw or heard."},
    )
    impact = forms.CharField(
        label="What it led to",
        required=False,
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    suggestion = forms.CharField(
        label="One thing to try",
        required=False,
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Advice while typing: the literacy check, never a block. The hints are read
        # out with the help text.
        self.fields["observation"].widget.attrs.update(
            {
                "aria-describedby": f"{self['observation'].auto_id}_helptext literacy-hints",
                "hx-post": reverse("feedback:feedback_check"),
                "hx-trigger": "keyup changed delay:600ms",
                "hx-target": "#literacy-hints",
                "hx-swap": "innerHTML",
            }
        )


class GiveForm(ObservationFields):
    recipient = forms.ModelChoiceField(
        queryset=User.objects.none(),
        label="To",
        empty_label="Choose a person",
        error_messages={"invalid_choice": "Choose someone from the list."},
    )
    stream = forms.ChoiceField(label="Stream", choices=Stream.choices, initial=Stream.DEVELOPMENTAL)

    field_order = ["recipient", "stream", "observation", "impact", "suggestion"]

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        offer_people(self.fields["recipient"], source="colleagues", user=user)
        self.fields["stream"].widget = _stream_radio("feedback:feedback_give")
        self.fields["stream"].widget.choices = self.fields["stream"].choices


class AnswerForm(ObservationFields):
    pass


class ResponderChoiceField(forms.ModelMultipleChoiceField):
    """Refuses asking yourself and asking someone twice with the services' own words,
    before Django's de-duplicating lookup could hide a repeated id."""

    def __init__(self, *args, requester_pk=None, **kwargs):
        self.requester_pk = requester_pk
        super().__init__(*args, **kwargs)

    def _check_values(self, value):
        raw = [str(v) for v in value]
        if self.requester_pk is not None and str(self.requester_pk) in raw:
            raise forms.ValidationError("Ask someone other than yourself.", code="self")
        if len(set(raw)) != len(raw):
            raise forms.ValidationError("Each person can be asked once.", code="twice")
        return super()._check_values(value)


class RequestForm(forms.Form):
    responders = ResponderChoiceField(
        queryset=User.objects.none(),
        label="Ask",
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": "Ask at least one person.",
            "invalid_choice": "Pick people from the list.",
        },
    )
    question = forms.CharField(
        label="Question",
        max_length=500,
        initial=DEFAULT_QUESTION,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="One open question gets better answers than a questionnaire.",
    )
    stream = forms.ChoiceField(label="Stream", choices=Stream.choices, initial=Stream.DEVELOPMENTAL)
    goal = GoalChoiceField(
        queryset=Goal.objects.none(),
        label="For my goal (optional)",
        required=False,
        empty_label="None",
        help_text="The people you ask see its title, so their answers can help with it.",
        error_messages={"invalid_choice": "Pick one of your goals from the list."},
    )
    focus_area = forms.ModelChoiceField(
        queryset=FocusArea.objects.none(),
        label="Focus area (optional)",
        required=False,
        empty_label="None",
        error_messages={"invalid_choice": "Pick a current focus area from the list."},
    )
    topic = forms.CharField(
        label="Anything specific (optional)",
        max_length=200,
        required=False,
        help_text="A meeting, a call, a habit the answers should look at.",
    )
    due_on = forms.DateField(label="By", widget=DateInput())
    anonymous = forms.BooleanField(label="Anonymous", required=False, help_text=ANONYMOUS_RULE)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["responders"]
        offer_people(field, source="colleagues", user=user)
        field.requester_pk = user.pk
        self.fields["stream"].widget = _stream_radio("feedback:feedback_request_new")
        self.fields["stream"].widget.choices = self.fields["stream"].choices
        today = timezone.localdate(timezone=user.tzinfo)
        self.fields["due_on"].initial = today + timedelta(days=7)
        self.fields["goal"].queryset = own_goals(user)
        self.fields["focus_area"].queryset = (
            FocusArea.objects.active_on(today).for_person(user).order_by("name")
        )


class AcknowledgeForm(forms.Form):
    reflection = forms.CharField(
        label="Your reflection (only you see this)",
        required=False,
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="What did you learn? What would you do differently next time?",
    )
    themes = forms.CharField(
        label="Themes",
        required=False,
        max_length=500,
        help_text="Comma-separated, e.g. “discovery, listening” — to spot patterns over time.",
    )

    goal = GoalChoiceField(
        queryset=Goal.objects.none(),
        label="Link to one of my goals",
        required=False,
        empty_label="No goal",
        help_text="Only you see the link.",
        error_messages={"invalid_choice": "Pick one of your goals from the list."},
    )

    def __init__(self, *args, user: User, linked: Goal | None = None, **kwargs):
        kwargs.setdefault("auto_id", "ack_%s")
        super().__init__(*args, **kwargs)
        self.fields["goal"].queryset = own_goals(user, keep=linked)

    def clean_themes(self) -> list[str]:
        names = [t.strip() for t in self.cleaned_data["themes"].split(",") if t.strip()]
        too_long = [n for n in names if len(n) > 60]
        if too_long:
            raise forms.ValidationError("Keep each theme under 60 characters.")
        return names


class ShareForm(forms.Form):
    person = forms.ModelChoiceField(
        queryset=User.objects.none(),
        label="Share with",
        empty_label="Choose a person",
        error_messages={
            "required": "Choose who to share it with.",
            "invalid_choice": "Choose someone from the list.",
        },
    )

    def __init__(self, *args, feedback, shared_with=(), **kwargs):
        kwargs.setdefault("auto_id", "share_%s")
        super().__init__(*args, **kwargs)
        offer_people(
            self.fields["person"],
            source="share",
            user=feedback.recipient,
            params={"item": feedback.ref},
            people=share_candidates(feedback, shared_with),
        )


class UnshareForm(forms.Form):
    person = forms.ModelChoiceField(
        queryset=User.objects.all(),
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": "That person is not on record."},
    )


class WinForm(forms.Form):
    team = forms.ModelChoiceField(
        queryset=Team.objects.none(),
        label="Team",
        empty_label="Choose a team",
        error_messages={"invalid_choice": "Share wins with a team you are on."},
    )
    title = forms.CharField(label="Title", max_length=200)
    link = forms.URLField(
        label="Link",
        required=False,
        max_length=500,
        assume_scheme="https",
        help_text="A call clip or recording (optional).",
    )
    text = forms.CharField(
        label="What happened",
        required=False,
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        on = TeamMembership.objects.current().filter(person=user).values("team")
        self.fields["team"].queryset = Team.objects.filter(Q(pk__in=on) | Q(lead=user)).order_by(
            "name"
        )


# --- Evaluation screen filters ----------------------------------------------------------


def _day_field(label: str) -> forms.DateField:
    return forms.DateField(
        label=label,
        required=False,
        widget=DateInput(),
        validators=[validate_review_day],
        error_messages={"invalid": "Give a date like 2025-03-31."},
    )


class ReviewPersonField(forms.ModelChoiceField):
    def label_from_instance(self, person: User) -> str:
        return person.display_name if person.is_active else f"{person.display_name} (left)"


class ReviewFilterForm(forms.Form):
    """?person=&from=&to=&page= on the evaluation screen and its CSV. The person
    choices are the people the reader reviews, so anyone else is "not on the list"
    whether they exist or not."""

    person = ReviewPersonField(
        queryset=User.objects.none(),
        required=False,
        label="Person",
        empty_label="Everyone",
        error_messages={"invalid_choice": "Choose someone from the list."},
    )
    page = forms.IntegerField(
        required=False,
        min_value=1,
        error_messages={
            "invalid": "Give a page number.",
            "min_value": "Pages start at 1.",
        },
    )

    def __init__(self, *args, user: User, roles, **kwargs):
        super().__init__(*args, **kwargs)
        # "from" is a Python keyword, so the day fields are added here.
        self.fields["from"] = _day_field("From")
        self.fields["to"] = _day_field("To")
        self.order_fields(["person", "from", "to", "page"])
        offer_people(
            self.fields["person"], source="reviewable", user=user, people=_reviewable(user, roles)
        )

    def clean(self):
        data = super().clean()
        first, last = data.get("from"), data.get("to")
        if first and last and first > last:
            raise forms.ValidationError(FROM_AFTER_TO)
        return data

    def filters(self) -> ReviewFilters:
        data = self.cleaned_data
        return ReviewFilters(person=data["person"], day_from=data["from"], day_to=data["to"])

    def page_number(self) -> int:
        return self.cleaned_data["page"] or 1
