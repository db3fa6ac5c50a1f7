"""Check a test client's response against the OpenAPI schema the API publishes, the way
the fuzzing test does (tests/config/test_api_fuzz.py)."""

import json
from functools import cache

import requests
import schemathesis
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer


def published_schema() -> dict:
    """The schema exactly as /api/schema/ serves it (as JSON)."""
    return json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(public=True)))


@cache
def loaded_schema():
    return schemathesis.openapi.from_dict(published_schema())


def assert_conforms(response, method: str, path: str) -> None:
    """`path` is the schema's template, e.g. "/api/v1/wins/{id}/". Raises with the
    mismatch when the status, content type or body is not what the schema declares."""
    operation = loaded_schema()[path][method.upper()]
    request = requests.Request(method.upper(), f"http://testserver{path}").prepare()
    answer = schemathesis.Response(
        status_code=response.status_code,
        headers={name: [value] for name, value in response.headers.items()},
        content=response.content,
        request=request,
        elapsed=0.0,
        verify=False,
    )
    operation.validate_response(answer)
