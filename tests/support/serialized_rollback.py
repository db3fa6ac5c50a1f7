"""Serialized rollback, restored in bulk.

After each transactional test Django empties every table and reloads the rows that
migrations seeded (tests/conftest.py asks for it, decision 0019) by saving them one
object at a time: an UPDATE, then an INSERT, for each of several hundred rows —
permissions, content types, the scorecard library, prompts, periodic tasks — before
every transactional test. Here the same rows go back with one INSERT per table and
one per many-to-many table, inside the same transaction with the same deferred
constraint check, so every test still starts from exactly the seeded rows. Django
reloads before the test rather than after it, so the first transactional test of a
process finds the rows still there: then Django's own way, which updates them in
place, does it."""

from collections import defaultdict
from io import StringIO

from django.core import serializers
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.creation import BaseDatabaseCreation
from django.db.transaction import atomic

ORIGINAL = BaseDatabaseCreation.deserialize_db_from_string


def deserialize_in_bulk(self: BaseDatabaseCreation, data: str) -> None:
    """`BaseDatabaseCreation.deserialize_db_from_string`, one INSERT per table."""
    alias = self.connection.alias
    rows: dict[type, dict[object, object]] = defaultdict(dict)
    links: dict[type, list] = defaultdict(list)
    for deserialized in serializers.deserialize("json", StringIO(data), using=alias):
        obj = deserialized.object
        model = obj._meta.concrete_model  # a proxy's rows are its model's rows
        rows[model][obj.pk] = obj
        for name, targets in (deserialized.m2m_data or {}).items():
            field = model._meta.get_field(name)
            through = field.remote_field.through
            source, target = field.m2m_field_name(), field.m2m_reverse_field_name()
            links[through].extend(
                through(**{f"{source}_id": obj.pk, f"{target}_id": pk}) for pk in targets
            )
    tables = [model._meta.db_table for model in (*rows, *links)]
    if not _all_empty(self.connection, tables):
        return ORIGINAL(self, data)
    with atomic(using=alias), self.connection.constraint_checks_disabled():
        for model, by_pk in rows.items():
            model._base_manager.using(alias).bulk_create(list(by_pk.values()))
        for through, objs in links.items():
            through._base_manager.using(alias).bulk_create(objs)
        self.connection.check_constraints(table_names=tables)


def _all_empty(connection, tables: list[str]) -> bool:
    if not tables:
        return True
    quote = connection.ops.quote_name
    any_row = " UNION ALL ".join(f"SELECT 1 FROM {quote(t)}" for t in tables)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT EXISTS ({any_row})")  # noqa: S608 - our own table names
        return not cursor.fetchone()[0]


def install(alias: str = DEFAULT_DB_ALIAS) -> None:
    type(connections[alias].creation).deserialize_db_from_string = deserialize_in_bulk
