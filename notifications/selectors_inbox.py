"""Reads for a person's own notifications (the in-app list and its API): newest first,
each as the one line its kind declares (`kinds.line`) — kinds, names and times, never
anyone's words — with their unread count and email preferences. Only ever the reader's
own rows (`Notification.visible_to`)."""

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Count, Max, QuerySet

from people.models import User

from . import kinds
from .models import Notification, NotificationPreference

NOTIFICATIONS_PER_PAGE = 50


@dataclass
class NotificationLine:
    notification: Notification
    text: str
    url: str | None

    @property
    def unread(self) -> bool:
        return self.notification.read_at is None


@dataclass
class NotificationsPage:
    page: Page
    lines: list[NotificationLine]
    unread: int
    newest_id: int | None
    preference: NotificationPreference


def unread_count(*, user: User) -> int:
    """How many of the person's notifications are unread (one query)."""
    return Notification.objects.visible_to(user).filter(read_at__isnull=True).count()


def inbox(*, user: User) -> QuerySet[Notification]:
    """The person's own notifications, newest first, with what their lines name."""
    return (
        Notification.objects.visible_to(user)
        .select_related(*kinds.related())
        .order_by("-created_at", "-id")
    )


def notification_lines(*, user: User, rows) -> list[NotificationLine]:
    """`rows` of `user`'s inbox as one line each, as the page shows them (the page and
    the API say the same). What the lines read beyond the inbox's query is loaded once
    for the page by each kind's `lines_prefetch` (for sessions: their people, which of
    them `user` may still see, and the runs of an escalation among them)."""
    items = list(rows)
    for prefetch, theirs in kinds.line_prefetchers(items):
        prefetch(theirs, user)
    return [NotificationLine(row, *kinds.line(row, user)) for row in items]


def notifications_page(*, user: User, page_number=1) -> NotificationsPage:
    """The person's own notifications, newest first, fifty a page, each as one line;
    their unread count and preferences. Seven queries, whatever the numbers (five when
    no line is about a session)."""
    page = Paginator(inbox(user=user), NOTIFICATIONS_PER_PAGE).get_page(page_number)
    lines = notification_lines(user=user, rows=page.object_list)
    unread = (
        Notification.objects.visible_to(user)
        .filter(read_at__isnull=True)
        .aggregate(count=Count("pk"), newest=Max("pk"))
    )
    preference = NotificationPreference.objects.filter(person=user).first()
    return NotificationsPage(
        page=page,
        lines=lines,
        unread=unread["count"],
        newest_id=unread["newest"],
        preference=preference or NotificationPreference(person=user),
    )
