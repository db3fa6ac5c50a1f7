from django.utils.functional import SimpleLazyObject

from .selectors_inbox import unread_count


def unread(request):
    """`unread` in every template: how many of the signed-in person's notifications are
    unread, for the header. Counted on first use (one query, on the partial index
    `notification_unread`), so fragments and pages without the header pay nothing."""
    user = getattr(request, "user", None)
    return {"unread": SimpleLazyObject(lambda: unread_count(user=user) if user else 0)}
