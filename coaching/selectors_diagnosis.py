"""Reads of diagnoses. Who may read one is `Diagnosis.objects.visible_to` (its author
and the people above the author, never the coachee); who may make one is anyone
above the coachee."""

from django.db.models import QuerySet
from django.http import Http404

from people.models import User
from people.selectors import active_below

from .models import Diagnosis
from .services_diagnosis import NEXT_STEP, asked


def access_coachee(*, user: User, pk: int) -> User:
    """Someone below `user` (never `user`), active; else 404."""
    if pk == user.pk:
        raise Http404
    try:
        return active_below(manager=user, pk=pk).get()
    except User.DoesNotExist:
        raise Http404 from None


def diagnoses(*, viewer: User) -> QuerySet[Diagnosis]:
    """Every diagnosis `viewer` may read, newest first, with the people named."""
    return Diagnosis.objects.visible_to(viewer).select_related("coachee", "author")


def decorate(diagnosis: Diagnosis) -> Diagnosis:
    """What pages show beside the stored answers: the next step, the questions asked."""
    diagnosis.next_step = NEXT_STEP[diagnosis.gap]
    diagnosis.answers = asked(diagnosis)
    return diagnosis


def diagnoses_of(*, viewer: User, coachee: User) -> list[Diagnosis]:
    """A coachee's diagnoses that `viewer` may read, newest first (one query)."""
    return [decorate(d) for d in diagnoses(viewer=viewer).filter(coachee=coachee)]
