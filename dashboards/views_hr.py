"""Cadence health for HR and programme admins: the whole organisation and each team,
aggregates only, with every table as CSV. A wrong window is a 400 with the reason.
And skills across the organisation (`org_skills`), whose page a manager also reads
over the people below them (`views_team.skills_below`), peer coaching across the
organisation (`org_peers`) and feedback across it (`org_feedback`)."""

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from core.api import client_ip
from people.access import request_roles, role_required
from people.roles import Role

from . import exports, org, org_peers, snapshots
from .forms import WindowForm
from .privacy import MIN_GROUP
from .waiting import waiting_for

HEALTH_ROLES = (Role.HR, Role.PROGRAMME_ADMIN)


def _ask(request, form: WindowForm) -> exports.Ask:
    return exports.Ask(
        reader=request.user,
        weeks=form.cleaned_data["weeks"],
        tz=timezone.get_current_timezone(),
    )


def _refused(request, form: WindowForm, template: str, **context) -> HttpResponse:
    return render(request, template, {"form": form, "refused": True, **context}, status=400)


@require_GET
@role_required(*HEALTH_ROLES)
def home_hr(request):
    form = WindowForm(request.GET)
    if not form.is_valid():
        return _refused(request, form, "dashboards/hr.html")
    ask = _ask(request, form)
    return render(
        request,
        "dashboards/hr.html",
        {
            "form": form,
            # Rendered by our own templates, escaped there; kept as text in the cache.
            "body": mark_safe(snapshots.organisation_page(weeks=ask.weeks, tz=ask.tz)),  # noqa: S308
            "min_group": MIN_GROUP,
            "waiting": waiting_for(person=request.user, roles=request_roles(request)),
        },
    )


@require_GET
@role_required(*HEALTH_ROLES)
def team_health(request, pk: int):
    team = org.team_or_404(pk=pk)
    form = WindowForm(request.GET)
    if not form.is_valid():
        return _refused(request, form, "dashboards/hr_team.html", team=team)
    snapshot = _ask(request, form).team(team)
    return render(
        request,
        "dashboards/hr_team.html",
        {
            "form": form,
            "team": team,
            "snapshot": snapshot,
            "window": snapshot.window,
            "health": snapshot.health,
            "min_group": MIN_GROUP,
            "refresh_minutes": settings.DASHBOARD_REFRESH_MINUTES,
        },
    )


def _csv(ask: exports.Ask, table: exports.Table, name: str, *, team=None) -> HttpResponse:
    return _download(table, exports.filename(name, table=table, ask=ask, team=team))


def _audited_download(request, table: exports.Table, *, name: str, file: str) -> HttpResponse:
    """A month-by-month table as an audited CSV download, named for its moment in the
    reader's time zone."""
    exports.export_record(
        reader=request.user, table=name, rows=len(table.rows), ip=client_ip(request)
    )
    local = table.as_of.astimezone(timezone.get_current_timezone())
    return _download(table, f"{file}-{local:%Y-%m-%d-%H%M}.csv")


def _download(table: exports.Table, filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    exports.write_csv(response, table)
    return response


@require_GET
@role_required(*HEALTH_ROLES)
def organisation_export(request, table: str):
    build = exports.ORGANISATION_TABLES.get(table)
    if build is None:
        raise Http404
    form = WindowForm(request.GET)
    if not form.is_valid():
        return HttpResponse(" ".join(form.errors["weeks"]), status=400, content_type="text/plain")
    ask = _ask(request, form)
    rows = build(ask)
    exports.export_record(
        reader=ask.reader, weeks=ask.weeks, table=table, rows=len(rows.rows), ip=client_ip(request)
    )
    return _csv(ask, rows, table)


@require_GET
@role_required(*HEALTH_ROLES)
def team_export(request, pk: int, table: str):
    team = org.team_or_404(pk=pk)
    if table not in exports.TEAM_TABLES:
        raise Http404
    form = WindowForm(request.GET)
    if not form.is_valid():
        return HttpResponse(" ".join(form.errors["weeks"]), status=400, content_type="text/plain")
    ask = _ask(request, form)
    rows = exports.team_table(table, team=team, ask=ask)
    exports.export_record(
        reader=ask.reader,
        weeks=ask.weeks,
        table=table,
        rows=len(rows.rows),
        team=team,
        ip=client_ip(request),
    )
    return _csv(ask, rows, table, team=team)


@require_GET
@role_required(*HEALTH_ROLES)
def skills_hr(request):
    return skills_page(request, below=None)


def skills_page(request, *, below):
    """Skills across the organisation (HR, programme admins) or across the people
    below a manager (`below`, the manager reading: `views_team.skills_below`)."""
    snapshot = snapshots.skills(tz=timezone.get_current_timezone(), below=below)
    return render(
        request,
        "dashboards/skills.html",
        {
            "skills": snapshot.skills,
            "as_of": snapshot.as_of,
            "below": below,
            "min_group": MIN_GROUP,
            "refresh_minutes": settings.DASHBOARD_REFRESH_MINUTES,
        },
    )


def _skills_download(request, build, *, name: str, file: str) -> HttpResponse:
    """One of the skills page's tables, from the slot's snapshot the page shows."""
    snapshot = snapshots.skills(tz=timezone.get_current_timezone())
    table = build(snapshot.skills, as_of=snapshot.as_of)
    return _audited_download(request, table, name=name, file=file)


@require_GET
@role_required(*HEALTH_ROLES)
def skills_export(request):
    return _skills_download(
        request, exports.skills_table, name="skills", file="skills-organisation"
    )


@require_GET
@role_required(*HEALTH_ROLES)
def skills_lift_export(request):
    return _skills_download(
        request, exports.skills_lift_table, name="skills_lift", file="skills-lift-organisation"
    )


@require_GET
@role_required(*HEALTH_ROLES)
def feedback_hr(request):
    snapshot = snapshots.feedback(tz=timezone.get_current_timezone())
    return render(
        request,
        "dashboards/feedback.html",
        {
            "feedback": snapshot.feedback,
            "recent": [
                (
                    "Asked for feedback",
                    snapshot.feedback.asked_recently,
                    "asked a colleague or their manager for feedback",
                ),
                (
                    "Gave feedback unasked",
                    snapshot.feedback.gave_unasked_recently,
                    "gave someone feedback nobody had asked them for",
                ),
            ],
            "as_of": snapshot.as_of,
            "min_group": MIN_GROUP,
            "refresh_minutes": settings.DASHBOARD_REFRESH_MINUTES,
        },
    )


@require_GET
@role_required(*HEALTH_ROLES)
def feedback_export(request):
    snapshot = snapshots.feedback(tz=timezone.get_current_timezone())
    table = exports.feedback_table(snapshot.feedback, as_of=snapshot.as_of)
    return _audited_download(request, table, name="feedback", file="feedback-organisation")


@require_GET
@role_required(*HEALTH_ROLES)
def peers_hr(request):
    found = org_peers.peers_now(tz=timezone.get_current_timezone())
    return render(
        request,
        "dashboards/peers.html",
        {"peers": found.peers, "as_of": found.as_of, "min_group": MIN_GROUP},
    )


@require_GET
@role_required(*HEALTH_ROLES)
def peers_export(request):
    found = org_peers.peers_now(tz=timezone.get_current_timezone())
    table = exports.peers_table(found.peers, as_of=found.as_of)
    return _audited_download(request, table, name="peers", file="peer-coaching-organisation")
