"""Feedback pages. Each view parses input, calls one service or selector, renders.

Visibility is never decided here: items are opened through `selectors.access_feedback`
(404 for what the reader may not see, an audit event for every evaluative read by
someone else), requests through `selectors.access_request`, lists through the
selectors and `visible_to`. Every page says which stream the person is in.

In-place actions (acknowledge, share, stop sharing, the literacy check, the stream
banner on the forms) answer htmx with a fragment; without JS the same forms post
normally and redirect. Refusals are 400 with the reason on the form, nothing saved."""

from datetime import timedelta

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import Forbidden
from core.forms import submit
from core.paging import first_of, page_asked
from people.access import request_roles, role_required

from . import evaluations, rules, selectors, services
from .forms import (
    AcknowledgeForm,
    AnswerForm,
    GiveForm,
    RequestForm,
    ReviewFilterForm,
    ShareForm,
    UnshareForm,
    WinForm,
    chosen_stream,
)
from .models import (
    TEXT_LIMIT,
    Direction,
    FeedbackRequest,
    ResponderStatus,
    Stream,
    Win,
)

# "Patterns" compares the last quarter with everything before it.
RECENT_DAYS = 90
WINS_SHOWN = 50


def _ip(request) -> str | None:
    return request.META.get("REMOTE_ADDR")


def _stream_param(request) -> str:
    value = request.GET.get("stream", "")
    return value if value in Stream.values else Stream.DEVELOPMENTAL


def _by_stream(rows, stream_of) -> list[dict]:
    """Both streams, each with its rows: pages that list both keep them apart."""
    return [
        {"stream": stream, "label": label, "rows": [r for r in rows if stream_of(r) == stream]}
        for stream, label in (
            (Stream.DEVELOPMENTAL, "Developmental"),
            (Stream.EVALUATIVE, "Evaluative"),
        )
    ]


def _with_author(items, viewer):
    """The author as this viewer may know them (None when anonymous to them)."""
    for item in items:
        item.shown_author = selectors.author_shown(item, viewer)
    return items


def _banner_only(request) -> bool:
    return bool(request.htmx) and request.htmx.target == "stream-banner"


def _render_banner(request):
    return render(
        request,
        "feedback/_stream_banner.html",
        {"stream": _stream_param(request), "banner_id": "stream-banner"},
    )


# --- What I received, what I gave, what was shared with me -----------------------------

# Someone two years in has received hundreds of items (580 at 10,000 people: 385 KB).
RECEIVED_PER_PAGE = 50
GIVEN_PER_PAGE = 50


@require_GET
def feedback_mine(request):
    """What I received in one stream, newest first, a page at a time; `?goal=` narrows
    it to one of my goals. The patterns and goal counts are over everything received,
    not the page. A bad `goal` or `page` is a 400 saying so, the list shown anyway."""
    stream = _stream_param(request)
    received = selectors.my_feedback(user=request.user, stream=stream)
    goal, status, errors = None, 200, []
    if "goal" in request.GET:
        goal = selectors.own_goal(user=request.user, raw=request.GET["goal"])
        if goal is None:
            status = 400
            errors.append("No such goal among yours: showing everything.")
        else:
            received = received.filter(goal=goal)
    number, page_error = page_asked(request.GET.get("page"))
    if page_error:
        status = 400
        errors.append(page_error)
    page = Paginator(received, RECEIVED_PER_PAGE).get_page(number)
    since = timezone.now() - timedelta(days=RECENT_DAYS)
    return render(
        request,
        "feedback/mine.html",
        {
            "stream": stream,
            "streams": Stream,
            "page": page,
            "items": _with_author(list(page.object_list), request.user),
            "patterns": selectors.theme_patterns(received, since=since),
            "goal_counts": selectors.goal_counts(received),
            "goals": selectors.own_goals(user=request.user),
            "goal": goal,
            "errors": errors,
            "recent_days": RECENT_DAYS,
        },
        status=status,
    )


@require_GET
def feedback_given(request):
    """What I gave in one stream, newest first, a page at a time (the most prolific
    author at 10,000 people has given 1,438 items). A bad `page` is a 400 saying so."""
    stream = _stream_param(request)
    number, page_error = page_asked(request.GET.get("page"))
    page = Paginator(
        selectors.given_by(user=request.user).filter(stream=stream), GIVEN_PER_PAGE
    ).get_page(number)
    return render(
        request,
        "feedback/given.html",
        {"stream": stream, "page": page, "items": list(page.object_list), "error": page_error},
        status=400 if page_error else 200,
    )


@require_GET
def feedback_shared(request):
    items = _with_author(list(selectors.shared_with_me(user=request.user)), request.user)
    return render(request, "feedback/shared.html", {"items": items, "stream": Stream.DEVELOPMENTAL})


