"""Redis down: the pages keep working. The cache (django-redis) answers a failed read
as a miss and drops a failed write, giving up on a dead server within half a second;
the HR overview is then computed per request and sign-in rate limits go uncounted
until Redis is back."""

import json
import os
import subprocess
import sys
import time

import pytest
from django.test import override_settings

from tests.support.factories import PASSWORD

DEAD_REDIS = {
    "default": {
        "BACKEND": "core.cache.OutageTolerantRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": 0.5,
            "SOCKET_TIMEOUT": 0.5,
        },
    }
}


def test_a_redis_cache_url_gets_the_fallback_options():
    script = (
        "import json, django; django.setup(); from django.conf import settings; "
        "print(json.dumps(settings.CACHES['default']))"
    )
    env = {**os.environ, "CACHE_URL": "redis://127.0.0.1:1/0"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {
        **DEAD_REDIS["default"],
        "LOCATION": "redis://127.0.0.1:1/0",
    }


@pytest.mark.django_db
@override_settings(CACHES=DEAD_REDIS)
def test_sign_in_pages_dashboards_and_the_api_work_without_the_cache(client, org):
    started = time.monotonic()
    signed_in = client.post("/accounts/login/", {"login": org.hr.email, "password": PASSWORD})
    assert signed_in.status_code == 302
    assert client.get("/hr/").status_code == 200
    assert client.get("/api/v1/health/organisation/").status_code == 200
    assert time.monotonic() - started < 10  # connection refused: no waiting on timeouts


def _cache(location):
    from core.cache import OutageTolerantRedisCache

    options = {**DEAD_REDIS["default"]["OPTIONS"]}
    return OutageTolerantRedisCache(location, {"OPTIONS": options})


def test_while_redis_is_down_reads_answer_the_default_and_locks_are_granted():
    cache = _cache("redis://127.0.0.1:1/0")
    assert cache.get("history", []) == []
    assert cache.add("history:lock", True) is True
    cache.set("history", [1])  # dropped, not raised


def test_with_redis_up_it_behaves_as_any_cache():
    import redis

    try:
        redis.Redis(host="127.0.0.1", port=6379, socket_connect_timeout=0.5).ping()
    except redis.exceptions.ConnectionError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    cache = _cache("redis://127.0.0.1:6379/14")
    cache.delete("tandem-test-lock")
    assert cache.get("tandem-test-lock", []) == []
    assert cache.add("tandem-test-lock", True, timeout=5) is True
    assert cache.add("tandem-test-lock", True, timeout=5) is False
    assert cache.get("tandem-test-lock") is True
    cache.delete("tandem-test-lock")
