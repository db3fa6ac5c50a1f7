"""/api/schema/ is generated and rendered once per process and format (core/api_docs.py):
half a second of a worker otherwise, for any signed-in person. What is kept is exactly
what was served, each format apart; only signed-in people get it; a changed setting
forgets it; and the Accept header cannot make the process keep more than a handful."""

import pytest
from django.conf import settings
from django.test import override_settings
from drf_spectacular.generators import SchemaGenerator

from core import api_docs

pytestmark = pytest.mark.django_db

JSON = "application/vnd.oai.openapi+json"
YAML = "application/vnd.oai.openapi"


@pytest.fixture(autouse=True)
def nothing_kept():
    api_docs._rendered.clear()
    yield
    api_docs._rendered.clear()


@pytest.fixture
def generated(monkeypatch):
    """How many times the schema was generated."""
    calls = []
    real = SchemaGenerator.get_schema

    def counting(self, *args, **kwargs):
        calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SchemaGenerator, "get_schema", counting)
    return calls


def test_the_second_reader_gets_what_the_first_got_without_generating_it_again(
    client, org, generated
):
    client.force_login(org.rep)
    first = client.get("/api/schema/", HTTP_ACCEPT=JSON)
    client.force_login(org.manager)
    second = client.get("/api/schema/", HTTP_ACCEPT=JSON)
    assert first.status_code == second.status_code == 200
    assert len(generated) == 1
    assert second.content == first.content
    for header in ("Content-Type", "Content-Disposition", "Vary", "Allow"):
        assert second[header] == first[header], header
    assert "/api/v1/me/" in second.json()["paths"]
    assert "/api/schema/" not in second.json()["paths"]


def test_each_format_is_kept_apart(client, org, generated):
    client.force_login(org.rep)
    as_json = client.get("/api/schema/", {"format": "json"})
    as_yaml = client.get("/api/schema/", HTTP_ACCEPT=YAML)
    again_json = client.get("/api/schema/", {"format": "json"})
    again_yaml = client.get("/api/schema/", HTTP_ACCEPT=YAML)
    assert len(generated) == 2
    assert as_json["Content-Type"].startswith("application/vnd.oai.openapi+json")
    assert as_yaml["Content-Type"].startswith("application/vnd.oai.openapi")
    assert as_yaml.content.startswith(b"openapi: ")
    assert again_json.content == as_json.content
    assert again_yaml.content == as_yaml.content
    assert as_json.content != as_yaml.content


def test_nobody_signed_out_gets_what_was_kept(client, org):
    client.force_login(org.rep)
    assert client.get("/api/schema/", HTTP_ACCEPT=JSON).status_code == 200
    client.logout()
    refused = client.get("/api/schema/", HTTP_ACCEPT=JSON)
    assert refused.status_code in (401, 403)
    assert b"/api/v1/me/" not in refused.content


def test_a_changed_setting_forgets_what_was_kept(client, org, generated):
    client.force_login(org.rep)
    client.get("/api/schema/", HTTP_ACCEPT=JSON)
    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK}):
        assert len(generated) == 1  # changing it forgot; the next reader generates
        client.get("/api/schema/", HTTP_ACCEPT=JSON)
        assert len(generated) == 2
        client.get("/api/schema/", HTTP_ACCEPT=JSON)
        assert len(generated) == 2
    client.get("/api/schema/", HTTP_ACCEPT=JSON)  # changed back: forgotten again
    assert len(generated) == 3


def test_however_many_accept_headers_a_handful_are_kept(client, org, monkeypatch):
    # A small schema: what is under test is how many renderings are kept, not what.
    small = {"openapi": "3.0.3", "info": {"title": "Tandem API", "version": "1"}, "paths": {}}
    monkeypatch.setattr(SchemaGenerator, "get_schema", lambda self, *a, **k: small)
    client.force_login(org.rep)
    for indent in range(api_docs.RENDERED_KEPT * 2):
        answer = client.get("/api/schema/", HTTP_ACCEPT=f"{JSON}; indent={indent}")
        assert answer.status_code == 200
        assert answer.json() == small
    assert len(api_docs._rendered) == api_docs.RENDERED_KEPT


def test_nothing_is_kept_when_each_reader_would_get_their_own_schema(
    client, org, generated, monkeypatch
):
    monkeypatch.setattr(api_docs.ApiSchemaView, "serve_public", False)
    client.force_login(org.rep)
    client.get("/api/schema/", HTTP_ACCEPT=JSON)
    client.get("/api/schema/", HTTP_ACCEPT=JSON)
    assert len(generated) == 2
    assert api_docs._rendered == {}
