"""The production settings for bench/pages.py, untouched but for one thing: static
files are collected into the benchmark's own folder (TANDEM_BENCH_STATIC_ROOT, under
var/) instead of ./staticfiles, which production's manifest storage needs and which
no environment variable moves. Everything else (DEBUG off, the security middleware,
manifest static files, database sessions, the API throttle) is production's."""

import os

from config.settings.production import *  # noqa: F403

STATIC_ROOT = os.environ["TANDEM_BENCH_STATIC_ROOT"]
