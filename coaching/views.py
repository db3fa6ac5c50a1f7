"""Coaching pages. Each view parses input, calls one service or selector, renders.
Forms post normally and also through htmx (which swaps in the returned fragment);
refusals come back as 400, stale saves as 409 with both texts."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import Forbidden
from core.forms import add_service_errors, submit
from core.paging import page_asked
from people.access import request_roles
from people.roles import Role
from people.selectors import access_person
from scorecards import selectors as scorecard_selectors

from . import ratings, rules, selectors, services, views_notes
from .forms import (
    FORM_FOR_KIND,
    AgendaItemForm,
    CancelForm,
    CommitmentCloseForm,
    CommitmentForm,
    CommitmentReopenForm,
    NotesForm,
    PrivateNoteForm,
    RatingForm,
    RescheduleForm,
)
from .models import SessionKind
from .views_person import render_person


def _back_to_session(request, session_id, anchor=""):
    return redirect(reverse("coaching:session_detail", args=[session_id]) + anchor)


# --- Lists -------------------------------------------------------------------------

# "My sessions": the weeks ahead, then two years of weekly 1:1s and reviews behind.
UPCOMING_SHOWN = 20
PAST_PER_PAGE = 30


@require_GET
def session_list(request):
    """What is coming up, then what was, newest first, a page at a time (`?page=`: a
    bad number is a 400 saying so, the first page shown)."""
    number, page_error = page_asked(request.GET.get("page"))
    upcoming, recent = selectors.upcoming_and_past_page(
        person=request.user, upcoming=UPCOMING_SHOWN, page=number, per_page=PAST_PER_PAGE
    )
    return render(
        request,
        "coaching/session_list.html",
        {"upcoming": upcoming, "recent": recent, "page_error": page_error},
        status=400 if page_error else 200,
    )


# Below a head of sales there can be thousands of open commitments: a page at a time.
TEAM_COMMITMENTS_PER_PAGE = 50


def _render_commitments(request, status=200, error=None):
    """Mine, and for a manager their people's open commitments (everyone below them),
    soonest due first, a page at a time (`?page=`: a bad number is a 400 saying so,
    the first page shown; past the last, the last). `?closed=` names the commitment
    just closed here, said at the top with its Undo while that is offered."""
    mine = selectors.commitments_of(viewer=request.user, owner=request.user)
    closed, closed_error = selectors.just_closed(viewer=request.user, raw=request.GET.get("closed"))
    if closed_error:
        status, error = 400, [*(error or []), closed_error]
    team = None
    if Role.MANAGER in request_roles(request):
        number, page_error = page_asked(request.GET.get("page"))
        if page_error:
            status, error = 400, [*(error or []), page_error]
        team = selectors.commitments_for_manager(
            manager=request.user, page=number, per_page=TEAM_COMMITMENTS_PER_PAGE
        )
    return render(
        request,
        "coaching/commitment_list.html",
        {
            "mine": list(mine),
            "team": team,
            "close_form": CommitmentCloseForm(),
            "error": error,
            "closed": closed,
        },
        status=status,
    )


@require_GET
def commitment_list(request):
    return _render_commitments(request)


@require_GET
def person_detail(request, pk):
    if pk == request.user.pk:
        return redirect("dashboards:home_rep")
    return render_person(request, access_person(user=request.user, pk=pk))


# --- Starting a session ------------------------------------------------------------


def _kinds_for(request) -> list[SessionKind]:
    kinds = [SessionKind.PEER]
    roles = request_roles(request)
    if Role.MANAGER in roles:
        kinds = [
            SessionKind.ONE_ON_ONE,
            SessionKind.TEAM_CALL_REVIEW,
            SessionKind.ROLE_PLAY,
        ] + kinds
    if Role.MANAGER_OF_MANAGERS in roles:
        kinds.insert(3, SessionKind.MANAGER_REVIEW)
    return kinds


def _create(kind, user, data):
    if kind == SessionKind.ONE_ON_ONE:
        return services.one_on_one_create(
            coach=user,
            coachee=data["coachee"],
            start=data["scheduled_start"],
            duration_minutes=data["duration_minutes"],
            focus_area=data["focus_area"],
        )
    if kind == SessionKind.TEAM_CALL_REVIEW:
        return services.team_call_review_create(
            actor=user,
            team=data["team"],
            start=data["scheduled_start"],
            presenter=data["presenter"],
            call_url=data["call_url"],
            call_title=data["call_title"],
            call_date=data["call_date"],
            call_timestamps=data["call_timestamps"],
            focus_area=data["focus_area"],
            duration_minutes=data["duration_minutes"],
        )
    if kind == SessionKind.ROLE_PLAY:
        return services.role_play_create(
            coach=user,
            participants=list(data["participants"]),
            focus_area=data["focus_area"],
            start=data["scheduled_start"],
            scenario=data["scenario"],
            drills=data["drills"],
            duration_minutes=data["duration_minutes"],
        )
    if kind == SessionKind.MANAGER_REVIEW:
        return services.manager_review_create(
            coach=user,
            manager=data["coachee"],
            start=data["scheduled_start"],
            duration_minutes=data["duration_minutes"],
        )
    return services.peer_session_create(
        actor=user,
        peer=data["peer"],
        start=data["scheduled_start"],
        duration_minutes=data["duration_minutes"],
    )


@require_http_methods(["GET", "POST"])
def session_new(request):
    kinds = _kinds_for(request)
    kind = request.GET.get("kind") or kinds[0]
    if kind not in kinds:
        raise Http404
    form_class = FORM_FOR_KIND[SessionKind(kind)]
    initial = {}
    if request.GET.get("with"):
        initial["coachee"] = request.GET["with"]
    form = form_class(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST":
        ok, session = submit(form, lambda data: _create(kind, request.user, data))
        if ok:
            messages.success(request, f"{session.get_kind_display()} planned.")
            return redirect("coaching:session_detail", session.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "coaching/session_new.html",
        {"form": form, "kind": SessionKind(kind), "kinds": kinds},
        status=status,
    )


# --- The session page --------------------------------------------------------------


def _page_context(request, pk, **extra):
    """The session page's context. What costs a query (the private note, the rating)
    is read only if the template rendered asks for it, as the page's own parts are
    (`selectors.SessionPage`): an htmx save renders one part, not the page."""
    page = selectors.session_page(user=request.user, pk=pk)
    rating_form = extra.pop("rating_form", None)
    rating = SimpleLazyObject(lambda: _rating_context(request, page.session, rating_form))
    context = {
        "page": page,
        "session": page.session,
        # Lazy: the goal a 1:1 carries costs a query, read only where the form shows.
        "notes_form": extra.pop("notes_form", None)
        or SimpleLazyObject(
            lambda: NotesForm(initial={**page.notes.content(), "version": page.notes.version})
        ),
        "private_form": extra.pop("private_form", None)
        or SimpleLazyObject(lambda: _private_form(page.private_note)),
        "agenda_form": AgendaItemForm(),
        "commitment_form": extra.pop("commitment_form", None)
        or CommitmentForm(session=page.session),
        "close_form": CommitmentCloseForm(),
        "rating_panel": SimpleLazyObject(lambda: rating["rating_panel"]),
        "rating_form": SimpleLazyObject(lambda: rating["rating_form"]),
    }
    if page.session.kind == SessionKind.TEAM_CALL_REVIEW and page.session.presented_call_id:
        context["call_rounds"] = list(
            scorecard_selectors.rounds_for(user=request.user).filter(session_id=pk)
        )
        context["scorecard_templates"] = list(scorecard_selectors.offered_templates())
    context.update(extra)
    return context


def _private_form(note) -> PrivateNoteForm:
    return PrivateNoteForm(
        initial={"text": note.text if note else "", "version": note.version if note else 0}
    )


def _rating_context(request, session, form=None) -> dict:
    """The coachee's own rating of a held session (nothing for anyone else)."""
    panel = ratings.rating_panel(session=session, user=request.user)
    if panel is None:
        return {"rating_panel": None, "rating_form": form}
    if form is None:
        mine = panel.rating
        form = RatingForm(initial={"score": mine.score, "comment": mine.comment} if mine else {})
    return {"rating_panel": panel, "rating_form": form}


