# syntax=docker/dockerfile:1
# check=skip=SecretsUsedInArgOrEnv
# (The only "secret" build arg is a dummy SECRET_KEY for collectstatic; see below.)
#
# One image for every process: web (the default command), celery worker, celery beat
# and the one-shot migrate job. See docker-compose.yml and docs/operations.md.

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    DJANGO_SETTINGS_MODULE=config.settings.production
# Import the project from the source tree, not the copy pip puts in site-packages:
# BASE_DIR (templates/, static/, staticfiles/) is derived from the settings' path.
ENV PYTHONPATH=/app
# gunicorn worker processes (each runs the threads given in CMD); override per host.
ENV WEB_CONCURRENCY=3

RUN groupadd --system --gid 1000 tandem \
 && useradd --system --uid 1000 --gid tandem --create-home --home-dir /home/tandem \
        --shell /usr/sbin/nologin tandem

WORKDIR /app
# .dockerignore leaves out what production never runs: devdata/ (the demo and scale
# data, with seed_demo and seed_scale), tests/ and bench/.
COPY . .

# Dependencies come from pyproject.toml, pinned by the pip-freeze constraints file.
RUN pip install -c requirements.lock .

# Only used if the embedded defaults (SQLite, filesystem broker) are run in the image.
RUN mkdir -p /app/var && chown tandem:tandem /app/var

# Production settings refuse to load without SECRET_KEY and ALLOWED_HOSTS. These dummy
# build args exist only for collectstatic; they are not part of the image's runtime
# environment, so the container still needs the real values — and EMAIL_URL, your mail
# server: production's system checks (migrate, check --deploy) refuse console mail.
ARG SECRET_KEY=collectstatic-only-dummy-key-never-used-at-runtime-0123456789abcdef
ARG ALLOWED_HOSTS=build.invalid
RUN python manage.py collectstatic --noinput

USER tandem
EXPOSE 8000

# Django rejects a Host header not in ALLOWED_HOSTS (400), so probe with the first one.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request as u; h = os.environ.get('ALLOWED_HOSTS', '').split(',')[0].strip().lstrip('.*') or 'localhost'; u.urlopen(u.Request('http://127.0.0.1:8000/healthz', headers={'Host': h}), timeout=4)"]

CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--threads", "4", "--timeout", "60", "--access-logfile", "-"]
