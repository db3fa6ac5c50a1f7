"""Learning's part of a person's data (see `people.privacy`).

The download: their experiments and the learnings they published.

Erasure: both stay — a learning is shared with others, an experiment is counted."""

from people.models import User
from people.privacy import Erasure, erasure_part, export_section, when

from .models import Experiment, Learning


@export_section("experiments")
def experiments(person: User) -> list:
    return [
        {
            "hypothesis": e.hypothesis,
            "test": e.test,
            "evidence": e.evidence,
            "result": e.result,
            "learning": e.learning,
            "status": e.status,
            "created_at": when(e.created_at),
            "finished_at": when(e.finished_at),
        }
        for e in Experiment.objects.filter(owner=person)
    ]


@export_section("learnings")
def learnings(person: User) -> list:
    return [
        {
            "kind": item.kind,
            "title": item.title,
            "body": item.body,
            "audience": item.audience,
            "published_at": when(item.published_at),
        }
        for item in Learning.objects.filter(author=person)
    ]


@erasure_part
def erase(person: User) -> Erasure:
    return Erasure(
        keep=[
            Experiment.objects.filter(owner=person),
            Learning.objects.filter(author=person),
        ],
    )
