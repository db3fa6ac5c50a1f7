import pytest
from django.db import connection


@pytest.fixture
def unreachable_database():
    """Point the default connection at a database that cannot be reached, for real."""
    saved = dict(connection.settings_dict)
    connection.close()
    if connection.vendor == "postgresql":
        connection.settings_dict.update(HOST="127.0.0.1", PORT="1")
    else:
        connection.settings_dict["NAME"] = "/nonexistent-dir/tandem.sqlite3"
    yield
    connection.close()
    connection.settings_dict.clear()
    connection.settings_dict.update(saved)
