"""The demo organisation (`seed_demo`), seeded once for every test of this package and
rolled back after the last of them; each test's own changes are rolled back after it,
as ever (a savepoint inside the package's transaction). Seeding takes about 14 s, and
every test here only reads what it made or runs it again, so one seeding serves them
all: under pytest-xdist the package runs on one process (tests/conftest.py)."""

import io
from dataclasses import dataclass
from datetime import datetime

import pytest
import time_machine
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone


@dataclass(frozen=True)
class Seeded:
    at: datetime  # seeding again at this moment must change nothing (later, reminders fall due)
    output: str  # what the command printed

    def again(self) -> str:
        """Run `seed_demo` again at the moment it seeded (time stands still meanwhile);
        what it printed."""
        out = io.StringIO()
        with time_machine.travel(self.at, tick=False):
            call_command("seed_demo", stdout=out)
        return out.getvalue()


@pytest.fixture(scope="package", autouse=True)
def demo(django_db_setup, django_db_blocker) -> Seeded:
    with django_db_blocker.unblock(), transaction.atomic():
        out = io.StringIO()
        at = timezone.now()
        call_command("seed_demo", stdout=out)
        yield Seeded(at=at, output=out.getvalue())
        transaction.set_rollback(True)
