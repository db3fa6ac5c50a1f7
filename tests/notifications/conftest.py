from datetime import time

import pytest

from cadence.services import plan_create


@pytest.fixture
def weekly_plan(org):
    """Mia's weekly 1:1 with Rita, Tuesdays 10:00 Berlin."""

    def make(**kw):
        return plan_create(
            **{
                "kind": "one_on_one",
                "coach": org.manager,
                "coachee": org.rep,
                "weekday": 1,
                "local_time": time(10, 0),
                "generate": False,
                **kw,
            }
        )

    return make
