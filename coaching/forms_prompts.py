"""The programme admin's question form: parsed here, decided by `services_prompts`."""

from django import forms

from .models import GrowStep, Prompt, SessionKind
from .services_prompts import POSITION_LIMIT, TEXT_LIMIT


class PromptForm(forms.Form):
    step = forms.ChoiceField(
        choices=GrowStep.choices,
        label="Shown beside",
        error_messages={"invalid_choice": "Pick the step it helps with."},
    )
    kind = forms.ChoiceField(
        choices=[("", "Every kind of session"), *SessionKind.choices],
        required=False,
        label="In",
        error_messages={"invalid_choice": "Pick a kind of session, or none for every kind."},
    )
    text = forms.CharField(
        max_length=TEXT_LIMIT,
        label="Question",
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Open, and about the coachee: “What would you do differently if you ran "
        "that call again tomorrow?”",
    )
    position = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=POSITION_LIMIT,
        label="Place",
        help_text="Lower comes first within its step. Empty: last when added, where it was "
        "when changed.",
    )

    @classmethod
    def initial_for(cls, prompt: Prompt) -> dict:
        return {
            "step": prompt.step,
            "kind": prompt.kind,
            "text": prompt.text,
            "position": prompt.position,
        }
