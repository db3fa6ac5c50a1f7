"""Reads with rules. `access_feedback` is the only way to open one item: 404 for what
the reader may not see, an audit event for every evaluative read by someone else, and
the author hidden where the item is anonymous.

Evaluation screens, review exports and HR views start from `evaluative_reviews`, which
is built on `Feedback.evaluative` alone: it cannot return developmental feedback."""

import uuid
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, F, Max, OuterRef, Prefetch, Q, QuerySet
from django.http import Http404

from coaching.models import Goal
from core.queries import in_order
from people.models import User
from people.roles import Role
from people.selectors import people_below

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


def responders_in_order():
    """The people asked, by name: never in the order the database keeps them, which
    follows who answered (an answered row is written again) and would tell, on an
    anonymous request, who answered."""
    return RequestedResponder.objects.select_related("responder").order_by(
        "responder__display_name", "pk"
    )


def held_back_for_others(user: User) -> Q:
    """Anonymous answers not yet released: nobody but their author sees them — not the
    requester, nor the requester's managers or HR, who could otherwise watch them
    arrive one by one and tell who wrote which. The rule is `_answers_released`'s."""
    # The item's own request only, tested last (after the cheap columns): a list of
    # every such request in the organisation was read each time and turned PostgreSQL
    # to scanning the whole feedback table around it.
    not_released = (
        FeedbackRequest.objects.filter(pk=OuterRef("request_id"), anonymous=True)
        .annotate(
            answered=Count("responders", filter=Q(responders__status=ResponderStatus.ANSWERED)),
            waiting=Count("responders", filter=Q(responders__status=ResponderStatus.WAITING)),
        )
        .filter(
            Q(answered__lt=services.ANONYMITY_THRESHOLD)
            | Q(waiting__gt=0, due_on__gte=services.earliest_open_due_date())
        )
    )
    return Q(anonymous=True) & ~Q(author=user) & Exists(not_released)


def _answers_released(*, answered: int, waiting: int, due_on: date) -> bool:
    """The one release rule, as `held_back_for_others` writes it in SQL: an anonymous
    request's answers appear when at least the threshold answered AND the request is
    over — it closed (`services.request_closed`) or nobody asked is still waiting.
    Then all of them come out together; none can follow, since a closed anonymous
    request takes no answers and one nobody waits on has no one left to answer. So
    no answer ever appears on its own."""
    over = waiting == 0 or due_on < services.earliest_open_due_date()
    return answered >= services.ANONYMITY_THRESHOLD and over


def visible_feedback(
    *, user: User, roles, within: Q | None = None, each_row: bool = False
) -> QuerySet[Feedback]:
    """What this person may read: `visible_to` (in either shape, narrowed `within`),
    less anonymous answers held back."""
    rule = Feedback.objects.visible_to(user, is_hr=_is_hr(roles), within=within, each_row=each_row)
    return rule.exclude(held_back_for_others(user))


def listed_feedback(
    *, user: User, roles, stream: str | None = None, received: bool = False, given: bool = False
) -> QuerySet[Feedback]:
    """`visible_feedback` narrowed to a stream, to what `user` received and/or what they
    gave. The filters narrow each part of the rule before its ids are gathered (a
    stream leaves out the other's parts); "to me" and "by me" narrow the list by an
    index to a few rows, so there the rule is tested on each of them instead."""
    within = Q()
    if stream is not None:
        within &= Q(stream=stream)
    if received:
        within &= Q(recipient=user)
    if given:
        within &= Q(author=user)
    return visible_feedback(user=user, roles=roles, within=within, each_row=received or given)


def developmental_since(*, viewer: User, recipient: User, since: datetime, until: datetime) -> int:
    """How many developmental items `recipient` received in [since, until) that `viewer`
    may read and did not write — beside a 1:1 (coaching/since_last.py): for the coachee,
    all theirs but anonymous answers still held back; for the coach, what the coachee
    shared with them. One query, the rule tested on the recipient's few items."""
    within = Q(
        stream=Stream.DEVELOPMENTAL,
        recipient=recipient,
        created_at__gte=since,
        created_at__lt=until,
    ) & ~Q(author=viewer)
    return visible_feedback(user=viewer, roles=(), within=within, each_row=True).count()


def given_by(*, user: User) -> QuerySet[Feedback]:
    return Feedback.objects.filter(author=user).select_related("recipient")


def by_ref(ref) -> Q:
    """The item a path or a form names: an anonymous answer by its public id only (its
    number is never an address, so trying numbers finds nothing), anything else by its
    number. Whatever is not one of those matches nothing."""
    text = str(ref)
    if text.isdigit():
        return Q(pk=int(text), public_id__isnull=True)
    try:
        return Q(public_id=uuid.UUID(text), anonymous=True)
    except ValueError:
        return Q(pk__in=[])


