"""Developer and demo machine: the embedded defaults, debug on, no mail verification."""

import os

os.environ.setdefault("SECRET_KEY", "insecure-local-only-key-never-use-in-production")
os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
os.environ.setdefault("ACCOUNT_EMAIL_VERIFICATION", "none")

from .base import *  # noqa: E402,F403
