"""Free slots: inside both people's working hours in their own zones, clear of their
other sessions and of closed days, in the session's own week, from now on — read in
two queries whatever the number of sessions, and right across daylight-saving
changes."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence.availability import busy_sessions, in_working_hours, session_free_slots
from cadence.models import Closure
from coaching.selectors import access_session
from coaching.services import session_cancel
from tests.support.factories import UserFactory, one_on_one

MONDAY = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)  # Monday 7 December 2026, 08:00 UTC


def utc(day: int, hour: int, minute: int = 0, month: int = 12, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def by_day(slots) -> dict[date, list[str]]:
    days: dict[date, list[str]] = {}
    for slot in slots:
        days.setdefault(slot.start.date(), []).append(f"{slot.start:%H:%M}")
    return days


def halves(first: str, last: str) -> list[str]:
    """Every half hour from `first` to `last`, inclusive ("09:00" … "15:30")."""
    at = datetime.combine(date.min, time.fromisoformat(first))
    end = datetime.combine(date.min, time.fromisoformat(last))
    out = []
    while at <= end:
        out.append(f"{at:%H:%M}")
        at += timedelta(minutes=30)
    return out


@pytest.fixture
def berlin_and_london(org):
    org.manager.time_zone = "Europe/Berlin"  # 09–17 there is 08:00–16:00 UTC in winter
    org.rep.time_zone = "Europe/London"  # 09–17 there is 09:00–17:00 UTC
    for person in (org.manager, org.rep):
        person.save(update_fields=["time_zone"])
    return org


@pytest.mark.django_db
def test_it_offers_the_week_both_are_free_in_their_own_working_hours(berlin_and_london):
    org = berlin_and_london
    with time_machine.travel(MONDAY, tick=False):
        session = one_on_one(org.manager, org.rep, start=utc(8, 9))  # Tue 10:00 Berlin
        one_on_one(org.manager, org.peer, start=utc(9, 10))  # Mia is busy Wed 10:00 UTC
        cancelled = one_on_one(org.manager, org.peer, start=utc(11, 9))
        session_cancel(session=cancelled, actor=org.manager, reason="sick")  # frees Fri 09:00
        Closure.objects.create(name="Founders' day", first_day=date(2026, 12, 10),
                               last_day=date(2026, 12, 10))  # fmt: skip
        slots = session_free_slots(session=access_session(user=org.manager, pk=session.pk))

    both = halves("09:00", "15:30")  # both free 09:00–16:00 UTC, 30 minutes each
    assert by_day(slots) == {
        date(2026, 12, 7): both,
        date(2026, 12, 8): [t for t in both if t != "09:00"],  # where it is now
        date(2026, 12, 9): [t for t in both if t != "10:00"],  # Mia's other 1:1
        # Thursday is closed; the weekend is nobody's working day.
        date(2026, 12, 11): both,
    }


@pytest.mark.django_db
def test_it_offers_only_what_is_still_to_come_in_the_week_of_the_original_slot(org):
    with time_machine.travel(MONDAY, tick=False):
        session = one_on_one(org.manager, org.rep, start=utc(10, 9))
    # Friday 11 December, 12:10 UTC: Friday afternoon (Berlin) is all that is left.
    with time_machine.travel(utc(11, 12, 10), tick=False):
        slots = session_free_slots(session=access_session(user=org.manager, pk=session.pk))
    assert by_day(slots) == {date(2026, 12, 11): halves("12:30", "15:30")}
    # The week after: nothing (moved later, it would no longer be kept).
    with time_machine.travel(utc(14, 8), tick=False):
        assert session_free_slots(session=access_session(user=org.manager, pk=session.pk)) == []


@pytest.mark.django_db
def test_a_persons_own_working_hours_and_days_narrow_the_offer(berlin_and_london):
    org = berlin_and_london
    org.rep.work_days = 0b00110  # Tuesday and Wednesday
    org.rep.work_starts, org.rep.work_ends = time(13, 0), time(15, 0)
    org.rep.save(update_fields=["work_days", "work_starts", "work_ends"])
    with time_machine.travel(MONDAY, tick=False):
        session = one_on_one(org.manager, org.rep, start=utc(8, 9))
        slots = session_free_slots(session=access_session(user=org.manager, pk=session.pk))
    assert by_day(slots) == {
        date(2026, 12, 8): halves("13:00", "14:30"),
        date(2026, 12, 9): halves("13:00", "14:30"),
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    "monday, both",
    [
        # New York on standard time (UTC−5): 14:00–22:00 UTC; Berlin 08:00–16:00.
        (datetime(2027, 3, 8, 6, 0, tzinfo=UTC), halves("14:00", "15:30")),
        # New York moved its clocks on Sunday 14 March, Berlin not until the 28th: the
        # overlap is an hour longer for two weeks.
        (datetime(2027, 3, 15, 6, 0, tzinfo=UTC), halves("13:00", "15:30")),
        # Both on summer time (Berlin 07:00–15:00 UTC, New York 13:00–21:00).
        (datetime(2027, 3, 29, 6, 0, tzinfo=UTC), halves("13:00", "14:30")),
    ],
)
def test_working_hours_follow_each_persons_clock_across_daylight_saving(org, monday, both):
    org.rep.time_zone = "America/New_York"
    org.rep.save(update_fields=["time_zone"])
    with time_machine.travel(monday, tick=False):
        session = one_on_one(org.manager, org.rep, start=monday + timedelta(days=2, hours=9))
        slots = session_free_slots(session=access_session(user=org.manager, pk=session.pk))
    days = by_day(slots)
    assert len(days) == 5
    tuesday = days[(monday + timedelta(days=1)).date()]
    assert tuesday == both


@pytest.mark.django_db
@pytest.mark.parametrize("others", [1, 12])
def test_the_offer_costs_two_queries_whatever_the_number_of_sessions(org, others):
    with time_machine.travel(MONDAY, tick=False):
        session = one_on_one(org.manager, org.rep, start=utc(8, 9))
        for n in range(others):
            one_on_one(org.manager, org.peer, start=utc(7 + n % 5, 10) + timedelta(hours=n // 5))
        loaded = access_session(user=org.manager, pk=session.pk)
        with CaptureQueriesContext(connection) as queries:
            session_free_slots(session=loaded)
    assert len(queries) == 2, [q["sql"] for q in queries]  # the busy sessions, the closures


@pytest.mark.django_db
def test_busy_sessions_reach_back_to_a_session_still_running_at_the_start(org):
    with time_machine.travel(MONDAY, tick=False):
        long = one_on_one(org.manager, org.rep, start=utc(8, 9), duration_minutes=120)
        busy = busy_sessions([org.manager.pk], utc(8, 10), utc(8, 12))
    assert [b.session_id for b in busy[org.manager.pk]] == [long.pk]


@pytest.mark.django_db
def test_a_session_reaching_past_the_working_day_is_outside_it(org):
    person = UserFactory(time_zone="Asia/Kolkata")  # UTC+05:30
    # 16:30–17:00 Kolkata is inside 09:00–17:00; 16:45–17:15 is not.
    assert in_working_hours(person, utc(8, 11), utc(8, 11, 30))
    assert not in_working_hours(person, utc(8, 11, 15), utc(8, 11, 45))
