"""What a person may *do* with feedback they can already see (visibility itself is
`Feedback.objects.visible_to` and `selectors.access_*`). Each `why_not_<verb>` gives
the reason a person reads, or None; `may_<verb>` is its yes/no. Pages ask them for
their buttons, the API and the services refuse with the same words (`Forbidden`).
Pure functions over what the page already read: no queries of their own."""

from .models import Feedback, FeedbackRequest

NOT_ASKED = "You were not asked for this feedback."


def _received(person, feedback: Feedback, doing: str) -> str | None:
    if feedback.recipient_id != person.pk:
        return f"Only the person who received it can {doing}."
    return None


def why_not_acknowledge(person, feedback: Feedback) -> str | None:
    return _received(person, feedback, "acknowledge it")


def may_acknowledge(person, feedback: Feedback) -> bool:
    return why_not_acknowledge(person, feedback) is None


def why_not_share(person, feedback: Feedback) -> str | None:
    return _received(person, feedback, "share it")


def may_share(person, feedback: Feedback) -> bool:
    return why_not_share(person, feedback) is None


def why_not_unshare(person, feedback: Feedback) -> str | None:
    return _received(person, feedback, "stop sharing it")


def is_asked(person, request: FeedbackRequest) -> bool:
    """Over the request's prefetched responders."""
    return any(row.responder_id == person.pk for row in request.responders.all())


def why_not_answer(person, request: FeedbackRequest) -> str | None:
    """Answer or decline: only those asked (whether they still can is the service's
    check of their answer's state, a 400)."""
    return None if is_asked(person, request) else NOT_ASKED


def may_answer(person, request: FeedbackRequest) -> bool:
    return why_not_answer(person, request) is None
