"""Production settings refuse to start half-configured and pass check --deploy."""

import tomllib

import pytest

from tests.support.production_settings import GOOD_KEY, MAIL_SERVER, ROOT, manage


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS"])
def test_it_refuses_to_start_without(missing):
    env = {"SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "coaching.example.com"}
    del env[missing]
    result = manage("check", env_overrides=env)
    assert result.returncode != 0
    assert missing in result.stderr


def test_it_refuses_a_short_or_development_secret_key():
    result = manage(
        "check",
        env_overrides={
            "SECRET_KEY": "insecure-local-only-key-never-use-in-production",
            "ALLOWED_HOSTS": "coaching.example.com",
        },
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_check_deploy_passes_with_no_warnings():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env_overrides={
            "SECRET_KEY": GOOD_KEY,
            "ALLOWED_HOSTS": "coaching.example.com",
            "EMAIL_URL": MAIL_SERVER,
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize("email_url", [None, "consolemail://"])
def test_check_deploy_refuses_mail_that_goes_nowhere(email_url):
    env = {"SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "coaching.example.com"}
    if email_url:
        env["EMAIL_URL"] = email_url
    result = manage("check", "--deploy", env_overrides=env)
    assert result.returncode != 0
    assert "tandem.E001" in result.stderr and "EMAIL_URL" in result.stderr, result.stderr


def test_migrate_refuses_mail_that_goes_nowhere_so_compose_starts_nothing():
    env = {"SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "coaching.example.com"}
    result = manage("migrate", "--plan", env_overrides=env)
    assert result.returncode != 0
    assert "tandem.E001" in result.stderr, result.stderr


def test_the_local_settings_keep_printing_mail_for_make_run():
    result = manage("check", env_overrides={}, settings="config.settings.local")
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_has_no_demo_or_scale_data_and_no_command_to_seed_them():
    env = {"SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "coaching.example.com"}
    apps = manage(
        "shell",
        "-c",
        "from django.conf import settings; print('devdata' in settings.INSTALLED_APPS)",
        env_overrides=env,
    )
    assert apps.stdout.split()[-1] == "False", apps.stdout + apps.stderr
    for command in ("seed_demo", "seed_scale"):
        result = manage("help", command, env_overrides=env)
        assert result.returncode != 0
        assert f"Unknown command: '{command}'" in result.stderr, result.stderr
    local = manage("help", "seed_demo", env_overrides={}, settings="config.settings.local")
    assert local.returncode == 0, local.stdout + local.stderr


def test_the_package_and_the_image_leave_out_the_dev_only_code():
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = found["packages"]["find"]
    assert "devdata*" in found["exclude"]
    assert not any(name.startswith(("devdata", "tests", "bench")) for name in found["include"])
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {"devdata", "tests", "bench"} <= set(ignored)


def test_email_verification_is_mandatory_and_cookies_are_secure():
    result = manage(
        "shell",
        "-c",
        "from django.conf import settings as s; print(s.ACCOUNT_EMAIL_VERIFICATION, "
        "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.DEBUG)",
        env_overrides={"SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "coaching.example.com"},
    )
    assert result.stdout.split()[-5:] == ["mandatory", "True", "True", "True", "False"]


def test_behind_a_proxy_sign_in_limits_count_the_clients_address_not_the_proxys():
    script = (
        "from django.test import RequestFactory; "
        "from allauth.core.internal.httpkit import get_client_ip; "
        "r = RequestFactory().get('/', REMOTE_ADDR='10.0.0.2', "
        "HTTP_X_FORWARDED_FOR='198.51.100.7, 203.0.113.9'); print(get_client_ip(r))"
    )
    env = {"SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "coaching.example.com"}
    untrusted = manage("shell", "-c", script, env_overrides=env)
    assert untrusted.stdout.split()[-1] == "10.0.0.2"  # X-Forwarded-For can be forged
    one_proxy = manage("shell", "-c", script, env_overrides={**env, "TRUSTED_PROXY_COUNT": "1"})
    assert one_proxy.stdout.split()[-1] == "203.0.113.9"  # what our one proxy saw


def test_behind_pgbouncer_in_transaction_mode_server_side_cursors_can_be_turned_off():
    script = (
        "from django.conf import settings; "
        "print(settings.DATABASES['default']['DISABLE_SERVER_SIDE_CURSORS'])"
    )
    env = {"SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "coaching.example.com"}
    default = manage("shell", "-c", script, env_overrides=env)
    assert default.stdout.split()[-1] == "False"
    pooled = manage(
        "shell", "-c", script, env_overrides={**env, "DISABLE_SERVER_SIDE_CURSORS": "true"}
    )
    assert pooled.stdout.split()[-1] == "True"


@pytest.mark.parametrize("days", ["0", "-3"])
def test_it_refuses_a_notification_retention_of_no_days(days):
    env = {
        "SECRET_KEY": GOOD_KEY,
        "ALLOWED_HOSTS": "coaching.example.com",
        "NOTIFICATION_RETENTION_DAYS": days,
    }
    result = manage("check", env_overrides=env)
    assert result.returncode != 0
    assert "NOTIFICATION_RETENTION_DAYS must be a whole number of days from 1" in result.stderr
