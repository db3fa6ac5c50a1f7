"""Fixtures the dashboards' tests share."""

import pytest
from django.core.cache import cache


@pytest.fixture
def kept(monkeypatch):
    """Everything written to the cache from now on."""
    written = []
    real_set, real_add, real_set_many = cache.set, cache.add, cache.set_many

    def spy(real, values):
        def write(first, *args, **kwargs):
            written.extend(values(first, args))
            return real(first, *args, **kwargs)

        return write

    monkeypatch.setattr(cache, "set", spy(real_set, lambda key, args: args[:1]))
    monkeypatch.setattr(cache, "add", spy(real_add, lambda key, args: args[:1]))
    monkeypatch.setattr(cache, "set_many", spy(real_set_many, lambda data, args: data.values()))
    return written
