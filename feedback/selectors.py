"""Reads with rules. `access_feedback` is the only way to open one item: 404 for what
the reader may not see, an audit event for every evaluative read by someone else, and
the author hidden where the item is anonymous."""

from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import Http404

from people.models import User
from people.roles import Role

from . import services
from .models import (
    Feedback,
    FeedbackRequest,
    FeedbackShare,
    RequestedResponder,
    ResponderStatus,
    Stream,
)


def _is_hr(roles) -> bool:
    return Role.HR in roles


def held_back_for_others(user: User) -> Q:
    """Anonymous answers to a request that has not yet had enough answers: nobody but
    their author sees them — not the requester, nor the requester's managers or HR,
    who could otherwise watch them arrive one by one and tell who wrote which."""
    waiting_for_more = (
        FeedbackRequest.objects.filter(anonymous=True)
        .annotate(
            answered=Count("responders", filter=Q(responders__status=ResponderStatus.ANSWERED))
        )
        .filter(answered__lt=services.ANONYMITY_THRESHOLD)
        .values("pk")
    )
    return Q(anonymous=True, request__in=waiting_for_more) & ~Q(author=user)


def visible_feedback(*, user: User, roles) -> QuerySet[Feedback]:
    """What this person may read: `visible_to`, less anonymous answers held back."""
    return Feedback.objects.visible_to(user, is_hr=_is_hr(roles)).exclude(
        held_back_for_others(user)
    )


def given_by(*, user: User) -> QuerySet[Feedback]:
    return Feedback.objects.filter(author=user).select_related("recipient")


def access_feedback(*, user: User, roles, pk: int, ip: str | None = None) -> Feedback:
    try:
        item = (
            visible_feedback(user=user, roles=roles)
            .select_related("author", "recipient")
            .get(pk=pk)
        )
    except Feedback.DoesNotExist:
        raise Http404 from None
    services.evaluative_read_record(feedback=item, reader=user, ip=ip)
    return item


def author_shown(item: Feedback, viewer: User):
    """The author as the viewer may know them: hidden from everyone but the author
    when the item is anonymous."""
    if item.anonymous and viewer.pk != item.author_id:
        return None
    return item.author


def anonymous_answers_may_show(request: FeedbackRequest | None) -> bool:
    """Anonymous answers appear only once enough of them arrived."""
    if request is None or not request.anonymous:
        return True
    answered = request.responders.filter(status=ResponderStatus.ANSWERED).count()
    return answered >= services.ANONYMITY_THRESHOLD


def my_feedback(*, user: User, stream: str) -> QuerySet[Feedback]:
    """What I received in one stream, with themes and live shares (fixed queries).
    Anonymous answers still below the threshold are held back."""
    return (
        Feedback.objects.filter(recipient=user, stream=stream)
        .exclude(held_back_for_others(user))
        .select_related("author")
        .prefetch_related(
            "themes",
            Prefetch(
                "shares",
                queryset=FeedbackShare.objects.filter(revoked_at__isnull=True).select_related(
                    "person"
                ),
                to_attr="live_shares",
            ),
        )
    )


def shared_with_me(*, user: User) -> QuerySet[Feedback]:
    return (
        Feedback.objects.filter(
            stream=Stream.DEVELOPMENTAL,
            shares__person=user,
            shares__revoked_at__isnull=True,
        )
        .select_related("recipient", "author")
        .distinct()
    )


def my_requests(*, user: User) -> QuerySet[FeedbackRequest]:
    """What I asked, with each responder (for the status per person)."""
    return FeedbackRequest.objects.filter(requester=user).prefetch_related(
        Prefetch(
            "responders",
            queryset=RequestedResponder.objects.select_related("responder").order_by(
                "responder__display_name"
            ),
        )
    )


def inbox(*, user: User) -> QuerySet[RequestedResponder]:
    """Requests waiting on me, soonest due first."""
    return (
        RequestedResponder.objects.filter(responder=user, status=ResponderStatus.WAITING)
        .select_related("request", "request__requester")
        .order_by("request__due_on", "pk")
    )


def access_request(*, user: User, pk: int) -> FeedbackRequest:
    try:
        return (
            FeedbackRequest.objects.visible_to(user)
            .select_related("requester")
            .prefetch_related(
                Prefetch(
                    "responders", queryset=RequestedResponder.objects.select_related("responder")
                )
            )
            .get(pk=pk)
        )
    except FeedbackRequest.DoesNotExist:
        raise Http404 from None
