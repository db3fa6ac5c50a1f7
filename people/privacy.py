"""A person's own data: what each app holds about someone, for the download ("Download
my data") and for erasing a departed person (`people.erasure`).

Every app knows its own rules, so each contributes its part from a `personal_data`
module of its own (discovered like `admin` modules), registering:

- `@export_section("name")`: a function `(person) -> JSON-able` returning what the
  person may see about themselves, read through the app's own visibility rules, in a
  fixed number of queries whatever the amount of history;
- `@erasure_part`: a function `(person) -> Erasure` naming what goes (querysets to
  delete, cascades included), what is anonymised (querysets and the values written
  over them) and what is kept as it is (querysets, counted for the plan).

`people` depends on no app: the apps to its right plug in here, so the layers hold."""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from django.db.models import Model, QuerySet
from django.utils import timezone
from django.utils.module_loading import autodiscover_modules

from .models import User

FORMAT = "tandem-personal-data/2"
EXPORT_VERB = "privacy.data_exported"


@dataclass
class Erasure:
    delete: list[QuerySet] = field(default_factory=list)
    anonymise: list[tuple[QuerySet, dict[str, Any]]] = field(default_factory=list)
    keep: list[QuerySet] = field(default_factory=list)


_sections: list[tuple[str, Callable[[User], Any]]] = []
_erasures: list[Callable[[User], Erasure]] = []
_discovered = False


def export_section(name: str):
    def register(func):
        if name not in {n for n, _ in _sections}:
            _sections.append((name, func))
        return func

    return register


def erasure_part(func):
    if func not in _erasures:
        _erasures.append(func)
    return func


def _discover() -> None:
    global _discovered
    if not _discovered:
        autodiscover_modules("personal_data")
        _discovered = True


def sections() -> list[tuple[str, Callable[[User], Any]]]:
    _discover()
    return list(_sections)


def erasure_parts() -> list[Callable[[User], Erasure]]:
    _discover()
    return list(_erasures)


# --- Small helpers the parts share -------------------------------------------------------


def when(value: datetime | date | None) -> str | None:
    """ISO 8601 (UTC for times), or None."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    return value.isoformat()


def ref(person: Model | None) -> dict | None:
    """Someone else, as the download names them: id and display name, nothing more."""
    if person is None:
        return None
    return named(person.pk, person.display_name)


def named(pk: int | None, display_name: str) -> dict | None:
    """`ref` from the values (a query's columns rather than a person)."""
    if pk is None:
        return None
    return {"id": pk, "display_name": display_name}


# --- The download ------------------------------------------------------------------------


def personal_data_export(*, person: User, ip: str | None = None) -> dict:
    """Everything about `person` that they may see, one section per kind, and an audit
    event (`privacy.data_exported`, with the number of entries per section — never
    the words). A fixed number of queries, whatever the length of their history."""
    from .services_audit import audit_record

    document: dict[str, Any] = {
        "format": FORMAT,
        "generated_at": when(timezone.now()),
        "person_id": person.pk,
    }
    for name, build in sections():
        document[name] = build(person)
    counts = {
        name: _entries(value)
        for name, value in document.items()
        if name not in ("format", "generated_at", "person_id")
    }
    audit_record(actor=person, verb=EXPORT_VERB, target=person, data={"entries": counts}, ip=ip)
    return document


def _entries(value) -> int:
    """How many things a section holds: a list's items, or those of a dict's lists
    (one for a record like the profile)."""
    if isinstance(value, list):
        return len(value)
    if isinstance(value, dict):
        lists = [v for v in value.values() if isinstance(v, list)]
        return sum(len(v) for v in lists) if lists else 1
    return 1


def export_filename(person: User) -> str:
    return f"tandem-my-data-{person.pk}-{timezone.now():%Y-%m-%d}.json"
