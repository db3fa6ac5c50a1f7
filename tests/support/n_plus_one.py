"""django-zeal around every request the tests make (test client and live server): a
relation loaded once per row — an N+1 — raises, naming the model, the field and the
line. Installed by config/settings/test.py.

One exception: the admin's delete confirmation. Django lists every object a deletion
would take with it by its name, one query per related object — Django's own page,
bounded by what one deletion touches, and nothing a select_related of ours reaches.

Celery tasks are left out: in tests they run eagerly, on commit, inside the request
that queued them; a worker runs them on their own, where no request is watched."""

import re

from celery.signals import task_postrun, task_prerun
from zeal import zeal_context, zeal_ignore

ADMIN_DELETE = re.compile(r"^/admin/.+/delete/$")


def detect_n_plus_one(get_response):
    def middleware(request):
        with zeal_context():
            if ADMIN_DELETE.match(request.path):
                with zeal_ignore():
                    return get_response(request)
            return get_response(request)

    return middleware


_tasks_ignored: dict[str, object] = {}


@task_prerun.connect
def _task_starts(task_id=None, **kwargs):
    ignoring = zeal_ignore()
    ignoring.__enter__()
    _tasks_ignored[task_id] = ignoring


@task_postrun.connect
def _task_ends(task_id=None, **kwargs):
    ignoring = _tasks_ignored.pop(task_id, None)
    if ignoring is not None:
        ignoring.__exit__(None, None, None)