# --- Giving ------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def feedback_give(request):
    if request.method == "GET":
        if _banner_only(request):
            return _render_banner(request)
        initial = {"stream": _stream_param(request)}
        if request.GET.get("to", "").isdigit():
            initial["recipient"] = request.GET["to"]
        form = GiveForm(initial=initial, user=request.user)
        return _render_give(request, form)
    form = GiveForm(request.POST, user=request.user)
    ok, item = submit(
        form,
        lambda data: services.feedback_give(
            author=request.user,
            recipient=data["recipient"],
            stream=data["stream"],
            observation=data["observation"],
            impact=data["impact"],
            suggestion=data["suggestion"],
        ),
    )
    if ok:
        messages.success(
            request,
            f"Sent to {item.recipient.display_name}, in the {item.get_stream_display()} stream.",
        )
        return redirect(f"{reverse('feedback:feedback_given')}?stream={item.stream}")
    return _render_give(request, form, status=400)


def _render_give(request, form, status=200):
    hints = []
    if form.is_bound:
        hints = services.literacy_hints(form["observation"].value() or "")
    return render(
        request,
        "feedback/give.html",
        {"form": form, "stream": chosen_stream(form), "hints": hints, "checked": bool(hints)},
        status=status,
    )


@require_POST
def feedback_check(request):
    """The literacy check behind the "What happened" box: advice, never a block."""
    text = request.POST.get("observation", "")[: TEXT_LIMIT * 2]
    return render(
        request,
        "feedback/_literacy_hints.html",
        {"hints": services.literacy_hints(text), "checked": bool(text.strip())},
    )


# --- One item ------------------------------------------------------------------------------


def _open(request, pk):
    return selectors.access_feedback(
        user=request.user, roles=request_roles(request), pk=pk, ip=_ip(request)
    )


def _received(request, pk):
    """An item the signed-in person received, with its themes and live shares; 404
    for everyone else (they have no acknowledge or share form to post)."""
    item = _open(request, pk)
    if not rules.may_acknowledge(request.user, item):
        raise Http404
    return selectors.my_feedback(user=request.user, stream=item.stream).get(pk=item.pk)


def _detail_context(request, item, *, ack_form=None, share_form=None, **extra):
    mine = rules.may_acknowledge(request.user, item)  # and share: the recipient's forms
    context = {
        "item": item,
        "stream": item.stream,
        "author": selectors.author_shown(item, request.user),
        "is_recipient": mine,
    }
    if mine:
        themes = [t.name for t in item.themes.all()]
        context["themes"] = themes
        context["ack_form"] = ack_form or AcknowledgeForm(
            initial={
                "reflection": item.reflection,
                "themes": ", ".join(themes),
                "goal": item.goal_id,
            },
            user=request.user,
            linked=item.goal,
        )
        if item.stream == Stream.DEVELOPMENTAL:
            shared_with = [share.person for share in item.live_shares]
            context["shared_with"] = shared_with
            context["share_form"] = share_form or ShareForm(feedback=item, shared_with=shared_with)
    context.update(extra)
    return context


@require_GET
def feedback_detail(request, pk):
    item = _open(request, pk)
    if item.recipient_id == request.user.pk:
        item = selectors.my_feedback(user=request.user, stream=item.stream).get(pk=item.pk)
    return render(request, "feedback/detail.html", _detail_context(request, item))


def _fragment_or_page(request, item, fragment, status, **extra):
    if not request.htmx and status == 200:
        return redirect("feedback:feedback_detail", item.ref)
    item = selectors.my_feedback(user=request.user, stream=item.stream).get(pk=item.pk)
    context = _detail_context(request, item, **extra)
    template = fragment if request.htmx else "feedback/detail.html"
    return render(request, template, context, status=status)


@require_POST
def feedback_acknowledge(request, pk):
    item = _received(request, pk)
    form = AcknowledgeForm(request.POST, user=request.user, linked=item.goal)
    status = 400
    ok, _ = submit(
        form,
        lambda data: services.feedback_acknowledge(
            feedback=item,
            actor=request.user,
            reflection=data["reflection"],
            themes=data["themes"],
            goal=data["goal"],
        ),
    )
    if ok:
        status, form = 200, None
        if not request.htmx:
            messages.success(request, "Thank you — noted. Take your time to think about it.")
    return _fragment_or_page(
        request, item, "feedback/_acknowledge.html", status, ack_form=form, ack_saved=status == 200
    )


