"""Scorecards' part of a person's data (see `people.privacy`).

The download: their recorded calls, and the scorecards about them and by them that
the one reveal rule (`Scorecard.objects.visible_to`) shows them — so a coach's scores
stay hidden until they scored or declined their self-assessment, a calibration until
it closes, a team review's manager until the others are done.

Erasure: nothing is deleted. Scorecards are the evaluative record and feed the trends
and distributions; calls stay with the rounds that scored them."""

from django.db.models import Prefetch, Q

from people.models import User
from people.privacy import Erasure, erasure_part, export_section, ref, when

from .models import RecordedCall, RoundRater, Score, Scorecard


@export_section("recorded_calls")
def recorded_calls(person: User) -> list:
    return [
        {
            "id": call.pk,
            "kind": call.kind,
            "title": call.title,
            "url": call.url,
            "call_date": when(call.call_date),
            "timestamps": call.timestamps,
            "created_at": when(call.created_at),
        }
        for call in RecordedCall.objects.filter(person=person)
    ]


@export_section("scorecards")
def scorecards(person: User) -> list:
    """About them or by them, as the reveal rule lets them see it now."""
    cards = (
        Scorecard.objects.visible_to(person)
        .filter(Q(subject=person) | Q(rater=person))
        .select_related("rater", "subject", "round", "round__work", "version__template")
        .prefetch_related(Prefetch("scores", queryset=Score.objects.select_related("criterion")))
        .order_by("created_at", "pk")
    )
    return [
        {
            "id": card.pk,
            "round_id": card.round_id,
            "call": card.round.work.title,
            "template": card.version.template.name,
            "template_version": card.version.number,
            "context": card.context,
            "rater": ref(card.rater),
            "rater_role": card.rater_role,
            "subject": ref(card.subject),
            "keep": card.keep,
            "try_next": card.try_next,
            "created_at": when(card.created_at),
            "submitted_at": when(card.submitted_at),
            "scores": [
                {
                    "criterion": s.criterion.title,
                    "rating": s.rating,
                    "evidence_at": s.evidence_at,
                    "evidence": s.evidence,
                }
                for s in card.scores.all()
            ],
        }
        for card in cards
    ]


@erasure_part
def erase(person: User) -> Erasure:
    return Erasure(
        keep=[
            Scorecard.objects.filter(Q(subject=person) | Q(rater=person)),
            RecordedCall.objects.filter(person=person),
            RoundRater.objects.filter(person=person),
        ]
    )