@require_GET
def session_detail(request, pk):
    return render(request, "coaching/session_detail.html", _page_context(request, pk))


@require_GET
def session_prepare(request, pk):
    """The coachee's preparation: their goal and their own view of Reality first."""
    context = _page_context(request, pk)
    if context["page"].viewer_role != "coachee":
        return redirect("coaching:session_detail", pk)
    return render(request, "coaching/session_prepare.html", context)


@require_POST
def notes_save(request, pk):
    session = selectors.access_session(user=request.user, pk=pk)
    form = NotesForm(request.POST)
    if views_notes.is_autosave(request):
        return views_notes.notes_autosave(request, session, form)
    template = "coaching/_notes.html"
    status, conflict = 200, None
    if form.is_valid():
        try:
            services.notes_save(
                session=session,
                actor=request.user,
                base_version=form.cleaned_data["version"],
                changes=form.changes(),
            )
        except services.StaleEdit as stale:
            # The other fields are saved; in each field both changed, what is saved
            # now is shown beside what this person typed, which the box keeps.
            status, conflict = 409, stale.conflicts
            yours = {name: texts["yours"] for name, texts in conflict.items()}
            form = NotesForm(initial={**stale.current, **yours, "version": stale.version})
        except (ValidationError, Forbidden) as exc:
            add_service_errors(form, exc)
            status = 400
        else:
            if not request.htmx:
                messages.success(request, "Notes saved.")
                return _back_to_session(request, pk, "#notes")
            form = None
    else:
        status = 400
    context = _page_context(request, pk, **({"notes_form": form} if form is not None else {}))
    context.update(conflict=conflict, saved=status == 200)
    if request.htmx:
        return render(request, template, context, status=status)
    return render(request, "coaching/session_detail.html", context, status=status)


