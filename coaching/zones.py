"""Which clock a time is read on: a time is shown in the reader's own zone, and says
which zone that is whenever someone else in the session reads another time then
(the coach in Berlin, the coachee in New York). One rule for pages and emails,
through the `zoned` template tag (coaching/templatetags/zones.py)."""

from collections.abc import Iterable
from datetime import datetime, tzinfo

from django.utils import dateformat


def zone_name(moment: datetime, zone: tzinfo) -> str:
    """The zone's short name at `moment` ("CET", "EST"; "UTC+03" where the zone has
    no letters for it), as a reader tells two clocks apart."""
    name = moment.astimezone(zone).strftime("%Z")
    return name if name[:1].isalpha() else f"UTC{name}"


def needs_zone(moment: datetime, reader: tzinfo, others: Iterable[tzinfo]) -> bool:
    """Whether someone reads `moment` on another clock than the reader: an offset
    that differs then (New York and Toronto share one; Berlin and London do not)."""
    mine = moment.astimezone(reader).utcoffset()
    return any(moment.astimezone(zone).utcoffset() != mine for zone in others)


def zoned(moment: datetime, fmt: str, *, reader, among: Iterable = ()) -> str:
    """`moment` in `reader`'s zone in a `date` filter format, with the zone's short name
    after it ("Mon 11 Jan, 09:30 EST") when someone else of `among` (people) reads
    another time then. What the `zoned` tag and the inbox's lines say."""
    zone = reader.tzinfo
    text = dateformat.format(moment.astimezone(zone), fmt)
    others = [person.tzinfo for person in among if person.pk != reader.pk]
    if needs_zone(moment, zone, others):
        text = f"{text} {zone_name(moment, zone)}"
    return text
