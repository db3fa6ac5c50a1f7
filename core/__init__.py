"""The bottom layer every app may use: the API's plumbing (exception handler, strict
serializers, parser, schema hooks), error pages, /healthz, system checks, the cache
and broker backends, the admin's middleware, the periodic-task registry, the keeping
of what is computed per refresh slot, and small helpers for queries, forms, paging and
widgets. It imports no app (the layers contract in pyproject.toml)."""