@require_POST
def private_note_save(request, pk):
    session = selectors.access_session(user=request.user, pk=pk)
    form = PrivateNoteForm(request.POST)
    if views_notes.is_autosave(request):
        return views_notes.private_autosave(request, session, form)
    status, conflict = 200, None
    if form.is_valid():
        try:
            services.private_note_save(
                session=session,
                author=request.user,
                text=form.cleaned_data["text"],
                base_version=form.cleaned_data["version"],
            )
        except services.StaleEdit as stale:
            status = 409
            conflict = {
                "text": {"saved": stale.current["text"], "yours": form.cleaned_data["text"]}
            }
            form = PrivateNoteForm(
                initial={"text": stale.current["text"], "version": stale.version}
            )
        except (ValidationError, Forbidden) as exc:
            add_service_errors(form, exc)
            status = 400
        else:
            if not request.htmx:
                return _back_to_session(request, pk, "#private")
            form = None
    else:
        status = 400
    context = _page_context(request, pk, **({"private_form": form} if form is not None else {}))
    context.update(private_conflict=conflict, private_saved=status == 200)
    template = "coaching/_private_note.html" if request.htmx else "coaching/session_detail.html"
    return render(request, template, context, status=status)


def _fragment_or_page(request, pk, template, status=200, **extra):
    context = _page_context(request, pk, **extra)
    if request.htmx:
        return render(request, template, context, status=status)
    if status == 200:
        return _back_to_session(request, pk)
    return render(request, "coaching/session_detail.html", context, status=status)


@require_POST
def agenda_add(request, pk):
    session = selectors.access_session(user=request.user, pk=pk)
    form = AgendaItemForm(request.POST)
    status, error = 200, None
    if form.is_valid():
        try:
            services.agenda_item_add(
                session=session, actor=request.user, text=form.cleaned_data["text"]
            )
        except (ValidationError, Forbidden) as exc:
            status, error = 400, exc.messages
    else:
        # The form again with its error, marked on the field and read with it.
        return _fragment_or_page(request, pk, "coaching/_agenda.html", 400, agenda_form=form)
    return _fragment_or_page(
        request, pk, "coaching/_agenda.html", status, agenda_error=error, added=status == 200
    )


@require_POST
def agenda_toggle(request, pk):
    item = selectors.access_agenda_item(user=request.user, pk=pk)
    try:
        services.agenda_item_set_done(item=item, actor=request.user, done=not item.done)
    except (ValidationError, Forbidden) as exc:
        return _fragment_or_page(
            request, item.session_id, "coaching/_agenda.html", 400, agenda_error=exc.messages
        )
    return _fragment_or_page(request, item.session_id, "coaching/_agenda.html")


@require_POST
def agenda_delete(request, pk):
    item = selectors.access_agenda_item(user=request.user, pk=pk)
    session_id = item.session_id
    try:
        services.agenda_item_delete(item=item, actor=request.user)
    except (ValidationError, Forbidden) as exc:
        return _fragment_or_page(
            request, session_id, "coaching/_agenda.html", 400, agenda_error=exc.messages
        )
    return _fragment_or_page(request, session_id, "coaching/_agenda.html")


