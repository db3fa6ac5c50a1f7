"""Query helpers any app may use, with no rule of their own: rows in a given order,
membership in a list of ids or a subquery written the way PostgreSQL plans well, and
EXISTS checked row by row. (They were `people.selectors`'s until issue 57.)"""

from django.db import connection
from django.db.models import Exists, F, Lookup, Q, QuerySet
from django.db.models.expressions import RawSQL


def in_order(rows: QuerySet, ids: list[int]) -> list:
    """The rows of `rows` with these ids, in the order of `ids` (one query): the second
    half of reading a page's ids first and only then its rows with their joins. An id
    whose row went in between (deleted by someone else) is left out, not an error."""
    found = rows.in_bulk(ids)
    return [found[pk] for pk in ids if pk in found]


def one_of(field: str, ids: list[int]) -> Q:
    """`field IN ids`; on PostgreSQL the ids go as one array parameter, however many
    (Django spends milliseconds writing out ten thousand placeholders), and the
    planner still counts them (it reads the length of a constant array it unnests)."""
    if connection.vendor != "postgresql":
        return Q(**{f"{field}__in": ids})
    return Q(**{f"{field}__in": RawSQL("SELECT unnest(%s::bigint[])", [ids])})  # noqa: S611


class _AnyOf(Lookup):
    """`lhs = ANY(ARRAY(subquery))` on PostgreSQL, `lhs IN (subquery)` elsewhere (the
    right-hand side compiles with its parentheses)."""

    lookup_name = "any_of"  # used as an expression, never registered

    def as_sql(self, compiler, connection, template="{lhs} IN {rhs}"):
        lhs, lhs_params = compiler.compile(self.lhs)
        rhs, rhs_params = compiler.compile(self.rhs)
        return template.format(lhs=lhs, rhs=rhs), [*lhs_params, *rhs_params]

    def as_postgresql(self, compiler, connection):
        return self.as_sql(compiler, connection, template="{lhs} = ANY(ARRAY{rhs})")


def any_of(field: str, rows) -> Q:
    """`field` is one of `rows` (a one-column queryset or subquery), as
    `= ANY(ARRAY(…))` on PostgreSQL: the planner cannot see into the array, so it reads
    the few rows by index instead of betting on finding them early in a walk of a
    whole table (with LIMIT 1, a walk that reads everything when there are none)."""
    return Q(_AnyOf(F(field), rows))


class ExistsPerRow(Exists):
    """EXISTS that PostgreSQL checks row by row — an index probe for each outer row it
    reads — instead of turning it into a join. The join is planned for the whole inner
    table: with ten thousand people below, a check "someone of mine takes part" on
    63,000 agenda items hashed all 2.6 million participants where probing the
    participants of each item's session takes a fraction of that, and a page in index
    order stops after a few dozen probes. OFFSET 0 keeps the planner from pulling
    the subquery up (as in `people.selectors._below_sql`)."""

    def as_postgresql(self, compiler, connection, **extra_context):
        sql, params = self.as_sql(compiler, connection, **extra_context)
        if sql.startswith("EXISTS(") and sql.endswith(")"):  # not an empty set's FALSE
            sql = f"{sql[:-1]} OFFSET 0)"
        return sql, params
