"""The search behind `PeopleSearch` (people/pickers.py): the people of one source who
match what was typed, as the `<li>` items of the picker's list, and how many were
found, for its live region."""

import re

from django.http import HttpResponse, HttpResponseBadRequest
from django.utils.html import format_html
from django.views.decorators.http import require_GET

from .pickers import (
    MATCHES_SHOWN,
    QUERY_LIMIT,
    choice_items,
    labels_of,
    offered_first,
    search,
    source_for,
    suggested,
    team_items,
)

# The picker's own field name and element id, echoed into the markup: plain names only.
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,60}")
_BLANK_LIMIT = 60


def _refuse(message: str) -> HttpResponse:
    return HttpResponseBadRequest(format_html('<li class="error" role="alert">{}</li>', message))


@require_GET
def people_pick(request, source):
    params = request.GET
    registered = source_for(source, request.user)  # 404s before reading the rest
    people = registered.people(request.user, params)
    name, id_ = params.get("name", ""), params.get("id", "")
    if not (_NAME.fullmatch(name) and _NAME.fullmatch(id_)):
        return _refuse("This list cannot be searched from here.")
    text = params.get(f"{name}_search", "").strip()
    if len(text) > QUERY_LIMIT:
        return _refuse(f"Type at most {QUERY_LIMIT} characters.")
    if "\x00" in text:  # PostgreSQL refuses it in a string
        return _refuse("Type letters, digits or an email, not control characters.")
    blank = params.get("blank")
    if blank is not None and len(blank) > _BLANK_LIMIT:
        return _refuse("This list cannot be searched from here.")
    chosen_ids = params.getlist(name)
    if not all(raw.isdigit() and len(raw) < 19 for raw in chosen_ids):
        return _refuse("Choose people from the list.")
    multiple = params.get("multiple") == "1"
    if not multiple:
        chosen_ids = chosen_ids[:1]
    offers = registered.offers
    first = offered_first(registered, request.user)
    chosen, matches = search(people, text, chosen_ids, offers=offers, first=first)
    shown = matches[:MATCHES_SHOWN]
    # Nothing typed (the box cleared): one's own team again, as the form first shows.
    team = [] if text else suggested(people, first, [p.pk for p in chosen])
    items = choice_items(
        shown,
        name=name,
        id_=id_,
        multiple=multiple,
        labels=labels_of(registered, request.user, params, chosen + shown),
        chosen=chosen,
        blank=blank,
        detail=offers.detail,
    ) + team_items(
        team,
        name=name,
        id_=id_,
        multiple=multiple,
        labels=labels_of(registered, request.user, params, team) if team else {},
    )
    more = len(matches) > MATCHES_SHOWN
    if not text:
        note = ""
    elif not matches:
        note = format_html('<li class="muted">{}</li>', offers.nothing.format(text))
    elif more:
        note = format_html(
            '<li class="muted">The first {} matches: type more of the name.</li>', MATCHES_SHOWN
        )
    else:
        note = ""
    # What a screen reader hears: how many were found, in the picker's live region
    # (swapped out of band, its content only, so the region itself stays), not each
    # name of the list. Nothing typed, nothing said.
    found = format_html(
        '<p id="{}_found" hx-swap-oob="innerHTML">{}</p>',
        id_,
        offers.found(len(shown), more=more, chosen=bool(chosen)) if text else "",
    )
    return HttpResponse(items + note + found)
