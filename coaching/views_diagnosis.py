"""Diagnose before you coach, in the browser: a guided form on a coachee's page for
anyone above them. With htmx it asks one question at a time and stops at the first
"no"; without JavaScript it is one plain form. Saved diagnoses show on the coachee's
page (for whoever may read them); the coachee never sees them.

Refusals come back as 400 with the reason, nothing saved; a coachee not below the
viewer is a 404."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from core.forms import submit
from people.models import User

from . import selectors_diagnosis as selectors
from . import services_diagnosis as services
from .forms_diagnosis import DiagnosisForm
from .models import GapType


def diagnosis_context(*, viewer: User, person: User) -> dict:
    """For the coachee's page: their diagnoses `viewer` may read, newest first."""
    return {"diagnoses": selectors.diagnoses_of(viewer=viewer, coachee=person)}


def _page(request, person: User, form: DiagnosisForm, status=200):
    latest = selectors.diagnoses(viewer=request.user).filter(coachee=person).first()
    context = {
        "person": person,
        "form": form,
        "latest": selectors.decorate(latest) if latest else None,
    }
    return render(request, "coaching/diagnosis/new.html", context, status=status)


def _guided(request, person: User, form: DiagnosisForm | None = None, *, status=200):
    """One screen of the guided form: the next question, or — at the first "no", or
    after four yeses — where to start, with the notes and the save button."""
    answers, error = {}, []
    if form is not None:
        form.is_valid()  # what is valid of it is kept: a too-long note loses no answers
        answers = form.answers()
        error = [e for name, errors in form.errors.items() if name != "notes" for e in errors]
    gap, missing = services.first_gap(answers)
    current, answered = None, []
    if gap is None:
        # The next question is the first one not answered (all before it were yes);
        # anything posted after it is asked again.
        current = next(q for q in services.QUESTIONS if q.field == missing[0])
        answered = [(q, True) for q in services.QUESTIONS[: services.QUESTIONS.index(current)]]
    else:
        for question in services.QUESTIONS:
            answered.append((question, answers[question.field]))
            if question.gap == gap:
                break
    context = {
        "person": person,
        "form": form if form is not None else DiagnosisForm(),
        "answered": answered,
        "carried": [(q.field, "yes" if a else "no") for q, a in answered],
        "current": current,
        "number": len(answered) + 1,
        "total": len(services.QUESTIONS),
        "gap": gap,
        "gap_label": GapType(gap).label if gap else "",
        "next_step": services.NEXT_STEP.get(gap, ""),
        "error": error,
    }
    return render(request, "coaching/diagnosis/_guided.html", context, status=status)


@require_http_methods(["GET", "POST"])
def diagnosis_new(request, pk):
    """GET: the form (htmx asks for its first screen). POST with `step`: the next
    screen, nothing saved. Any other POST saves the diagnosis."""
    person = selectors.access_coachee(user=request.user, pk=pk)
    if request.method == "GET":
        if request.htmx:
            return _guided(request, person)
        return _page(request, person, DiagnosisForm())
    form = DiagnosisForm(request.POST)
    if request.POST.get("step"):
        return _guided(request, person, form, status=200 if form.is_valid() else 400)
    ok, diagnosis = submit(
        form,
        lambda data: services.diagnosis_record(
            author=request.user, coachee=person, notes=data["notes"], **form.answers()
        ),
    )
    if ok:
        messages.success(
            request,
            f"Diagnosis saved: {diagnosis.get_gap_display()}. "
            f"Next step: {services.NEXT_STEP[diagnosis.gap]}",
        )
        url = reverse("coaching:person_detail", args=[person.pk]) + "#diagnosis-heading"
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if request.htmx:
        return _guided(request, person, form, status=400)
    return _page(request, person, form, status=400)
