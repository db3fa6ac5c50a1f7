"""The registry of notification kinds. The outbox sends whatever kind it is given; what
a kind's message says, and whether it is still worth sending when its turn comes, is
declared by the app that owns its subject, in that app's `notifications.py`, imported
at the app's `ready()`:

    kinds.register(kinds.Kind(NotificationKind.MISSED, message=missed_context))

- `message(row, context)`: an email's template context, from the row and the common
  context (`person`, `site_url`, `kind`); None when there is nothing left to say (the
  session was logged meanwhile, the request answered): the row is then kept in-app only.
  Rendered with `emails/<kind>-subject.txt`, `-body.txt` and `-body.html`, in the
  recipient's time zone.
- `team_text(row)`: the text a team channel is sent (names, times and counts, never
  anyone's words); None: nothing to post.
- `prefetch(rows)`: loads what the messages of a claim read, for all its rows at once.
  Kinds sharing one function share its call: it is called once per claim with every
  row of those kinds, so a claim costs the same few queries however many rows.
- `preference`: the `NotificationPreference` switch that lets its email go; by default
  `email_<kind>` (a kind without one is always emailed).
- `line(row, viewer)`: its one `Line` in the in-app list (and the list API): the text,
  names and times in the reader's zone — never anyone's words — and the path it links
  to, if any. Without one, the kind's label alone.
- `related`: what its line reads along the row (`select_related` paths), joined to
  the list's one query.
- `lines_prefetch(rows, viewer)`: loads what the lines of a page read beyond that, for
  all its rows at once; called once per page with every row of the kinds sharing it.

This module imports nothing of the app's models, so the models may read it."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple


class Line(NamedTuple):
    text: str
    url: str | None = None


@dataclass(frozen=True)
class Kind:
    value: str
    message: Callable | None = None
    team_text: Callable | None = None
    prefetch: Callable | None = None
    preference: str | None = None
    line: Callable | None = None
    related: tuple[str, ...] = ()
    lines_prefetch: Callable | None = None


_REGISTRY: dict[str, Kind] = {}


def register(*declared: Kind) -> None:
    """Declare kinds (at an app's `ready()`). Declaring one twice replaces it, so a
    module imported again (a test reloading it) registers cleanly."""
    for kind in declared:
        _REGISTRY[str(kind.value)] = kind


def of(value: str) -> Kind:
    """The declared kind, or a kind that says nothing (never sent by email or to a
    channel) when no app declared it."""
    return _REGISTRY.get(str(value)) or Kind(str(value))


def preference_of(value: str) -> str:
    kind = _REGISTRY.get(str(value))
    return (kind and kind.preference) or f"email_{value}"


def _grouped(rows, attribute: str) -> list[tuple[Callable, list]]:
    grouped: dict[Callable, list] = {}
    for row in rows:
        fn = getattr(of(row.kind), attribute)
        if fn is not None:
            grouped.setdefault(fn, []).append(row)
    return list(grouped.items())


def prefetchers(rows) -> list[tuple[Callable, list]]:
    """Each distinct prefetch function with the rows of the kinds that declared it, in
    the order first met."""
    return _grouped(rows, "prefetch")


def line_prefetchers(rows) -> list[tuple[Callable, list]]:
    """Each distinct `lines_prefetch` with the rows of the kinds that declared it."""
    return _grouped(rows, "lines_prefetch")


def related() -> list[str]:
    """What every declared kind's line reads along its row, for the list's query."""
    return sorted({path for kind in _REGISTRY.values() for path in kind.related})


def line(row, viewer) -> Line:
    """The row's line in the in-app list, as its kind declares it."""
    declared = of(row.kind).line
    return declared(row, viewer) if declared else Line(row.get_kind_display())
