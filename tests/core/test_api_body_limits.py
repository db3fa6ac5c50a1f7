"""Bodies built to break the parser, not the rules: every API operation the schema
gives a request body is sent, by someone the authorization matrix says gets past its
access checks, JSON nested a thousand levels deep (arrays, objects), one level past
the limit, and a body over DATA_UPLOAD_MAX_MEMORY_SIZE. Each is a 400 in the API's
error shape saying why; nothing is written, and nothing is logged as an error (a
RecursionError here was a 500 with its traceback logged every time)."""

import io
import logging

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client
from rest_framework.exceptions import ParseError

from core.parsers import MAX_DEPTH, BoundedJSONParser
from tests.support.api_schema import published_schema
from tests.support.authz import ROLES, matrix_build
from tests.support.row_counts import row_counts
from tests.support.world import world  # noqa: F401 - the fixture
from tests.test_authorization_matrix import (
    EXPECTED,
    _operations,
    _routes,
    _schema_operations,
    variants,
)

LEVELS = 1000
# What a request may answer when its access checks let the requester through.
REFUSED_BEFORE_THE_BODY = {"401", "403", "404", "405", "login", "admin-login"}


def nested_arrays(levels: int) -> str:
    return "[" * levels + "]" * levels


def nested_objects(levels: int) -> str:
    return '{"a": ' * levels + "1" + "}" * levels


BODIES = {
    "arrays 1,000 deep": (nested_arrays(LEVELS), "too deeply"),
    "objects 1,000 deep": (nested_objects(LEVELS), "too deeply"),
    "one level past the limit": (nested_objects(MAX_DEPTH + 1), "too deeply"),
    "over the size limit": (
        '{"text": "' + "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE + '"}',
        "too large",
    ),
}


def json_writes() -> list[tuple[str, str]]:
    """(method, route key) of every API operation with a request body."""
    with_body = {
        (method.upper(), path)
        for path, item in published_schema()["paths"].items()
        for method, operation in item.items()
        if "requestBody" in operation
    }
    return [(m, key) for m, path, key in _schema_operations() if (m, path) in with_body]


def reachable(route, method, key, matrix):
    """A (role, path) whose request gets past the access checks, or None."""
    for variant, values in variants(route, matrix).items():
        for role in ROLES:
            if role in ("anonymous", "gone"):
                continue
            want = EXPECTED[(key, role)]
            want = want.get(variant) if isinstance(want, dict) else want
            if want and want not in REFUSED_BEFORE_THE_BODY:
                return role, route.path(**values)
    return None


def test_a_body_at_the_limit_is_read_and_one_level_more_is_not():
    parser = BoundedJSONParser()
    at_the_limit = parser.parse(io.BytesIO(nested_objects(MAX_DEPTH).encode()))
    assert at_the_limit["a"]["a"]
    with pytest.raises(ParseError, match="too deeply"):
        parser.parse(io.BytesIO(nested_arrays(MAX_DEPTH + 1).encode()))


@pytest.mark.django_db
def test_a_form_body_with_too_many_fields_is_a_400_saying_so(org):
    client = Client()
    client.force_login(org.rep)
    fields = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    response = client.post(
        "/api/v1/goals/", fields, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "Too many fields: at most 1,000."}


@pytest.mark.django_db
def test_every_json_write_refuses_a_deep_or_huge_body_and_writes_nothing(world, caplog):  # noqa: F811
    matrix = matrix_build(world)
    clients = {}
    writes = set(json_writes())
    assert len(writes) > 60
    tried, unreachable, wrong = set(), [], []
    caplog.set_level(logging.ERROR)
    for route in _routes():
        if route.namespace != "api":
            continue
        for method, key in _operations(route):
            if (method, route.key) not in writes:
                continue
            found = reachable(route, method, key, matrix)
            if found is None:
                unreachable.append(f"{method} {route.key}")
                continue
            role, path = found
            client = clients.setdefault(role, Client())
            client.force_login(matrix.person(role))
            tried.add((method, route.key))
            for name, (body, says) in BODIES.items():
                with transaction.atomic():
                    before = row_counts()
                    response = getattr(client, method.lower())(
                        path, body, content_type="application/json"
                    )
                    after = row_counts()
                    transaction.set_rollback(True)
                at = f"{method} {path} as {role}, {name}"
                if response.status_code != 400:
                    wrong.append(f"{at}: {response.status_code} {response.content[:200]!r}")
                elif says not in response.json().get("detail", ""):
                    wrong.append(f"{at}: {response.json()}")
                elif before != after:
                    wrong.append(f"{at}: rows changed")
    assert not wrong, "\n".join(wrong)
    # Every operation with a body is reached by someone the table lets through.
    assert not unreachable, unreachable
    assert tried == writes
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[:2000]
