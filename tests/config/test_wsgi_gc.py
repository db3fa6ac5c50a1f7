"""The WSGI entry point hands what it loaded to the garbage collector's permanent
generation (see config/wsgi.py), so full collections in a request walk only what
requests create."""

import gc


def test_loading_the_wsgi_application_freezes_what_it_loaded():
    import config.wsgi  # noqa: F401  (loaded once per process; freezing is idempotent)

    assert gc.get_freeze_count() > 10_000
