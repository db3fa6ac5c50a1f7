"""Query plans for tests that pin what an index does for a query (PostgreSQL)."""

from collections.abc import Callable

from django.db import connection
from django.test.utils import CaptureQueriesContext


def explain_sent(call: Callable, *, touching: str) -> list[str]:
    """EXPLAIN of every query `call` sends that names the table `touching`, with
    sequential scans off: what the query's shape lets an index do, not what the planner
    prefers for a test's table of a few rows."""
    with CaptureQueriesContext(connection) as sent:
        call()
    plans = []
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        for query in sent.captured_queries:
            if touching not in query["sql"]:
                continue
            cursor.execute("EXPLAIN " + query["sql"])
            plans.append("\n".join(row[0] for row in cursor.fetchall()))
    return plans


def bounds_on(plan: str, index: str, condition: str) -> bool:
    """Whether some scan of `index` in `plan` has `condition` in its Index Cond: the
    index gives a range, rather than rows filtered after reading them."""
    lines = plan.splitlines()
    return any(
        index in line and "Index Cond" in following and condition in following
        for line, following in zip(lines, lines[1:], strict=False)
    )
