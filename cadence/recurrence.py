"""Turning a rule in local wall time into UTC slots. Pure functions, no database.

The one rule for daylight-saving edges (RFC 5545, section 3.3.5):
- a local time that does not exist (spring gap) is read with the offset from before
  the gap, so it lands as far past the gap's start as it was meant to: 02:30 on the
  night Berlin jumps from 02:00 to 03:00 becomes 03:30;
- a local time that happens twice (autumn overlap) is the first of the two.
Python's zoneinfo does exactly this for `fold=0`, so the rule is one line below."""

import calendar
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

WEEKLY, MONTHLY_NTH, MONTHLY_LAST = "weekly", "monthly_nth", "monthly_last"


@dataclass(frozen=True)
class Rule:
    recurrence: str
    weekday: int  # 0 = Monday
    local_time: time
    time_zone: str
    starts_on: date
    ends_on: date | None = None
    interval_weeks: int = 1
    week_of_month: int = 1

    @classmethod
    def of(cls, obj) -> "Rule":
        """The rule of a plan (or anything with the same fields)."""
        return cls(
            recurrence=obj.recurrence,
            weekday=obj.weekday,
            local_time=obj.local_time,
            time_zone=obj.time_zone,
            starts_on=obj.starts_on,
            ends_on=obj.ends_on,
            interval_weeks=obj.interval_weeks,
            week_of_month=obj.week_of_month,
        )


# Remembered: a first run over 50,000 plans asks for 340,000 slots, most of them the
# same few thousand (day, time, zone) (bench/generate.py). Pure, so safe to share.
@lru_cache(maxsize=2**16)
def to_utc(day: date, at: time, zone: ZoneInfo) -> datetime:
    """Local wall time → UTC, by the rule in the module docstring (fold=0)."""
    return (
        datetime.combine(day, at.replace(fold=0, tzinfo=None)).replace(tzinfo=zone).astimezone(UTC)
    )


def local_days(rule: Rule, first: date, last: date) -> Iterator[date]:
    """The days the rule falls on between `first` and `last`, inclusive."""
    first = max(first, rule.starts_on)
    if rule.ends_on is not None:
        last = min(last, rule.ends_on)
    if first > last:
        return
    if rule.recurrence == WEEKLY:
        yield from _weekly(rule, first, last)
    else:
        yield from _monthly(rule, first, last)


def _weekly(rule: Rule, first: date, last: date) -> Iterator[date]:
    # Anchor on the first matching weekday on or after starts_on, so "every 2 weeks"
    # keeps the same weeks whatever window is asked for.
    anchor = rule.starts_on + timedelta(days=(rule.weekday - rule.starts_on.weekday()) % 7)
    step = timedelta(weeks=rule.interval_weeks)
    if first > anchor:
        periods = (first - anchor).days // step.days
        day = anchor + periods * step
        if day < first:
            day += step
    else:
        day = anchor
    while day <= last:
        yield day
        day += step


def _monthly(rule: Rule, first: date, last: date) -> Iterator[date]:
    year, month = first.year, first.month
    while date(year, month, 1) <= last:
        day = _nth_weekday(
            year, month, rule.weekday, rule.recurrence == MONTHLY_LAST, rule.week_of_month
        )
        if first <= day <= last:
            yield day
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)


@lru_cache(maxsize=2**12)
def _nth_weekday(year: int, month: int, weekday: int, last: bool, nth: int) -> date:
    days = [
        date(year, month, d)
        for d in range(1, calendar.monthrange(year, month)[1] + 1)
        if date(year, month, d).weekday() == weekday
    ]
    return days[-1] if last else days[nth - 1]


def slots(rule: Rule, start: datetime, end: datetime) -> list[datetime]:
    """UTC slot starts with start <= slot < end."""
    zone = ZoneInfo(rule.time_zone)
    # One day of margin either side: a local day can begin in the previous UTC day.
    days = local_days(rule, (start - timedelta(days=1)).date(), (end + timedelta(days=1)).date())
    return [s for s in (to_utc(d, rule.local_time, zone) for d in days) if start <= s < end]


def next_slot(rule: Rule, start: datetime, within: timedelta) -> datetime | None:
    """The first UTC slot at or after `start` and before `start + within`, or None."""
    zone = ZoneInfo(rule.time_zone)
    end = start + within
    for day in local_days(
        rule, (start - timedelta(days=1)).date(), (end + timedelta(days=1)).date()
    ):
        slot = to_utc(day, rule.local_time, zone)
        if start <= slot:
            return slot if slot < end else None
    return None
