"""Erasing a departed person: their private words go, the shared record stays.

`person_erase(actor=…, person=…, dry_run=True)` returns the plan — per model how many
rows are deleted, anonymised (kept with some fields written over) and kept as they
are — and changes nothing; with `dry_run=False` it carries the same plan out in one
transaction and refuses (rolling everything back) if what happened differs from it.

What goes and what stays is each app's decision, in its `personal_data` module
(`people.privacy`); docs/security.md has the table. In short: private notes, pair
notes, habits, developmental feedback given and received (with its requests and
shares), sign-in sessions, API token, MFA, email addresses and SSO links are deleted;
the person row stays (sessions, reporting lines, scorecards and evaluative feedback
point at it, and the dashboards count them) with display name "Former colleague #<id>",
an address that can never receive mail, an unusable password and no groups.

Only for deactivated people: someone still working here is refused."""

from collections import Counter
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import router, transaction
from django.db.models.deletion import Collector

from core.errors import Forbidden

from . import rules
from .models import User
from .privacy import Erasure, erasure_parts

VERB = "privacy.person_erased"


@dataclass
class ErasurePlan:
    person_id: int
    executed: bool
    deleted: dict[str, int] = field(default_factory=dict)
    anonymised: dict[str, int] = field(default_factory=dict)
    kept: dict[str, int] = field(default_factory=dict)

    def rows(self) -> list[dict]:
        """One row per model, alphabetically: what happens to how many of its rows."""
        labels = sorted(set(self.deleted) | set(self.anonymised) | set(self.kept))
        return [
            {
                "model": label,
                "deleted": self.deleted.get(label, 0),
                "anonymised": self.anonymised.get(label, 0),
                "kept": self.kept.get(label, 0),
            }
            for label in labels
        ]

    def counts(self) -> dict:
        return {"deleted": self.deleted, "anonymised": self.anonymised, "kept": self.kept}


class _CountingCollector(Collector):
    """Collects every row (no fast deletes), so the plan counts exactly what a delete
    removes — cascades included — before anything is removed."""

    def can_fast_delete(self, *args, **kwargs):
        return False


def former_name(person_id: int) -> str:
    return f"Former colleague #{person_id}"


def erased_email(person_id: int) -> str:
    # .invalid never resolves (RFC 2606): nothing can be sent there, and it is unique.
    return f"erased-{person_id}@erased.invalid"


def _collect(person: User) -> tuple[_CountingCollector, list[Erasure]]:
    parts = [part(person) for part in erasure_parts()]
    collector = _CountingCollector(using=router.db_for_write(User), origin=person)
    for part in parts:
        for queryset in part.delete:
            collector.collect(queryset)
    return collector, parts


def _plan(person: User, collector: _CountingCollector, parts: list[Erasure]) -> ErasurePlan:
    plan = ErasurePlan(person_id=person.pk, executed=False)
    deleted = Counter()
    for model, instances in collector.data.items():
        if instances:
            deleted[model._meta.label] += len(instances)
    anonymised, kept = Counter(), Counter()
    for part in parts:
        for queryset, _values in part.anonymise:
            anonymised[queryset.model._meta.label] += queryset.count()
        for queryset in part.keep:
            kept[queryset.model._meta.label] += queryset.count()
    plan.deleted = dict(sorted((k, v) for k, v in deleted.items() if v))
    plan.anonymised = dict(sorted((k, v) for k, v in anonymised.items() if v))
    plan.kept = dict(sorted((k, v) for k, v in kept.items() if v))
    return plan


def person_erase(
    *, actor: User | None, person: User, dry_run: bool = True, via: str = "admin"
) -> ErasurePlan:
    """The plan for erasing `person`; carried out unless `dry_run`. Raises
    Forbidden for an actor who may not erase (`actor=None` is an operator at
    the server's shell: `manage.py erase_person`) and ValidationError for someone
    still active. `via` (admin, command) goes into the audit event."""
    if actor is not None and (refusal := rules.why_not_erase(actor)):
        raise Forbidden(refusal)
    if person.is_active:
        raise ValidationError(
            f"{person} is still active. Deactivate them first: only people who have "
            "left can be erased."
        )
    if dry_run:
        collector, parts = _collect(person)
        return _plan(person, collector, parts)
    return _execute(actor=actor, person=person, via=via)


@transaction.atomic
def _execute(*, actor: User | None, person: User, via: str) -> ErasurePlan:
    from .services_audit import audit_record

    person = User.objects.select_for_update().get(pk=person.pk)
    if person.is_active:
        raise ValidationError(f"{person} is still active and cannot be erased.")
    collector, parts = _collect(person)
    plan = _plan(person, collector, parts)

    # Anonymise first: the querysets name rows by who they belong to, and deleting
    # first could change what they select (e.g. a reflection on deleted feedback).
    done = Counter()
    for part in parts:
        for queryset, values in part.anonymise:
            done[queryset.model._meta.label] += queryset.update(**values)
    _, deleted = collector.delete()
    deleted = {label: n for label, n in deleted.items() if n}
    anonymised = {label: n for label, n in done.items() if n}
    if deleted != plan.deleted or anonymised != plan.anonymised:
        raise RuntimeError(
            "Erasure did not match its plan; nothing was changed. "
            f"Planned {plan.counts()}, found deleted {deleted}, anonymised {anonymised}."
        )
    plan.executed = True
    person.refresh_from_db()
    audit_record(actor=actor, verb=VERB, target=person, data={**plan.counts(), "via": via})
    return plan
