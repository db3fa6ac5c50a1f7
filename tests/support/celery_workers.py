"""The `workers` fixture: real Celery worker processes against the configured broker."""

import uuid

import pytest

from config.celery import app
from tests.support.worker import Worker, delete_queue


@pytest.fixture
def workers(transactional_db, tmp_path):
    """`workers.start(**options)` starts a worker on this test's own queue; every
    worker started is stopped (or killed) at teardown, before the database is flushed.
    `workers.enqueue(task)` sends a task through the broker to that queue."""

    class Workers:
        def __init__(self):
            self.queue = f"test-{uuid.uuid4().hex[:8]}"
            self.mail_dir = tmp_path / "mail"
            self.started: list[Worker] = []

        def start(self, **options) -> Worker:
            worker = Worker(
                queue=self.queue,
                mail_dir=self.mail_dir,
                log=tmp_path / f"worker-{len(self.started) + 1}.log",
                **options,
            )
            self.started.append(worker)
            return worker

        def enqueue(self, task):
            task.apply_async(queue=self.queue)

    pool = Workers()
    pool.mail_dir.mkdir()
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False  # through the broker, not in-process
    yield pool
    app.conf.task_always_eager = eager
    for worker in pool.started:
        try:
            worker.stop()
        except Exception as exc:  # noqa: BLE001 - stop the others all the same
            print(f"could not stop {worker.log.name}: {exc!r}")
    delete_queue(pool.queue)
    for worker in pool.started:  # shown by pytest when the test fails
        print(f"--- {worker.log.name} ---\n{worker.output()}")
