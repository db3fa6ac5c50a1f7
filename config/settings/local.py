"""Developer and demo machine: the embedded defaults, debug on, no mail verification."""

import os

os.environ.setdefault("SECRET_KEY", "insecure-local-only-key-never-use-in-production")
os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
os.environ.setdefault("ACCOUNT_EMAIL_VERIFICATION", "none")

from .base import *  # noqa: E402,F403

# The demo organisation and the data at scale (`seed_demo`, `seed_scale`): development
# only, never in production's settings (devdata/README.md).
INSTALLED_APPS = [*INSTALLED_APPS, "devdata"]  # noqa: F405

# The demo (`make run`: bin/run-demo) runs with DEBUG off, so visitors meet Tandem's
# own 404, 403 and 500 pages, never Django's debug pages; `manage.py runserver` on its
# own keeps DEBUG on for development. With DEBUG off, runserver serves no static files:
# WhiteNoise (in the middleware already) serves them straight from the apps' folders,
# with no collectstatic and no manifest to build first.
if not DEBUG:  # noqa: F405
    STORAGES = {  # noqa: F405
        **STORAGES,  # noqa: F405
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    WHITENOISE_USE_FINDERS = True
    WHITENOISE_AUTOREFRESH = True
