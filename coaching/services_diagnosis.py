"""Diagnose before you coach: four questions in order, landing on the first gap.

The blocker is usually one of four (DOMAIN.md): they do not know HOW (skill), do not
believe it moves the number (will), there is no shared framework or scorecard
(knowledge), or there is no time blocked and no evidence to coach from (system). The
questions are asked in that order and the diagnosis stops at the first "no": fix
that one first. The gap is always computed here from the answers, never taken from
the caller."""

from collections.abc import Mapping
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from people.models import User
from people.selectors import active_below

from .models import Diagnosis, GapType

NOTES_LIMIT = 2_000


@dataclass(frozen=True)
class Question:
    field: str  # the Diagnosis field holding the answer
    text: str
    help: str
    gap: str  # what a "no" here means


QUESTIONS = (
    Question(
        "knows_how",
        "Do they know HOW?",
        "Could they show you what good looks like — a GROW conversation, a call taken "
        "apart against the scorecard? People promoted for doing are rarely taught to coach.",
        GapType.SKILL,
    ),
    Question(
        "believes",
        "Do they believe it moves the number?",
        "Do they expect coaching to change results — win rate, ramp time — or treat it "
        "as a box to tick when the forecast call is more urgent?",
        GapType.WILL,
    ),
    Question(
        "has_framework",
        "Is there a shared framework and scorecard?",
        "One agreed definition of a good call that everyone scores against — or is every "
        "1:1 improvised, and coaching a matter of opinion?",
        GapType.KNOWLEDGE,
    ),
    Question(
        "has_system",
        "Is time blocked, and is the evidence there?",
        "Is the cadence in the calendar and protected, are calls recorded to coach "
        "from, and does the top expect it?",
        GapType.SYSTEM,
    ),
)
FIELDS = tuple(q.field for q in QUESTIONS)

NEXT_STEP: dict[str, str] = {
    GapType.SKILL: "Train on GROW and call review: model it, role-play it, score a call together.",
    GapType.WILL: "Show the lift: their own scores and results before and after, tie coaching "
    "to promotion.",
    GapType.KNOWLEDGE: "Adopt a scorecard for this call type and agree what a 3 looks like.",
    GapType.SYSTEM: "Protect the cadence and turn on recordings.",
    GapType.NONE: "No gap: reinforce and let peers lead.",
}


def first_gap(answers: Mapping[str, bool | None]) -> tuple[str | None, list[str]]:
    """(the gap, the questions still to answer before there is one). The gap is the
    first "no" in order, or NONE when all four are yes; answers after the first "no"
    do not count. While a question before any "no" is unanswered there is no gap yet."""
    missing = []
    for question in QUESTIONS:
        answer = answers.get(question.field)
        if answer is None:
            missing.append(question.field)
        elif answer is False:
            return (None, missing) if missing else (question.gap, [])
    return (None, missing) if missing else (GapType.NONE, [])


def asked(diagnosis: Diagnosis) -> list[tuple[Question, bool | None]]:
    """The questions that were asked, with their answers: up to the first "no"."""
    shown = []
    for question in QUESTIONS:
        answer = getattr(diagnosis, question.field)
        shown.append((question, answer))
        if question.gap == diagnosis.gap:
            break
    return shown


def may_diagnose(*, author: User, coachee: User) -> bool:
    """Anyone above the coachee in the reporting line (never oneself)."""
    return coachee.pk != author.pk and active_below(manager=author, pk=coachee.pk).exists()


@transaction.atomic
def diagnosis_record(
    *,
    author: User,
    coachee: User,
    knows_how: bool | None,
    believes: bool | None,
    has_framework: bool | None,
    has_system: bool | None,
    notes: str = "",
) -> Diagnosis:
    """Record a diagnosis with today's date (earlier ones stay, so it can be revisited
    and compared). Every question before the first "no" must be answered; the ones
    after it are not asked and are stored as null (nothing after the first gap is
    established)."""
    if not may_diagnose(author=author, coachee=coachee):
        raise ValidationError({"coachee": "Diagnose someone below you in the reporting line."})
    answers = {
        "knows_how": knows_how,
        "believes": believes,
        "has_framework": has_framework,
        "has_system": has_system,
    }
    errors: dict[str, str] = {}
    for name, value in answers.items():
        if value is not None and not isinstance(value, bool):
            errors[name] = "Answer yes or no."
    gap, missing = first_gap(answers) if not errors else (None, [])
    for name in missing:
        errors[name] = "Answer this question (yes or no): the diagnosis stops at the first no."
    notes = (notes or "").strip()
    if len(notes) > NOTES_LIMIT:
        errors["notes"] = f"Keep the notes under {NOTES_LIMIT:,} characters."
    if errors:
        raise ValidationError(errors)
    stored, reached = {}, True
    for question in QUESTIONS:
        stored[question.field] = answers[question.field] if reached else None
        reached = reached and answers[question.field] is True
    return Diagnosis.objects.create(coachee=coachee, author=author, gap=gap, notes=notes, **stored)
