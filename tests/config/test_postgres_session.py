"""Each PostgreSQL connection starts with JIT off (config/settings/base.py): compiling
cost more than running for the app's short queries (docs/operations.md)."""

import pytest
from django.db import connection

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_every_connection_runs_without_jit():
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"
