"""The Audit log (`/programme/audit/`), for programme admins (404 to everyone else): who
did what to whom and when, newest first, filtered by what happened, by a person and by
days, 50 at a time with a link to older events. Read-only: the trail is append-only.
It shows what the trail holds — ids, counts, names of people, teams and things — and
the trail never holds private words (docs/security.md)."""

import re
from dataclasses import dataclass

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from .access import role_required
from .audit_catalogue import verb_label
from .forms_audit import AuditFilterForm
from .models import AuditEvent, Team, User
from .roles import Role
from .selectors_audit import AuditFilters, AuditPage, audit_page

ID = re.compile(r"[0-9]{1,18}")  # a target's id as a link takes it (ASCII digits only)


@dataclass(frozen=True)
class ShownEvent:
    event: AuditEvent
    happened: str  # the verb in words
    target_url: str | None  # the person's or team's page
    details: list[tuple[str, str]]  # data, as (key, value) in words


def _details(data: dict) -> list[tuple[str, str]]:
    def value(v) -> str:
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, list):
            return ", ".join(map(str, v)) or "none"
        if isinstance(v, dict):
            given = {k: n for k, n in v.items() if n is not None}
            return (
                ", ".join(f"{k.replace('_', ' ')} {value(n)}" for k, n in given.items()) or "none"
            )
        return str(v)

    return [(key.replace("_", " "), value(v)) for key, v in data.items()]


def _shown(events: list[AuditEvent]) -> list[ShownEvent]:
    """Each event in words, with a link to the person or team it was about."""
    pages = {
        ContentType.objects.get_for_model(User).pk: "people:programme_person",
        ContentType.objects.get_for_model(Team).pk: "people:team_detail",
    }
    shown = []
    for event in events:
        page = pages.get(event.target_type_id)
        linkable = page is not None and ID.fullmatch(event.target_id) is not None
        shown.append(
            ShownEvent(
                event=event,
                happened=verb_label(event.verb),
                target_url=reverse(page, args=[int(event.target_id)]) if linkable else None,
                details=_details(event.data if isinstance(event.data, dict) else {}),
            )
        )
    return shown


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def audit_log(request):
    form = AuditFilterForm(request.GET, user=request.user)
    filters, page, problem = AuditFilters(), AuditPage([], None), None
    if form.is_valid():
        filters = form.filters()
        try:
            page = audit_page(filters, before=request.GET.get("before", ""))
        except ValidationError as exc:
            problem = " ".join(exc.messages)
    context = {
        "form": form,
        "events": _shown(page.events),
        "older": page.older,
        "before": request.GET.get("before", ""),
        "filtered": any(form.data.get(key) for key in form.fields),
        "problem": problem,
    }
    failed = problem is not None or not form.is_valid()
    return render(request, "people/audit_log.html", context, status=400 if failed else 200)
