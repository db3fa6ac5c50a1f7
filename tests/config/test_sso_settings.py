"""Optional OIDC single sign-on is switched on by environment variables only."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def providers(**env_overrides):
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.local", **env_overrides)
    code = "from django.conf import settings; print(settings.SOCIALACCOUNT_PROVIDERS)"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_sso_is_off_without_a_client_id():
    assert providers(OIDC_CLIENT_ID="") == "{}"


def test_sso_is_configured_from_the_environment():
    out = providers(
        OIDC_CLIENT_ID="tandem",
        OIDC_CLIENT_SECRET="s3cret",
        OIDC_SERVER_URL="https://id.example.com/realms/acme",
        OIDC_PROVIDER_NAME="Acme SSO",
    )
    assert "'provider_id': 'sso'" in out
    assert "'name': 'Acme SSO'" in out
    assert "'server_url': 'https://id.example.com/realms/acme'" in out


def test_sso_without_a_secret_refuses_to_start():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.local", OIDC_CLIENT_ID="tandem")
    env.pop("OIDC_CLIENT_SECRET", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "OIDC_CLIENT_SECRET" in result.stderr
