"""The cache backend for Redis: django-redis with IGNORE_EXCEPTIONS (a failed read is a
miss, a failed write is dropped, each logged), plus the two answers that setting gets
wrong for us while Redis is down:

- `get(key, default)` answers None instead of `default`; allauth's rate limiter reads
  its history with `get(key, [])` and cannot take None.
- `add()` answers None, i.e. "not added"; allauth's rate limiter takes a lock with
  `add()` and, never getting it, would refuse every sign-in for the whole outage.
  Rate limits go uncounted instead — fail open, for a few minutes, and logged — which
  keeps people able to sign in."""

from django_redis.cache import RedisCache


class OutageTolerantRedisCache(RedisCache):
    def get(self, key, default=None, version=None, client=None):
        value = super().get(key, default, version=version, client=client)
        return default if value is None else value

    def add(self, *args, **kwargs):
        added = super().add(*args, **kwargs)
        return True if added is None else added
