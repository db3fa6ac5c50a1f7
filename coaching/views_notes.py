"""The session page's notes as they are typed: what an autosave is answered (JSON, for
static/js/notes-autosave.js) and the poll that brings the other person's words, who
wrote each field last and who is writing where. Private notes answer their author
only, and nothing about them ever reaches the poll."""

from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.views.decorators.http import require_GET

from core.errors import Forbidden

from . import presence, selectors, services
from .selectors_notes import clock, notes_state


def is_autosave(request) -> bool:
    return request.headers.get("X-Autosave") == "1"


def _refused(exc: ValidationError | Forbidden) -> JsonResponse:
    """403 for what this person may not do here, 400 for what they typed."""
    status = 403 if isinstance(exc, Forbidden) else 400
    return JsonResponse({"errors": exc.messages}, status=status)


def _form_errors(form) -> JsonResponse:
    errors = {
        name: [e["message"] for e in found] for name, found in form.errors.get_json_data().items()
    }
    return JsonResponse({"errors": errors}, status=400)


def notes_autosave(request, session, form) -> JsonResponse:
    """200 with the notes saved now; 409 with them and, per field both people
    changed, both texts (`conflicts`); 400 with what was wrong, nothing saved."""
    if not form.is_valid():
        return _form_errors(form)
    conflicts, status = {}, 200
    try:
        services.notes_save(
            session=session,
            actor=request.user,
            base_version=form.cleaned_data["version"],
            changes=form.changes(),
        )
    except services.StaleEdit as stale:
        conflicts, status = stale.conflicts, 409
    except (ValidationError, Forbidden) as exc:
        return _refused(exc)
    state = notes_state(
        session=selectors.access_session(user=request.user, pk=session.pk), viewer=request.user
    )
    written = state["written"]
    state["conflicts"] = {
        name: {**texts, "by": written.get(name, {}).get("by", "")}
        for name, texts in conflicts.items()
    }
    return JsonResponse(state, status=status)


def private_autosave(request, session, form) -> JsonResponse:
    if not form.is_valid():
        return _form_errors(form)
    try:
        note = services.private_note_save(
            session=session,
            author=request.user,
            text=form.cleaned_data["text"],
            base_version=form.cleaned_data["version"],
        )
    except services.StaleEdit as stale:
        # Saved from another tab of the same person: their own words, never anyone else's.
        return JsonResponse({"version": stale.version, "saved": stale.current["text"]}, status=409)
    except (ValidationError, Forbidden) as exc:
        return _refused(exc)
    return JsonResponse({"version": note.version, "saved_at": clock(note.updated_at)})


@require_GET
def notes_live(request, pk):
    """The poll (every few seconds while the page is open): the shared notes as saved
    now. `?writing=<field>` says the poller is writing in that shared field."""
    session = selectors.access_session(user=request.user, pk=pk)
    writing = request.GET.get("writing")
    if writing is not None:
        try:
            presence.mark_writing(session=session, person=request.user, field=writing)
        except (ValidationError, Forbidden) as exc:
            return _refused(exc)
    return JsonResponse(notes_state(session=session, viewer=request.user))