@require_POST
def commitment_add(request, pk):
    session = selectors.access_session(user=request.user, pk=pk)
    form = CommitmentForm(request.POST, session=session)
    ok, _ = submit(
        form,
        lambda data: services.commitment_create(
            session=session,
            actor=request.user,
            text=data["text"],
            evidence=data["evidence"],
            due_on=data["due_on"],
            owner=data["owner"],
        ),
    )
    extra = {"added": True} if ok else {"commitment_form": form}
    return _fragment_or_page(request, pk, "coaching/_commitments.html", 200 if ok else 400, **extra)


@require_POST
def commitment_close(request, pk):
    commitment = selectors.access_commitment(user=request.user, pk=pk)
    form = CommitmentCloseForm(request.POST)
    session = None
    if form.is_valid() and form.cleaned_data["session"]:
        session = selectors.access_session(user=request.user, pk=form.cleaned_data["session"])
    error = None
    if form.is_valid():
        try:
            commitment = services.commitment_close(
                commitment=commitment,
                actor=request.user,
                status=form.cleaned_data["status"],
                reason=form.cleaned_data["reason"],
                session=session,
            )
        except ValidationError as exc:
            error = exc.messages
    else:
        error = [e for errs in form.errors.values() for e in errs]
    answered = _commitment_answer(request, session, error, closed=commitment)
    if answered is not None:
        return answered
    # The list says so at the top, with an Undo for the minute it is offered.
    return redirect(reverse("coaching:commitment_list") + f"?closed={commitment.pk}")


def _commitment_answer(request, session, error, **changed):
    """After closing or reopening a commitment: its session's commitments again when it
    was done in a session (the change in `changed`, or the refusal), the commitments
    page with the refusal otherwise; None when the caller answers a success itself."""
    if session is not None:
        return _fragment_or_page(
            request,
            session.pk,
            "coaching/_commitments.html",
            400 if error else 200,
            commitment_error=error,
            **({} if error else changed),
        )
    if error:
        return _render_commitments(request, status=400, error=error)
    return None


@require_POST
def commitment_reopen(request, pk):
    """Undo Done or Dropped, in the minute after (`rules.why_not_reopen`): in place on
    the session page (`session` posted), else back to the commitments page."""
    commitment = selectors.access_commitment(user=request.user, pk=pk)
    form = CommitmentReopenForm(request.POST)
    if not form.is_valid():
        return _render_commitments(request, status=400, error=["Undo it from its own page."])
    session_id = form.cleaned_data["session"]
    session = selectors.access_session(user=request.user, pk=session_id) if session_id else None
    error = None
    try:
        commitment = services.commitment_reopen(commitment=commitment, actor=request.user)
    except ValidationError as exc:
        error = exc.messages
    answered = _commitment_answer(request, session, error, reopened=commitment)
    if answered is not None:
        return answered
    messages.success(request, f"Open again: {commitment.text}")
    return redirect("coaching:commitment_list")


# --- Running the session -------------------------------------------------------------


@require_POST
def session_held(request, pk):
    """Log it as held. The button posts the notes form where its runner may write in
    it, so what was typed is saved in the same request even without JavaScript (with
    it, the page saves first); a field someone else changed meanwhile refuses it, 409,
    both texts shown in the field."""
    session = selectors.access_session(user=request.user, pk=pk)
    notes_form = NotesForm(request.POST) if "version" in request.POST else None
    if notes_form is not None and not notes_form.is_valid():
        context = _page_context(request, pk, notes_form=notes_form)
        return render(request, "coaching/session_detail.html", context, status=400)
    notes = (
        {"version": notes_form.cleaned_data["version"], **notes_form.changes()}
        if notes_form is not None
        else None
    )
    try:
        session = services.session_mark_held(session=session, actor=request.user, notes=notes)
    except services.StaleEdit as stale:
        yours = {name: texts["yours"] for name, texts in stale.conflicts.items()}
        form = NotesForm(initial={**stale.current, **yours, "version": stale.version})
        messages.error(request, "Not logged: " + str(stale))
        context = _page_context(request, pk, notes_form=form)
        context.update(conflict=stale.conflicts)
        return render(request, "coaching/session_detail.html", context, status=409)
    except (ValidationError, Forbidden) as exc:
        # The session page again, saying why, with the status the API answers: 403
        # for someone who only reads along, 400 for a session not to be logged now.
        messages.error(request, " ".join(exc.messages))
        status = 403 if isinstance(exc, Forbidden) else 400
        return render(
            request, "coaching/session_detail.html", _page_context(request, pk), status=status
        )
    if session.held_but_empty:
        messages.warning(
            request,
            "Logged as held — but nothing is written down yet. Add at least the Will step: "
            "what will be tried, and how you will both know.",
        )
    else:
        messages.success(request, "Logged as held.")
    return _back_to_session(request, pk)


