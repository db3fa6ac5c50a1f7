"""Where the scale data goes: PostgreSQL COPY in chunks, or bulk_create elsewhere.

Rows are plain tuples in the order of the fields a table was opened with; ids are
assigned here, in Python, so a child row names its parent without a round trip.
The rest of a model's concrete fields get their defaults.

On PostgreSQL the chunks (CSV, written by the C csv module) go to a second
connection on a writer thread, so generating the next chunk (Python, one core)
and loading the last one (the server, the other core) overlap. psycopg2 releases
the GIL while it sends. The writer loads each phase in one transaction and commits
at `commit()`. When it may (a superuser), it sets `session_replication_role =
replica` for its own session: foreign-key triggers do not fire row by row during the
load (a million rows of them would double the time). CHECK and UNIQUE constraints
are enforced as ever; `verify_foreign_keys()` checks every foreign key of the
tables written afterwards, with one anti-join each.

Elsewhere (SQLite: tests, `--people 200`) rows go in as batched INSERTs
(executemany), each value adapted by the backend as bulk_create would, without
a model instance per row; foreign keys are checked by the database as usual."""

from __future__ import annotations

import csv
import io
import json
import queue
import threading
import time
from collections.abc import Callable, Iterable

from django.core.management.color import no_style
from django.db import connections, models

TEXT_FIELDS = (models.CharField, models.TextField)
CHUNK_ROWS = 50_000  # rows per COPY
BULK_BATCH = 2_000  # rows per executemany


class Sink:
    def __init__(self, using: str = "default"):
        self.using = using
        self.connection = connections[using]
        self.copy = self.connection.vendor == "postgresql"
        self.writers: dict[type[models.Model], _Writer] = {}
        self.counts: dict[str, int] = {}
        self.ids: dict[type[models.Model], int] = {}
        self.triggers_off = False
        self._thread: _CopyThread | None = None
        if self.copy:
            self._thread = _CopyThread(self.connection)
            self.triggers_off = self._thread.triggers_off

    # --- ids ---------------------------------------------------------------------------

    def next_id(self, model: type[models.Model]) -> Callable[[], int]:
        """A function handing out the model's next ids (after the largest one there)."""
        if model not in self.ids:
            with self.connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT MAX(id) FROM {self.connection.ops.quote_name(model._meta.db_table)}"  # noqa: S608 - our own table name
                )
                self.ids[model] = cursor.fetchone()[0] or 0

        def take() -> int:
            self.ids[model] += 1
            return self.ids[model]

        return take

    # --- writing -------------------------------------------------------------------------

    def table(self, model: type[models.Model], fields: Iterable[str]) -> _Writer:
        writer = self.writers.get(model)
        fields = tuple(fields)
        if writer is None:
            kind = _CopyWriter if self.copy else _InsertWriter
            writer = self.writers[model] = kind(self, model, fields)
        elif writer.fields != fields:
            raise ValueError(f"{model.__name__} is already open with other fields")
        return writer

    def flush(self) -> None:
        for writer in self.writers.values():
            writer.flush()

    def commit(self) -> None:
        """Everything written so far is loaded and committed."""
        self.flush()
        if self._thread is not None:
            self._thread.commit()

    def close(self) -> None:
        if self._thread is not None:
            self._thread.close()
            self._thread = None

    def count(self, model: type[models.Model]) -> int:
        return self.counts.get(model._meta.label, 0)

    # --- after loading -------------------------------------------------------------------

    def reset_sequences(self) -> None:
        written = list(self.writers)
        with self.connection.cursor() as cursor:
            for sql in self.connection.ops.sequence_reset_sql(no_style(), written):
                cursor.execute(sql)

    def verify_foreign_keys(self) -> int:
        """Every foreign key of every table written points at a row (one anti-join per
        key). Returns how many keys were checked; raises on the first dangling one."""
        checked = 0
        q = self.connection.ops.quote_name
        with self.connection.cursor() as cursor:
            for model in self.writers:
                for field in model._meta.concrete_fields:
                    if not field.is_relation or field.related_model is None:
                        continue
                    target = field.related_model
                    sql = (
                        f"SELECT COUNT(*) FROM {q(model._meta.db_table)} c"  # noqa: S608
                        f" WHERE c.{q(field.column)} IS NOT NULL AND NOT EXISTS"
                        f" (SELECT 1 FROM {q(target._meta.db_table)} p"
                        f" WHERE p.{q(field.target_field.column)} = c.{q(field.column)})"
                    )
                    cursor.execute(sql)
                    dangling = cursor.fetchone()[0]
                    if dangling:
                        raise AssertionError(
                            f"{dangling} rows of {model._meta.label}.{field.name} point nowhere"
                        )
                    checked += 1
        return checked

    def analyze(self) -> None:
        """Statistics for the planner. On PostgreSQL also VACUUM (seconds, the data is
        in memory): freshly loaded tables have no visibility map, so every index-only
        scan would visit the heap until autovacuum came by — and autovacuum may be off
        (it is on some CI and test servers), which no real database looks like."""
        q = self.connection.ops.quote_name
        tables = sorted({m._meta.db_table for m in self.writers})
        with self.connection.cursor() as cursor:
            if not self.copy:
                cursor.execute("ANALYZE")
            elif self.connection.in_atomic_block:  # VACUUM cannot run in a transaction
                for table in tables:
                    cursor.execute(f"ANALYZE {q(table)}")
            else:
                cursor.execute(f"VACUUM (ANALYZE) {', '.join(q(t) for t in tables)}")

    def database_size(self) -> str | None:
        if not self.copy:
            return None
        with self.connection.cursor() as cursor:
            cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
            return cursor.fetchone()[0]


