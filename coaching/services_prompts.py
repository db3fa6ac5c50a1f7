"""The question bank — the prompts shown beside each GROW step and in each kind of
session — kept by programme admins from the programme's pages and the API. Each change
is audited (ids only). A prompt is retired, never deleted from the page: sessions
showed it."""

from __future__ import annotations

from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from people.models import User
from people.services_audit import audit_record

from .models import GrowStep, Prompt, SessionKind

TEXT_LIMIT = cast(int, Prompt._meta.get_field("text").max_length)
POSITION_LIMIT = 999


@transaction.atomic
def prompt_save(
    *,
    actor: User | None,
    prompt: Prompt | None = None,
    step: str,
    kind: str = "",
    text: str,
    position: int | None = None,
) -> Prompt:
    """Add a prompt (`prompt` None: last of its step unless `position` says) or change
    one. Raises ValidationError, having written nothing, on a bad field."""
    text = (text or "").strip()
    errors = {}
    if step not in GrowStep.values:
        errors["step"] = "Pick the step it helps with."
    if kind and kind not in SessionKind.values:
        errors["kind"] = "Pick a kind of session, or none for every kind."
    if not text:
        errors["text"] = "Write the question."
    elif len(text) > TEXT_LIMIT:
        errors["text"] = f"Keep the question under {TEXT_LIMIT} characters."
    if position is not None and not 0 <= position <= POSITION_LIMIT:
        errors["position"] = f"Give a place from 0 to {POSITION_LIMIT}."
    if errors:
        raise ValidationError(errors)
    created = prompt is None
    if position is None:
        position = (
            prompt.position
            if prompt is not None and prompt.step == step
            else (Prompt.objects.filter(step=step).aggregate(last=Max("position"))["last"] or 0) + 1
        )
    prompt = prompt or Prompt()
    prompt.step, prompt.kind, prompt.text, prompt.position = step, kind or "", text, position
    prompt.save()
    audit_record(
        actor=actor,
        verb="prompt.created" if created else "prompt.changed",
        target=prompt,
        data={"step": step, "kind": kind or "", "position": position},
    )
    return prompt


@transaction.atomic
def prompt_set_active(*, actor: User | None, prompt: Prompt, active: bool) -> Prompt:
    """Retire a prompt (no longer shown) or bring it back."""
    if prompt.is_active == active:
        state = "in use" if active else "retired"
        raise ValidationError(f"That question is {state} already.")
    prompt.is_active = active
    prompt.save(update_fields=["is_active"])
    audit_record(actor=actor, verb="prompt.restored" if active else "prompt.retired", target=prompt)
    return prompt
