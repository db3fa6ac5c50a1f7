"""`manage.py` run in a subprocess under production settings, with a key and a mail
server that pass the checks."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


GOOD_KEY = "k3y-" + "x7Qp9LmZ2vB8nR4tW6yU1cE5aS0dF3gH-jK8lP2oI9uY7tR5eW3q"


MAIL_SERVER = "smtp+tls://tandem:secret@smtp.example.com:587"


def manage(*args, env_overrides, settings="config.settings.production"):
    # Start from the real environment minus what the test settings put into it.
    dropped = (
        "DJANGO_",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "ACCOUNT_EMAIL_VERIFICATION",
        "CELERY_TASK_ALWAYS_EAGER",
        "DEBUG",
        "EMAIL_URL",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    env.update(DJANGO_SETTINGS_MODULE=settings, **env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