class _Writer:
    def __init__(self, sink: Sink, model: type[models.Model], fields: tuple[str, ...]):
        self.sink, self.model, self.fields = sink, model, fields
        by_attname = {f.attname: f for f in model._meta.concrete_fields}
        unknown = set(fields) - set(by_attname)
        if unknown:
            raise ValueError(f"{model.__name__} has no fields {sorted(unknown)}")
        self.rest = [f for f in model._meta.concrete_fields if f.attname not in fields]
        self.defaults = tuple(_default(f) for f in self.rest)
        self.label = model._meta.label
        sink.counts.setdefault(self.label, 0)

    def add(self, row: tuple) -> None:
        raise NotImplementedError

    def flush(self) -> None:
        raise NotImplementedError


def _default(field: models.Field):
    if field.has_default():
        value = field.get_default()
        if callable(getattr(field, "default", None)) and field.get_internal_type() in (
            "DateTimeField",
            "DateField",
        ):
            raise ValueError(f"give {field.model.__name__}.{field.name} explicitly")
        return value
    if field.null:
        return None
    if field.empty_strings_allowed:
        return ""
    raise ValueError(f"{field.model.__name__}.{field.name} needs a value")


class _CopyWriter(_Writer):
    def __init__(self, sink, model, fields):
        super().__init__(sink, model, fields)
        q = sink.connection.ops.quote_name
        columns = [model._meta.get_field(f) for f in fields] + self.rest
        # Python 3.11's csv quotes None like any string (""): FORCE_NULL reads "" as
        # NULL in the nullable columns that are not text (where "" is never a value).
        nullable = [q(f.column) for f in columns if f.null and not isinstance(f, TEXT_FIELDS)]
        options = f", FORCE_NULL ({', '.join(nullable)})" if nullable else ""
        self.sql = (
            f"COPY {q(model._meta.db_table)} ({', '.join(q(f.column) for f in columns)})"
            f" FROM STDIN WITH (FORMAT csv{options})"
        )
        self.defaults = tuple(_copy_value(v) for v in self.defaults)
        self.json = [
            i
            for i, f in enumerate(fields)
            if model._meta.get_field(f).get_internal_type() == "JSONField"
        ]
        self._new_buffer()

    def _new_buffer(self):
        self.buffer = io.StringIO()
        # Strings quoted (so "" stays an empty string), None empty (NULL), numbers and
        # booleans bare; datetimes print as 2026-01-05 09:30:00+00:00.
        self.csv = csv.writer(self.buffer, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
        self.pending = 0

    def add(self, row: tuple) -> None:
        if self.json:
            row = tuple(_copy_value(v) if i in self.json else v for i, v in enumerate(row))
        self.csv.writerow(row + self.defaults if self.defaults else row)
        self.pending += 1
        if self.pending >= CHUNK_ROWS:
            self.flush()

    def add_many(self, rows: list[tuple]) -> None:
        if self.defaults:
            rows = [row + self.defaults for row in rows]
        self.csv.writerows(rows)
        self.pending += len(rows)
        if self.pending >= CHUNK_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        self.sink.counts[self.label] += self.pending
        self.sink._thread.submit(self.sql, self.buffer.getvalue())
        self._new_buffer()


def _copy_value(value):
    return json.dumps(value) if isinstance(value, dict | list) else value


class _InsertWriter(_Writer):
    """Batched INSERTs (executemany) with the backend's own value adaptation: what
    bulk_create does, without building a model instance per row."""

    def __init__(self, sink, model, fields):
        super().__init__(sink, model, fields)
        connection = sink.connection
        q = connection.ops.quote_name
        columns = [model._meta.get_field(f) for f in fields] + self.rest
        self.sql = (
            f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(f.column) for f in columns)})"  # noqa: S608
            f" VALUES ({', '.join(['%s'] * len(columns))})"
        )
        self.adapters = [_adapter(f, connection) for f in columns]
        self.rows: list[tuple] = []

    def add(self, row: tuple) -> None:
        self.rows.append(row + self.defaults if self.defaults else row)
        if len(self.rows) >= BULK_BATCH:
            self.flush()

    def add_many(self, rows: list[tuple]) -> None:
        for row in rows:
            self.add(row)

    def flush(self) -> None:
        if not self.rows:
            return
        adapters = self.adapters
        params = [
            [v if a is None or v is None else a(v) for a, v in zip(adapters, row, strict=True)]
            for row in self.rows
        ]
        with self.sink.connection.cursor() as cursor:
            cursor.executemany(self.sql, params)
        self.sink.counts[self.label] += len(self.rows)
        self.rows = []