def access_feedback(*, user: User, roles, pk, ip: str | None = None) -> Feedback:
    """One item by its `Feedback.ref` (`pk`, as paths name it)."""
    try:
        item = (
            visible_feedback(user=user, roles=roles)
            .select_related("author", "recipient")
            .get(by_ref(pk))
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
    """Whether `_answers_released` lets this request's anonymous answers show (its
    responders read from a prefetch where there is one)."""
    if request is None or not request.anonymous:
        return True
    statuses = [row.status for row in request.responders.all()]
    return _answers_released(
        answered=statuses.count(ResponderStatus.ANSWERED),
        waiting=statuses.count(ResponderStatus.WAITING),
        due_on=request.due_on,
    )


def answered_band(answered: int) -> str:
    """All anyone but the people asked learns of how many answered an anonymous
    request: below the threshold or not. A live count climbing one by one would let
    the requester match each answer to whoever they saw busy at the time."""
    threshold = services.ANONYMITY_THRESHOLD
    return f"{threshold} or more" if answered >= threshold else f"fewer than {threshold}"


def answers_to(*, user: User, request: FeedbackRequest) -> QuerySet[Feedback]:
    """The answers to the requester's own request that they may read, in the order
    they are shown: anonymous ones all at once (held back until released) and
    shuffled — by their random public id, never by when they came."""
    answers = my_feedback(user=user, stream=request.stream).filter(request=request)
    if request.anonymous:
        answers = answers.order_by("public_id")
    return answers


def my_feedback(*, user: User, stream: str) -> QuerySet[Feedback]:
    """What I received in one stream, with themes, live shares and the goal I linked
    (fixed queries). Anonymous answers not yet released are held back."""
    return (
        Feedback.objects.filter(recipient=user, stream=stream)
        .exclude(held_back_for_others(user))
        .select_related("author", "goal")
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


def theme_patterns(received: QuerySet[Feedback], *, since: datetime) -> list[dict]:
    """Theme counts over time over everything `received` holds (not one page of it):
    from `since` on, before it, and in all, most used first. One query."""
    rows = (
        received.prefetch_related(None)
        .order_by()
        .filter(themes__isnull=False)
        .values(theme=F("themes__name"))
        .annotate(
            recent=Count("pk", filter=Q(created_at__gte=since)),
            earlier=Count("pk", filter=Q(created_at__lt=since)),
        )
    )
    patterns = [{**row, "total": row["recent"] + row["earlier"]} for row in rows]
    return sorted(patterns, key=lambda r: (-r["total"], r["theme"]))


def goal_counts(received: QuerySet[Feedback]) -> list[dict]:
    """How many of `received` the recipient linked to each of their goals, most first.
    One query."""
    rows = (
        received.prefetch_related(None)
        .order_by()
        .filter(goal__isnull=False)
        .values("goal_id", "goal__title")
        .annotate(count=Count("pk"))
    )
    counts = [
        {"goal": {"pk": row["goal_id"], "title": row["goal__title"]}, "count": row["count"]}
        for row in rows
    ]
    return sorted(counts, key=lambda r: (-r["count"], r["goal"]["title"]))


def own_goal(*, user: User, raw: str) -> Goal | None:
    """One of this person's goals, by an id from a query string; None if it is not
    theirs, unknown or not a number."""
    if not raw.isdigit():
        return None
    return Goal.objects.filter(owner=user, pk=int(raw)).first()


def own_goals(*, user: User) -> list[Goal]:
    return list(Goal.objects.filter(owner=user).active_first())


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
    return (
        FeedbackRequest.objects.filter(requester=user)
        .select_related("goal", "focus_area")
        .prefetch_related(Prefetch("responders", queryset=responders_in_order()))
    )


def last_asked(*, user: User) -> datetime | None:
    """When `user` last asked anyone for feedback (one query, by the requester's
    index): My coaching nudges them to ask again."""
    return FeedbackRequest.objects.filter(requester=user).aggregate(last=Max("created_at"))["last"]


def feedback_inbox(*, user: User) -> QuerySet[RequestedResponder]:
    """Requests waiting on me, soonest due first — less anonymous ones that closed:
    they take no more answers (`services.feedback_request_answer`)."""
    closed_anonymous = Q(
        request__anonymous=True, request__due_on__lt=services.earliest_open_due_date()
    )
    return (
        RequestedResponder.objects.filter(responder=user, status=ResponderStatus.WAITING)
        .exclude(closed_anonymous)
        .select_related("request", "request__requester", "request__goal", "request__focus_area")
        .order_by("request__due_on", "pk")
    )


def access_request(*, user: User, pk: int) -> FeedbackRequest:
    try:
        return (
            FeedbackRequest.objects.visible_to(user)
            .select_related("requester", "goal", "focus_area")
            .prefetch_related(Prefetch("responders", queryset=responders_in_order()))
            .get(pk=pk)
        )
    except FeedbackRequest.DoesNotExist:
        raise Http404 from None


# --- Evaluation: evaluative feedback about the people a reader reviews ----------------------

REVIEWS_PER_PAGE = 50
REVIEWER_ROLES = (Role.HR, Role.MANAGER)


def may_review(roles) -> bool:
    """HR, and anyone with people reporting to them. Everyone else gets 404."""
    return bool(set(roles).intersection(REVIEWER_ROLES))


def reviews_everyone(roles) -> bool:
    """Whether this reader reviews the whole organisation (HR) rather than the chain
    below them: the pages say which."""
    return _is_hr(roles)


def reviewable_people(*, user: User, roles) -> QuerySet[User]:
    """Whose evaluative feedback this reader reviews: HR, everyone but themselves; a
    manager, the whole chain below them (people who left included: their record
    stays); anyone else, nobody."""
    if reviews_everyone(roles):
        return User.objects.exclude(pk=user.pk)
    if Role.MANAGER in roles:
        return people_below(person=user)
    return User.objects.none()


def reviewable_person(*, user: User, roles, pk: int) -> User | None:
    return reviewable_people(user=user, roles=roles).filter(pk=pk).first()


# Days outside this range are refused: they are typos, and far enough out they would
# overflow a datetime when turned into the start of a day.
EARLIEST_DAY, LATEST_DAY = date(1970, 1, 1), date(2999, 12, 31)
DAY_OUT_OF_RANGE = "Pick a date between 1970 and 2999."
FROM_AFTER_TO = "“From” is after “To”: swap them."


def validate_review_day(day: date) -> None:
    if not EARLIEST_DAY <= day <= LATEST_DAY:
        raise ValidationError(DAY_OUT_OF_RANGE, code="out_of_range")


@dataclass(frozen=True)
class ReviewFilters:
    """One person and/or a range of days, both ends included, in the reader's time
    zone."""

    person: User | None = None
    day_from: date | None = None
    day_to: date | None = None

    def audit_data(self) -> dict:
        """Ids and dates only: what was asked for, never any words."""
        return {
            "person_id": self.person.pk if self.person else None,
            "from": self.day_from.isoformat() if self.day_from else None,
            "to": self.day_to.isoformat() if self.day_to else None,
        }


def _start_of(day: date, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, time.min, tzinfo=zone)


def evaluative_reviews(
    *, user: User, roles, filters: ReviewFilters = ReviewFilters()
) -> QuerySet[Feedback]:
    """Evaluative feedback received by the people this reader reviews, newest first,
    with recipients and authors (one query). Built on `Feedback.evaluative` only, and
    narrowed by `visible_to` — the one visibility rule — so no filter or role can
    reach the developmental stream. The reader's own feedback is not here (it is in
    "My feedback"), nor anonymous answers still held back."""
    if not may_review(roles):
        return Feedback.evaluative.none()
    items = (
        Feedback.evaluative.filter(
            recipient__in=reviewable_people(user=user, roles=roles).values("pk")
        )
        .visible_to(user, is_hr=_is_hr(roles), each_row=True)
        .exclude(held_back_for_others(user))
        .select_related("author", "recipient")
    )
    if filters.person is not None:
        items = items.filter(recipient=filters.person)
    if filters.day_from is not None:
        items = items.filter(created_at__gte=_start_of(filters.day_from, user.tzinfo))
    if filters.day_to is not None:
        next_day = filters.day_to + timedelta(days=1)
        items = items.filter(created_at__lt=_start_of(next_day, user.tzinfo))
    return items


def evaluative_reviews_page(
    *, user: User, roles, filters: ReviewFilters, page_number: int = 1
) -> Page:
    """One page of `evaluative_reviews` (three queries: count, the page's ids, its
    rows with their people). A page past the end shows the last one."""
    items = evaluative_reviews(user=user, roles=roles, filters=filters)
    page = Paginator(items.values_list("pk", flat=True), REVIEWS_PER_PAGE).get_page(page_number)
    page.object_list = in_order(people_of_items(), list(page.object_list))
    return page


def people_of_items() -> QuerySet[Feedback]:
    """Feedback with its recipient and author joined, for the rows of a page whose ids
    the visibility rule chose first: joined before the cut, the planner (expecting a
    few thousand evaluative items where an organisation has tens of thousands) joined
    them all before sorting (HR's reviews screen at 10,000 people; bench/routes.py)."""
    return Feedback.objects.select_related("author", "recipient")
