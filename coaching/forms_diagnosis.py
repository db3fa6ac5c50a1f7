"""The diagnosis form: the four questions as yes/no, and the coach's notes. Which
answers are needed (those up to the first "no") is the service's to decide; the
gap is never a field."""

from django import forms

from .services_diagnosis import NOTES_LIMIT, QUESTIONS

YES_NO = [("yes", "Yes"), ("no", "No")]


class DiagnosisForm(forms.Form):
    notes = forms.CharField(
        label="Notes (only you and the people above you read them)",
        required=False,
        max_length=NOTES_LIMIT,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="What you saw that led you here. Never shown to the person diagnosed.",
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "diagnosis_%s")
        super().__init__(*args, **kwargs)
        questions = {
            q.field: forms.ChoiceField(
                label=q.text,
                choices=YES_NO,
                required=False,
                widget=forms.RadioSelect,
                help_text=q.help,
                error_messages={"invalid_choice": "Answer yes or no."},
            )
            for q in QUESTIONS
        }
        self.fields = {**questions, "notes": self.fields["notes"]}

    def answers(self) -> dict[str, bool | None]:
        """The answers given so far, as True / False / None (not answered)."""
        data = self.cleaned_data
        return {q.field: {"yes": True, "no": False}.get(data.get(q.field)) for q in QUESTIONS}
