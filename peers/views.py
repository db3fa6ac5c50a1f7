"""Peer pairs in the browser: "Peers" (my pairs, asking for a peer, and "Form a pair"
— with who asked — for programme admins and leads), the pair page (members and their
acceptance, the agreement, the cadence, habits and check-ins, private notes,
leaving), and the programme admins' overview (every pair with the reasons people gave
for leaving — never the notes).

Refusals come back as 400 on the page they came from, with the reason."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from coaching.models import CoachingSession
from core.errors import Forbidden
from core.forms import submit
from core.paging import first_of, page_asked
from people.access import request_roles, role_required
from people.roles import Role

from . import rules, selectors, services
from . import services_requests as peer_requests
from .forms import (
    AgreementForm,
    CheckInForm,
    HabitForm,
    PairForm,
    PairNoteForm,
    PairOverviewForm,
    PeerRequestForm,
    StepOutForm,
)
from .models import PeerPair

ASKED_SHOWN = 20  # who asked for a peer, longest waiting first, on Form a pair


def _roles(request):
    return request_roles(request)


# --- Lists ---------------------------------------------------------------------------------


@require_GET
def pair_list(request):
    """My pairs: the ones waiting for my answer, forming, active, ended; and asking
    for a peer."""
    return _render_list(request)


def _render_list(request, *, ask_form=None, status=200):
    roles = _roles(request)
    may_form = rules.may_form_pairs(request.user, roles)
    mine = selectors.own_peer_request(user=request.user)
    if ask_form is None:
        initial = {"note": mine.note, "focus_area": mine.focus_area} if mine else {}
        ask_form = PeerRequestForm(initial=initial)
    asked = selectors.peer_requests_for(user=request.user, roles=roles) if may_form else None
    return render(
        request,
        "peers/pair_list.html",
        {
            "pairs": selectors.my_pairs(user=request.user),
            "may_form": may_form,
            "is_admin": selectors.is_programme_admin(request.user, roles),
            "my_request": mine,
            "ask_form": ask_form,
            "asked_count": asked.count() if asked is not None else 0,
        },
        status=status,
    )


@require_POST
def peer_request_set(request):
    """Ask for a peer, or change what you asked."""
    form = PeerRequestForm(request.POST)
    asked_before = selectors.own_peer_request(user=request.user) is not None
    ok, _ = submit(form, lambda data: peer_requests.peer_request_set(person=request.user, **data))
    if ok:
        messages.success(
            request,
            "Saved: whoever forms pairs for your team sees what you asked."
            if asked_before
            else "You asked for a peer. Whoever forms pairs for your team sees it; you "
            "will be asked to accept a pair's agreement as usual.",
        )
        return redirect("peers:pair_list")
    return _render_list(request, ask_form=form, status=400)


@require_POST
def peer_request_withdraw(request):
    if peer_requests.peer_request_withdraw(person=request.user):
        messages.success(request, "You are no longer asking for a peer.")
    return redirect("peers:pair_list")


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def pair_overview(request):
    """Every pair, for programme admins, 25 a page, all or in one state: status and
    the reasons people gave for leaving. The pairs' notes, habits and check-ins are
    not on it."""
    return _overview(request)


def _overview(request, *, error=None):
    """A state or page number that makes no sense is a 400 with the reason: a wrong
    state shows no pairs, a wrong page number the first page."""
    form = PairOverviewForm(request.GET)
    valid = form.is_valid()
    show = form.cleaned_data["show"] if valid else ""
    number, page_error = page_asked(request.GET.get("page"))
    context = {
        "form": form,
        "show": show,
        "choices": selectors.overview_choices(show),
        "page": selectors.pairs_overview(show=show, page_number=number) if valid else None,
        "page_error": page_error,
        "error": error,
    }
    status = 400 if error or page_error or not valid else 200
    return render(request, "peers/pair_overview.html", context, status=status)


# --- Forming a pair ---------------------------------------------------------------------------


def _focus_from(data):
    """The focus area whose scores to show: from the form or the query string."""
    return selectors.current_focus_area(data.get("focus_area"))


def _pair_form(request, data=None, focus_area=None):
    initial = {
        "agreement_text": services.agreement_template_text(),
        "focus_area": focus_area,
    }
    return PairForm(
        data, user=request.user, focus_area=focus_area, roles=_roles(request), initial=initial
    )


@require_http_methods(["GET", "POST"])
def pair_new(request):
    """Form a pair: people, why them, the focus, the cadence and the agreement. With
    a focus area picked, each person shows their latest coaches'-and-peers' average
    on it (as far as the person forming the pair may see scores)."""
    if not rules.may_form_pairs(request.user, _roles(request)):
        raise Http404
    if request.method == "GET":
        focus_area = _focus_from(request.GET)
        form = _pair_form(request, focus_area=focus_area)
        return _render_new(request, form, focus_area)
    focus_area = _focus_from(request.POST)
    form = _pair_form(request, request.POST, focus_area=focus_area)
    ok, pair = submit(
        form, lambda data: services.pair_create(actor=request.user, **_create_args(data))
    )
    if ok:
        messages.success(
            request, "Pair formed. Each member now reads the agreement and accepts it."
        )
        return redirect("peers:pair_detail", pk=pair.pk)
    return _render_new(request, form, focus_area, status=400)


def _create_args(data: dict) -> dict:
    return {
        "members": data["members"],
        "rationale": data["rationale"],
        "rationale_note": data["rationale_note"],
        "focus_area": data["focus_area"],
        "weekday": data["weekday"],
        "local_time": data["local_time"],
        "time_zone": data["time_zone"] or None,
        "interval_weeks": data["interval_weeks"],
        "duration_minutes": data["duration_minutes"],
        "agreement_text": data["agreement_text"],
    }


def _render_new(request, form, focus_area, status=200):
    asked = selectors.peer_requests_for(user=request.user, roles=_roles(request))
    return render(
        request,
        "peers/pair_new.html",
        {
            "form": form,
            "focus_area": focus_area,
            "focus_areas": list(selectors.current_focus_areas()),
            "asked": first_of(asked, ASKED_SHOWN),
        },
        status=status,
    )


# --- The pair page ------------------------------------------------------------------------------


def _render_pair(request, pair: PeerPair, *, status=200, error=None, **forms):
    page = selectors.pair_page(user=request.user, pair=pair)
    context = {
        "page": page,
        "pair": pair,
        "may_end_pair": rules.may_end_pair(request.user, pair, _roles(request)),
        "may_edit_agreement": rules.may_edit_agreement(request.user, pair),
        "error": error,
        "note_form": forms.get("note_form") or PairNoteForm(),
        "habit_form": forms.get("habit_form") or HabitForm(),
        "agreement_form": forms.get("agreement_form")
        or AgreementForm(initial={"agreement_text": pair.agreement_text}),
        "step_out_form": StepOutForm(),
        "check_in_form": CheckInForm(sessions=page.sessions, auto_id=False),
        "next_session": _next_session(pair),
    }
    return render(request, "peers/pair_detail.html", context, status=status)


def _next_session(pair: PeerPair):
    """From the annotation made when the pair was read (no query)."""
    if getattr(pair, "next_session_id", None) is None:
        return None
    return {"id": pair.next_session_id, "start": pair.next_session_start}


@require_GET
def pair_detail(request, pk):
    return _render_pair(request, selectors.access_pair(user=request.user, pk=pk))


def _act(request, pair, change, done, *, to_list=False):
    """Run a service; on a refusal, the pair page again with the reason (400)."""
    try:
        change()
    except (ValidationError, Forbidden) as exc:
        return _render_pair(request, pair, status=400, error=exc.messages)
    messages.success(request, done)
    if to_list:
        return redirect("peers:pair_list")
    return redirect("peers:pair_detail", pk=pair.pk)


@require_POST
def pair_accept(request, pk):
    pair = selectors.access_pair(user=request.user, pk=pk)
    return _act(
        request,
        pair,
        lambda: services.pair_accept(pair=pair, actor=request.user),
        "You accepted the agreement. The pair starts meeting once everyone has.",
    )


def _step_out(request, pk, service, done):
    pair = selectors.access_pair(user=request.user, pk=pk)
    form = StepOutForm(request.POST)
    if not form.is_valid():
        errors = [e for errs in form.errors.values() for e in errs]
        return _render_pair(request, pair, status=400, error=errors)
    reason = form.cleaned_data["reason"]
    return _act(
        request,
        pair,
        lambda: service(pair=pair, actor=request.user, reason=reason),
        done,
        to_list=True,
    )


@require_POST
def pair_decline(request, pk):
    return _step_out(
        request, pk, services.pair_decline, "You declined. Nobody in the pair is told why."
    )


@require_POST
def pair_leave(request, pk):
    return _step_out(
        request, pk, services.pair_leave, "You left the pair. Nobody in it is told why."
    )


@require_POST
def pair_end(request, pk):
    """Whoever formed the pair, from its page; a programme admin, from the overview."""
    if selectors.is_programme_admin(request.user, _roles(request)):
        pair = PeerPair.objects.filter(pk=pk).first()
        if pair is None:
            raise Http404
        try:
            services.pair_end(pair=pair, actor=request.user)
        except (ValidationError, Forbidden) as exc:
            return _overview(request, error=exc.messages)
        messages.success(request, "The pair has ended. Its held sessions stay as history.")
        if pair.created_by_id == request.user.pk:
            return redirect("peers:pair_detail", pk=pair.pk)
        return redirect("peers:pair_overview")
    pair = selectors.access_pair(user=request.user, pk=pk)
    return _act(
        request,
        pair,
        lambda: services.pair_end(pair=pair, actor=request.user),
        "The pair has ended. Its held sessions stay as history.",
    )


@require_POST
def pair_agreement(request, pk):
    pair = selectors.access_pair(user=request.user, pk=pk)
    form = AgreementForm(request.POST)
    ok, _ = submit(
        form,
        lambda data: services.pair_agreement_update(
            pair=pair, actor=request.user, text=data["agreement_text"]
        ),
    )
    if ok:
        messages.success(request, "Agreement saved.")
        return redirect("peers:pair_detail", pk=pair.pk)
    errors = [e for errs in form.errors.values() for e in errs]
    return _render_pair(request, pair, status=400, error=errors, agreement_form=form)


@require_POST
def pair_note_add(request, pk):
    pair = selectors.access_pair(user=request.user, pk=pk)
    form = PairNoteForm(request.POST)
    ok, _ = submit(
        form, lambda data: services.pair_note_add(pair=pair, actor=request.user, text=data["text"])
    )
    if ok:
        return redirect(reverse("peers:pair_detail", args=[pair.pk]) + "#notes-heading")
    errors = [e for errs in form.errors.values() for e in errs]
    return _render_pair(request, pair, status=400, error=errors, note_form=form)


@require_POST
def pair_habit_add(request, pk):
    pair = selectors.access_pair(user=request.user, pk=pk)
    form = HabitForm(request.POST)
    ok, _ = submit(
        form, lambda data: services.habit_add(pair=pair, actor=request.user, text=data["text"])
    )
    if ok:
        messages.success(request, "Habit added. Your partner checks it in at your sessions.")
        return redirect(reverse("peers:pair_detail", args=[pair.pk]) + "#habits-heading")
    errors = [e for errs in form.errors.values() for e in errs]
    return _render_pair(request, pair, status=400, error=errors, habit_form=form)


def _habit_and_pair(request, pk):
    habit = selectors.access_habit(user=request.user, pk=pk)
    return habit, selectors.access_pair(user=request.user, pk=habit.pair_id)


@require_POST
def habit_retire(request, pk):
    habit, pair = _habit_and_pair(request, pk)
    return _act(
        request,
        pair,
        lambda: services.habit_retire(habit=habit, actor=request.user),
        "Habit retired.",
    )


@require_POST
def habit_check_in(request, pk):
    habit, pair = _habit_and_pair(request, pk)
    form = CheckInForm(request.POST)
    if not form.is_valid():
        errors = [e for errs in form.errors.values() for e in errs]
        return _render_pair(request, pair, status=400, error=errors)
    data = form.cleaned_data
    session: CoachingSession | None = data["session"]
    return _act(
        request,
        pair,
        lambda: services.habit_check_in(
            habit=habit,
            actor=request.user,
            outcome=data["outcome"],
            note=data["note"],
            session=session,
        ),
        "Checked in. Progress, not perfection.",
    )
