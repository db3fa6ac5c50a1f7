"""Under production settings (not the test settings), a real request through the
whole middleware stack gets the security headers: HTTPS enforced (a redirect, HSTS
with subdomains and preload), a strict Content-Security-Policy without inline
script, no framing, no sniffing, a same-origin referrer and opener policy, and
cookies that are Secure and HttpOnly (the session's) — on pages, on the API and on
a 404. /healthz stays reachable over plain HTTP for load balancers.

Runs in a subprocess, as `test_production_settings` does, since settings modules
cannot be swapped inside one process."""

import json

from tests.support.production_settings import GOOD_KEY, MAIL_SERVER, manage

SCRIPT = r"""
import json
from django.test import Client
from django.conf import settings
from django.test.utils import override_settings, setup_test_environment
setup_test_environment()  # allow the test client's host and collect responses
# The hashed-name manifest is built by collectstatic when the image is built; headers
# do not depend on it, so static URLs are plain here.
override_settings(STORAGES={**settings.STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}).enable()
from django.core.management import call_command
call_command("migrate", verbosity=0)  # an in-memory database of its own
c = Client(HTTP_HOST="coaching.example.com")
out = {}
def take(name, response):
    out[name] = {
        "status": response.status_code,
        "headers": dict(response.items()),
        "cookies": {
            k: {"secure": bool(m["secure"]), "httponly": bool(m["httponly"]),
                "samesite": m["samesite"]}
            for k, m in response.cookies.items()
        },
    }
take("plain_http", c.get("/accounts/login/"))
take("sign_in", c.get("/accounts/login/", secure=True))
take("missing", c.get("/no-such-page/", secure=True))
take("api", c.get("/api/v1/me/", secure=True))
take("healthz_http", c.get("/healthz"))
print("RESULT" + json.dumps(out))
"""


_seen: dict = {}


def run() -> dict:
    if not _seen:
        _seen.update(_run())
    return _seen


def _run() -> dict:
    result = manage(
        "shell",
        "-c",
        SCRIPT,
        env_overrides={
            "SECRET_KEY": GOOD_KEY,
            "ALLOWED_HOSTS": "coaching.example.com",
            "DATABASE_URL": "sqlite:///:memory:",
            "EMAIL_URL": MAIL_SERVER,  # migrate runs the checks, which refuse console mail
        },
    )
    line = next((x for x in result.stdout.splitlines() if x.startswith("RESULT")), None)
    assert line, result.stdout + result.stderr
    return json.loads(line.removeprefix("RESULT"))


def test_production_headers_on_pages_api_and_errors():
    seen = run()
    assert seen["plain_http"]["status"] == 301
    assert seen["plain_http"]["headers"]["Location"].startswith("https://coaching.example.com/")
    for name in ("sign_in", "missing", "api"):
        headers = seen[name]["headers"]
        assert headers["Strict-Transport-Security"] == (
            "max-age=31536000; includeSubDomains; preload"
        ), name
        assert headers["X-Content-Type-Options"] == "nosniff", name
        assert headers["Referrer-Policy"] == "same-origin", name
        assert headers["Cross-Origin-Opener-Policy"] == "same-origin", name
        assert headers["X-Frame-Options"] == "DENY", name
        csp = headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, name
        script = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
        assert "unsafe-inline" not in script and "unsafe-eval" not in script, name
    assert seen["sign_in"]["status"] == 200
    assert seen["missing"]["status"] == 404
    assert seen["api"]["status"] == 401
    cookies = seen["sign_in"]["cookies"]
    assert cookies, "the sign-in form sets its CSRF cookie"
    assert all(c["secure"] for c in cookies.values()), cookies


def test_healthz_answers_over_plain_http():
    seen = run()
    assert seen["healthz_http"]["status"] != 301


def test_the_subprocess_uses_the_production_settings():
    probe = manage(
        "shell",
        "-c",
        "from django.conf import settings as s; print(s.SETTINGS_MODULE, s.DEBUG)",
        env_overrides={"SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "coaching.example.com"},
    )
    assert "config.settings.production False" in probe.stdout, probe.stdout + probe.stderr
