"""Helpers for the plans Programme → Plans and its API are tested on (the `plans_world`
fixture in tests/cadence/conftest.py)."""

from datetime import UTC, datetime, time

from cadence.engine import occurrences_generate
from cadence.services import plan_create, plan_end, plan_update
from people.services_teams import team_create
from tests.support.factories import UserFactory

ENDED = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
EARLIER = datetime(2026, 2, 10, 12, 0, tzinfo=UTC)


def one_on_one(coach, coachee, weekday=1, hour=10, **kw):
    return plan_create(
        kind="one_on_one", coach=coach, coachee=coachee, weekday=weekday,
        local_time=time(hour, 0), generate=False, **kw,
    )  # fmt: skip


def plans_of_every_shape(org, n: int, start: int) -> None:
    """`n` plans of every shape — 1:1s and team plans, running, paused and ended, with
    their sessions planned — each with its own coach below Hana (numbered from `start`),
    for query counts at two sizes."""
    for i in range(start, start + n):
        coach = UserFactory(display_name=f"Coach {i:02}", manager=org.head)
        if i % 3 == 0:
            plan = plan_create(
                kind="team_call_review", coach=coach, weekday=i % 5,
                team=team_create(name=f"Team {i:02}", lead=coach),
                local_time=time(15, 0), generate=False,
            )  # fmt: skip
        else:
            plan = one_on_one(coach, UserFactory(manager=coach), weekday=i % 5)
        if i % 4 == 1:
            plan_update(plan=plan, actor=coach, paused=True)
        if i % 5 == 2:
            plan_end(plan=plan, actor=coach, reason="leave")
    occurrences_generate()
