"""The demo (`make run`: bin/run-demo) shows Tandem's own 404 and 403 pages, never
Django's debug pages: it runs the local settings with DEBUG off, and static files are
still served (WhiteNoise, from the apps' folders). `manage.py runserver` alone keeps
DEBUG on for development."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.learning_loop import plan

ROOT = Path(__file__).resolve().parents[2]

# Run under the demo's settings in a process of its own (settings are read once).
DEMO_REQUESTS = """
import django
django.setup()
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from core.error_pages import permission_denied

assert settings.DEBUG is False
client = Client(SERVER_NAME="localhost", enforce_csrf_checks=True)
missing = client.get("/no-such-page/")
print("404", missing.status_code, missing.content.decode())
forged = client.post("/accounts/login/", {"login": "a@example.com", "password": "x"})
print("403csrf", forged.status_code, forged.content.decode())
refused = permission_denied(
    RequestFactory(SERVER_NAME="localhost").get("/experiments/1/start/"),
    PermissionDenied("Only the person running an experiment changes it."),
)
print("403", refused.status_code, refused.content.decode())
css = client.get("/static/css/app.css")
print("css", css.status_code, b"".join(css.streaming_content)[:40])
"""


def demo_answers(tmp_path) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        "DEBUG": "false",  # what bin/run-demo exports
        "TANDEM_VAR_DIR": str(tmp_path),
    }
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", DEMO_REQUESTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    answers, key = {}, None
    for line in done.stdout.splitlines():
        head = line.split(" ", 1)[0]
        if head in ("404", "403csrf", "403", "css"):
            key = head
            answers[key] = line[len(head) + 1 :]
        elif key:
            answers[key] += "\n" + line
    return answers


def test_the_demo_script_turns_debug_off_unless_asked():
    script = (ROOT / "bin" / "run-demo").read_text()
    assert 'export DEBUG="${DEBUG:-false}"' in script


def test_under_the_demos_settings_404_and_403_are_tandems_own_pages(tmp_path):
    answers = demo_answers(tmp_path)
    assert answers["404"].startswith("404 ")
    assert "<title>Not found · Tandem</title>" in answers["404"]
    assert "Back to Tandem" in answers["404"]
    assert answers["403csrf"].startswith("403 ")
    assert "<h1>This form has expired</h1>" in answers["403csrf"]
    assert answers["403"].startswith("403 ")
    assert "<title>Not allowed · Tandem</title>" in answers["403"]
    assert "Only the person running an experiment changes it." in answers["403"]
    for page in (answers["404"], answers["403csrf"], answers["403"]):
        assert "Django" not in page and "Traceback" not in page
        assert '<link rel="stylesheet" href="/static/css/app.css">' in page
    assert answers["css"].startswith("200 ")  # the pages' styles are still served


@pytest.mark.django_db
def test_a_refusal_on_a_page_is_the_403_page_with_its_words(client, org):
    experiment = plan(org.rep)
    client.force_login(org.manager)
    refused = client.post(f"/experiments/{experiment.pk}/start/")
    assert refused.status_code == 403
    body = refused.content.decode()
    assert "<h1>Not allowed</h1>" in body
    assert "Only the person running an experiment changes it." in body


@pytest.mark.django_db
def test_a_refusal_under_the_api_path_is_json(client, org):
    from django.core.exceptions import PermissionDenied
    from django.test import RequestFactory

    from core.error_pages import permission_denied

    request = RequestFactory().get("/api/v1/anything/")
    answer = permission_denied(request, PermissionDenied("Not yours."))
    assert answer.status_code == 403 and answer["Content-Type"] == "application/json"