def _adapter(field: models.Field, connection):
    ops, kind = connection.ops, field.get_internal_type()
    if kind == "DateTimeField":
        return ops.adapt_datetimefield_value
    if kind == "DateField":
        return ops.adapt_datefield_value
    if kind == "TimeField":
        return ops.adapt_timefield_value
    if kind == "DecimalField":
        return lambda v: ops.adapt_decimalfield_value(v, field.max_digits, field.decimal_places)
    if kind == "JSONField":
        return lambda v: field.get_db_prep_save(v, connection)
    return None


class _CopyThread:
    """One extra connection, fed chunks through a short queue (backpressure: the
    generator never runs more than a few chunks ahead of the server)."""

    def __init__(self, django_connection):
        import psycopg2

        params = dict(django_connection.get_connection_params())
        for key in ("cursor_factory", "server_side_binding", "pool", "assume_role"):
            params.pop(key, None)
        self.conn = psycopg2.connect(**params)
        self.conn.autocommit = False
        with self.conn.cursor() as cursor:
            cursor.execute("SET TIME ZONE 'UTC'")
            cursor.execute("SET synchronous_commit TO off")
            cursor.execute("SELECT current_setting('is_superuser') = 'on'")
            self.triggers_off = cursor.fetchone()[0]
            if self.triggers_off:
                cursor.execute("SET session_replication_role = replica")
        self.conn.commit()
        self.queue: queue.Queue = queue.Queue(maxsize=3)
        self.error: BaseException | None = None
        self.busy_seconds = 0.0
        self.thread = threading.Thread(target=self._run, name="scale-copy", daemon=True)
        self.thread.start()

    def _run(self):
        while True:
            item = self.queue.get()
            try:
                if item is None:
                    return
                if self.error is None:
                    started = time.perf_counter()
                    if item == "COMMIT":
                        self.conn.commit()
                    else:
                        sql, data = item
                        with self.conn.cursor() as cursor:
                            cursor.copy_expert(sql, io.StringIO(data), size=1 << 20)
                    self.busy_seconds += time.perf_counter() - started
            except BaseException as exc:  # handed to the main thread
                self.error = exc
                self.conn.rollback()
            finally:
                self.queue.task_done()

    def _check(self):
        if self.error is not None:
            raise RuntimeError(f"loading failed: {self.error}") from self.error

    def submit(self, sql: str, data: str) -> None:
        self._check()
        self.queue.put((sql, data))

    def commit(self) -> None:
        self.queue.put("COMMIT")
        self.queue.join()
        self._check()

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join()
        self.conn.close()