@require_POST
def feedback_share(request, pk):
    item = _received(request, pk)
    if item.stream != Stream.DEVELOPMENTAL:
        raise Http404  # evaluative items have no share form
    form = ShareForm(
        request.POST, feedback=item, shared_with=[share.person for share in item.live_shares]
    )
    status = 400
    ok, _ = submit(
        form,
        lambda data: services.feedback_share(
            feedback=item, actor=request.user, person=data["person"]
        ),
    )
    if ok:
        if not request.htmx:
            messages.success(request, f"Shared with {form.cleaned_data['person'].display_name}.")
        status, form = 200, None
    return _fragment_or_page(request, item, "feedback/_sharing.html", status, share_form=form)


@require_POST
def feedback_unshare(request, pk):
    item = _received(request, pk)
    if item.stream != Stream.DEVELOPMENTAL:
        raise Http404
    form = UnshareForm(request.POST)
    if not form.is_valid():
        errors = [e for errs in form.errors.values() for e in errs]
        return _fragment_or_page(request, item, "feedback/_sharing.html", 400, share_error=errors)
    person = form.cleaned_data["person"]
    services.feedback_share_revoke(feedback=item, actor=request.user, person=person)
    if not request.htmx:
        messages.success(request, f"No longer shared with {person.display_name}.")
    return _fragment_or_page(request, item, "feedback/_sharing.html", 200)


# --- Requests ------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def feedback_request_new(request):
    if request.method == "GET":
        if _banner_only(request):
            return _render_banner(request)
        form = RequestForm(initial={"stream": _stream_param(request)}, user=request.user)
        return _render_request_new(request, form)
    form = RequestForm(request.POST, user=request.user)
    ok, asked = submit(
        form,
        lambda data: services.feedback_request_create(
            requester=request.user,
            responders=list(data["responders"]),
            due_on=data["due_on"],
            question=data["question"],
            stream=data["stream"],
            topic=data["topic"],
            goal=data["goal"],
            focus_area=data["focus_area"],
            anonymous=data["anonymous"],
        ),
    )
    if ok:
        count = len(form.cleaned_data["responders"])
        messages.success(request, f"Asked {count} {'person' if count == 1 else 'people'}.")
        return redirect("feedback:feedback_request_detail", asked.pk)
    return _render_request_new(request, form, status=400)


def _render_request_new(request, form, status=200):
    return render(
        request,
        "feedback/request_new.html",
        {"form": form, "stream": chosen_stream(form)},
        status=status,
    )


@require_GET
def feedback_requests(request):
    mine = list(selectors.my_requests(user=request.user))
    for asked in mine:
        _tally(asked)
    return render(
        request,
        "feedback/requests.html",
        {"sections": _by_stream(mine, lambda r: r.stream)},
    )


def _tally(asked: FeedbackRequest) -> None:
    """How many answered, declined and wait — on an anonymous request only whether
    enough answered (`selectors.answered_band`): a count climbing one by one would
    let the requester match answers to people."""
    statuses = [r.status for r in asked.responders.all()]
    if asked.anonymous:
        asked.answered_band = selectors.answered_band(statuses.count(ResponderStatus.ANSWERED))
        return
    asked.answered = statuses.count(ResponderStatus.ANSWERED)
    asked.declined = statuses.count(ResponderStatus.DECLINED)
    asked.waiting = statuses.count(ResponderStatus.WAITING)


def _request_context(request, asked, *, answer_form=None, **extra):
    user = request.user
    mine = next((r for r in asked.responders.all() if r.responder_id == user.pk), None)
    context = {
        "req": asked,
        "stream": asked.stream,
        "is_requester": asked.requester_id == user.pk,
        "mine": mine,
        "threshold": services.ANONYMITY_THRESHOLD,
    }
    if mine is not None and mine.status == ResponderStatus.WAITING:
        if asked.anonymous and services.request_closed(asked):
            context["closed_to_answers"] = services.closed_to_answers(asked)
        else:
            context["answer_form"] = answer_form or AnswerForm()
    if context["is_requester"]:
        _tally(asked)
        context["held_back"] = not selectors.anonymous_answers_may_show(asked)
        answers = selectors.answers_to(user=user, request=asked).prefetch_related(None)
        context["answers"] = _with_author(list(answers), user)
    context.update(extra)
    return context


@require_GET
def feedback_request_detail(request, pk):
    asked = selectors.access_request(user=request.user, pk=pk)
    return render(request, "feedback/request_detail.html", _request_context(request, asked))


def _asked_of_me(request, pk):
    asked = selectors.access_request(user=request.user, pk=pk)
    if not rules.may_answer(request.user, asked):
        raise Http404  # the requester has nothing to answer or decline
    return asked


