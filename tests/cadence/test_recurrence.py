"""Rules in local wall time become UTC slots; DST edges follow one documented rule."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from cadence.recurrence import MONTHLY_LAST, MONTHLY_NTH, WEEKLY, Rule, local_days, slots, to_utc

BERLIN = ZoneInfo("Europe/Berlin")


def weekly(**kw):
    return Rule(
        **{
            "recurrence": WEEKLY,
            "weekday": 1,
            "local_time": time(10, 0),
            "time_zone": "Europe/Berlin",
            "starts_on": date(2026, 1, 1),
            **kw,
        }
    )


def test_a_weekly_10_oclock_berlin_plan_stays_at_10_berlin_across_dst():
    found = slots(weekly(), datetime(2026, 3, 15, tzinfo=UTC), datetime(2026, 4, 8, tzinfo=UTC))
    local = [s.astimezone(BERLIN) for s in found]
    assert [d.date().isoformat() for d in local] == [
        "2026-03-17",
        "2026-03-24",
        "2026-03-31",
        "2026-04-07",
    ]
    assert {d.time() for d in local} == {time(10, 0)}
    assert [s.hour for s in found] == [9, 9, 8, 8]  # UTC moves, local time does not


def test_a_time_in_the_spring_gap_lands_as_far_past_the_gap_as_it_was_meant():
    # Berlin jumps 02:00 → 03:00 on 29 March 2026: 02:30 does not exist.
    moment = to_utc(date(2026, 3, 29), time(2, 30), BERLIN)
    assert moment.astimezone(BERLIN).time() == time(3, 30)


def test_a_time_in_the_autumn_overlap_is_the_first_of_the_two():
    # Berlin repeats 02:00–03:00 on 25 October 2026: 02:30 happens twice.
    moment = to_utc(date(2026, 10, 25), time(2, 30), BERLIN)
    assert moment == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 CEST, not CET


def test_every_other_week_keeps_the_same_weeks_whatever_the_window():
    rule = weekly(interval_weeks=2, starts_on=date(2026, 1, 5))  # Tuesdays from 6 Jan
    first = list(local_days(rule, date(2026, 1, 1), date(2026, 2, 28)))
    later = list(local_days(rule, date(2026, 1, 14), date(2026, 2, 28)))
    assert first[0] == date(2026, 1, 6)
    assert set(later) <= set(first) and later[0] == date(2026, 1, 20)


def test_monthly_on_the_second_thursday_and_on_the_last_friday():
    second_thursday = Rule(
        recurrence=MONTHLY_NTH,
        weekday=3,
        week_of_month=2,
        local_time=time(15),
        time_zone="UTC",
        starts_on=date(2026, 1, 1),
    )
    last_friday = Rule(
        recurrence=MONTHLY_LAST,
        weekday=4,
        local_time=time(15),
        time_zone="UTC",
        starts_on=date(2026, 1, 1),
    )
    assert list(local_days(second_thursday, date(2026, 1, 1), date(2026, 3, 31))) == [
        date(2026, 1, 8),
        date(2026, 2, 12),
        date(2026, 3, 12),
    ]
    assert list(local_days(last_friday, date(2026, 1, 1), date(2026, 3, 31))) == [
        date(2026, 1, 30),
        date(2026, 2, 27),
        date(2026, 3, 27),
    ]


def test_nothing_before_the_start_or_after_the_end():
    rule = weekly(starts_on=date(2026, 5, 1), ends_on=date(2026, 5, 20))
    assert list(local_days(rule, date(2026, 1, 1), date(2026, 12, 31))) == [
        date(2026, 5, 5),
        date(2026, 5, 12),
        date(2026, 5, 19),
    ]


ZONES = st.sampled_from(
    [
        "Europe/Berlin",
        "Europe/London",
        "America/New_York",
        "America/Sao_Paulo",
        "Australia/Sydney",
        "Australia/Lord_Howe",
        "Asia/Kolkata",
        "Asia/Kathmandu",
        "Pacific/Chatham",
        "America/St_Johns",
        "Africa/Casablanca",
        "UTC",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    zone=ZONES,
    start=st.dates(min_value=date(2020, 1, 1), max_value=date(2035, 12, 31)),
    weekday=st.integers(0, 6),
    hour=st.integers(0, 23),
    minute=st.sampled_from([0, 15, 30, 45]),
    interval=st.integers(1, 4),
)
def test_weekly_slots_keep_their_weekday_and_wall_time_except_in_a_gap(
    zone, start, weekday, hour, minute, interval
):
    rule = Rule(
        recurrence=WEEKLY,
        weekday=weekday,
        local_time=time(hour, minute),
        time_zone=zone,
        starts_on=start,
        interval_weeks=interval,
    )
    window_start = datetime.combine(start, time(0), tzinfo=UTC)
    found = slots(rule, window_start, window_start + timedelta(weeks=30))
    tz = ZoneInfo(zone)
    assert found == sorted(found) and len(set(found)) == len(found)
    for s in found:
        local = s.astimezone(tz)
        wanted = datetime.combine(local.date(), time(hour, minute))
        # Either the wall time is exact, or it did not exist and was pushed past the gap
        # by exactly the gap's length — never earlier, never by more than 2 hours.
        naive = local.replace(tzinfo=None)
        assert naive == wanted or timedelta(0) < naive - wanted <= timedelta(hours=2)
    days = sorted({s.astimezone(tz).date() for s in found})
    assert all(d.weekday() == weekday for d in days)
    assert all((b - a).days == 7 * interval for a, b in zip(days, days[1:], strict=False))