def _refused_change(request, session, verb: str, template: str):
    """The page that says why this person may not cancel or move this session now,
    with no form to fill in vain: 403 for someone who sees it but does not run it (as
    the API answers); for a session no longer scheduled, 400 to a submission, as the
    service's refusal is everywhere (the page itself is 200)."""
    refusal = rules.why_not_change(request.user, session, verb)
    if refusal is None:
        return None
    if rules.why_not_run(request.user, session, verb):
        status = 403
    else:
        status = 400 if request.method == "POST" else 200
    return render(request, template, {"session": session, "refusal": refusal}, status=status)


@require_http_methods(["GET", "POST"])
def session_cancel(request, pk):
    session = selectors.access_session(user=request.user, pk=pk)
    refused = _refused_change(request, session, "cancel", "coaching/session_cancel.html")
    if refused:
        return refused
    form = CancelForm(request.POST or None)
    if request.method == "POST":
        ok, _ = submit(
            form,
            lambda data: services.session_cancel(
                session=session, actor=request.user, reason=data["reason"], note=data["note"]
            ),
        )
        if ok:
            messages.success(request, "Session cancelled. The reason counts in the cadence health.")
            return _back_to_session(request, pk)
    return render(
        request,
        "coaching/session_cancel.html",
        {"session": session, "form": form, "slots": selectors.move_slots(session=session)},
        status=400 if request.method == "POST" else 200,
    )


@require_http_methods(["GET", "POST"])
def session_reschedule(request, pk):
    session = selectors.access_session(user=request.user, pk=pk)
    refused = _refused_change(request, session, "move", "coaching/session_reschedule.html")
    if refused:
        return refused
    form = RescheduleForm(
        request.POST or None,
        initial={
            "scheduled_start": session.scheduled_start,
            "duration_minutes": session.duration_minutes,
        },
    )
    if request.method == "POST":
        ok, _ = submit(
            form,
            lambda data: services.session_reschedule(
                session=session,
                actor=request.user,
                start=data["scheduled_start"],
                duration_minutes=data["duration_minutes"],
            ),
        )
        if ok:
            messages.success(request, "Session moved.")
            return _back_to_session(request, pk)
    return render(
        request,
        "coaching/session_reschedule.html",
        {"session": session, "form": form, "slots": selectors.move_slots(session=session)},
        status=400 if request.method == "POST" else 200,
    )


@require_POST
def call_review_scoring(request, pk):
    """Everyone in the review scores the presented call against the chosen scorecard."""
    session = selectors.access_session(user=request.user, pk=pk)
    raw = request.POST.get("template", "")
    offered = scorecard_selectors.offered_templates()
    template = offered.filter(pk=int(raw)).first() if raw.isdigit() else None
    try:
        if template is None:
            raise ValidationError("Pick a scorecard from the list.")
        scoring = services.call_review_scoring_open(
            session=session, actor=request.user, template=template
        )
    except (ValidationError, Forbidden) as exc:
        context = _page_context(request, pk, scoring_error=exc.messages)
        return render(request, "coaching/session_detail.html", context, status=400)
    return redirect("scorecards:round_detail", scoring.pk)


# --- Session usefulness ----------------------------------------------------------------


@require_POST
def session_rating(request, pk):
    """The coachee rates a held session (or changes their rating) while it is open.
    Someone else who can see the session gets 403 with the reason; bad input 400 with
    the form's message, nothing saved."""
    session = selectors.access_session(user=request.user, pk=pk)
    template = "coaching/_rating.html" if request.htmx else "coaching/session_detail.html"
    if not ratings.is_rater(session, request.user):
        context = _page_context(
            request, pk, rating_error="Only the person coached in this session can rate it."
        )
        return render(request, template, context, status=403)
    form = RatingForm(request.POST)
    status = 400
    ok, _ = submit(
        form,
        lambda data: services.session_rating_save(
            session=session, rater=request.user, score=data["score"], comment=data["comment"]
        ),
    )
    if ok:
        if not request.htmx:
            messages.success(request, "Your rating is saved — thank you.")
            return _back_to_session(request, pk, "#rating")
        status, form = 200, None
    context = _page_context(request, pk, **({"rating_form": form} if form is not None else {}))
    context["rating_saved"] = status == 200
    return render(request, template, context, status=status)