@require_POST
def feedback_request_answer(request, pk):
    asked = _asked_of_me(request, pk)
    form = AnswerForm(request.POST)
    ok, _ = submit(
        form,
        lambda data: services.feedback_request_answer(
            request=asked,
            responder=request.user,
            observation=data["observation"],
            impact=data["impact"],
            suggestion=data["suggestion"],
        ),
    )
    if ok:
        messages.success(
            request, f"Thank you — your answer reached {asked.requester.display_name}."
        )
        return redirect("feedback:feedback_inbox")
    # Re-read so the page shows the state as it is now (e.g. already answered).
    asked = selectors.access_request(user=request.user, pk=pk)
    context = _request_context(request, asked, answer_form=form)
    if "answer_form" not in context:
        context["answer_errors"] = form.non_field_errors()
    return render(request, "feedback/request_detail.html", context, status=400)


@require_POST
def feedback_request_decline(request, pk):
    asked = _asked_of_me(request, pk)
    try:
        services.feedback_request_decline(request=asked, responder=request.user)
    except (ValidationError, Forbidden) as exc:
        context = _request_context(request, asked, decline_errors=exc.messages)
        return render(request, "feedback/request_detail.html", context, status=400)
    messages.success(request, f"Declined. {asked.requester.display_name} will see that.")
    return redirect("feedback:feedback_inbox")


@require_GET
def feedback_inbox(request):
    waiting = list(selectors.feedback_inbox(user=request.user))
    today = timezone.localdate()
    for asked in waiting:
        asked.overdue = asked.request.due_on < today
    return render(
        request,
        "feedback/inbox.html",
        {"sections": _by_stream(waiting, lambda r: r.request.stream), "total": len(waiting)},
    )


# --- Wins ------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def wins(request):
    form = WinForm(request.POST or None, user=request.user)
    if request.method == "POST":
        ok, _ = submit(
            form,
            lambda data: services.win_share(
                author=request.user,
                team=data["team"],
                title=data["title"],
                link=data["link"],
                text=data["text"],
            ),
        )
        if ok:
            messages.success(request, f"Shared with {form.cleaned_data['team'].name}.")
            return redirect("feedback:wins")
    shown = first_of(
        Win.objects.visible_to(request.user).select_related("author", "team"), WINS_SHOWN
    )
    return render(
        request,
        "feedback/wins.html",
        {"wins": shown, "form": form, "has_teams": form.fields["team"].queryset.exists()},
        status=400 if request.method == "POST" else 200,
    )


# --- Evaluation: evaluative feedback about my people ------------------------------------------


# Direction as seen from the person the feedback is about.
DIRECTION_ABOUT = {
    Direction.DOWNWARD: "from a manager above them",
    Direction.UPWARD: "from someone they manage",
    Direction.PEER: "from a peer",
    Direction.SELF: "their self-assessment",
}


def _as_reviewed(items, viewer):
    for item in _with_author(items, viewer):
        item.direction_about = DIRECTION_ABOUT.get(item.direction, item.direction)
    return items


def _review_filter_form(request) -> ReviewFilterForm:
    return ReviewFilterForm(request.GET, user=request.user, roles=request_roles(request))


def _render_reviews(request, form, page=None, items=(), status=200):
    return render(
        request,
        "feedback/reviews.html",
        {
            "form": form,
            "page": page,
            "items": _as_reviewed(items, request.user),
            "stream": Stream.EVALUATIVE,
            "everyone": selectors.reviews_everyone(request_roles(request)),
        },
        status=status,
    )


@require_GET
@role_required(*selectors.REVIEWER_ROLES)
def feedback_reviews(request):
    """The evaluation screen: built on `selectors.evaluative_reviews` (the evaluative
    stream only); every item shown is an audited read. Bad filters: 400, nothing
    shown and nothing written."""
    form = _review_filter_form(request)
    if not form.is_valid():
        return _render_reviews(request, form, status=400)
    page = selectors.evaluative_reviews_page(
        user=request.user,
        roles=request_roles(request),
        filters=form.filters(),
        page_number=form.page_number(),
    )
    items = list(page.object_list)
    services.evaluative_reads_record(items=items, reader=request.user, ip=_ip(request))
    return _render_reviews(request, form, page, items)


@require_GET
@role_required(*selectors.REVIEWER_ROLES)
def feedback_reviews_export(request):
    """The same items as a CSV, every page at once; the export and each item are
    audited before the file is handed out."""
    form = _review_filter_form(request)
    if not form.is_valid():
        return _render_reviews(request, form, status=400)
    items = evaluations.evaluative_export(
        reader=request.user, roles=request_roles(request), filters=form.filters(), ip=_ip(request)
    )
    response = HttpResponse(
        evaluations.evaluative_csv(items=items, reader=request.user),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{evaluations.export_filename(request.user)}"'
    )
    return response
