"""`{% zoned moment "H:i" among reader %}`: `moment` in `reader`'s zone (by default
the signed-in person's), in the `date` filter's format, with the zone's short name
after it ("09:30 CET") when someone of `among` — a session (its participants) or
people — reads another time then (coaching/zones.py). Plain text, so emails use it."""

from django import template
from django.utils import dateformat, timezone

from coaching import zones

register = template.Library()


def _people(among) -> list:
    if among is None:
        return []
    participants = getattr(among, "participants", None)
    if participants is not None:  # a session, its participants prefetched
        return [p.person for p in participants.all()]
    return list(among)


@register.simple_tag(takes_context=True)
def zoned(context, moment, fmt, among=None, reader=None) -> str:
    if not moment:
        return ""
    reader = reader or context.get("user")
    if getattr(reader, "tzinfo", None) is None:  # signed out: nobody to compare with
        return dateformat.format(timezone.localtime(moment), fmt)
    return zones.zoned(moment, fmt, reader=reader, among=_people(among))
