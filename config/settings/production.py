"""Production: refuses to start without SECRET_KEY and ALLOWED_HOSTS (base reads them
with no default), HTTPS only, mandatory email verification, mail that is really sent
(a system check refuses EMAIL_URL's console default), and passes
`manage.py check --deploy` with no warnings."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import ALLOWED_HOSTS, SECRET_KEY, env

if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Set ALLOWED_HOSTS (comma-separated host names).")
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("insecure"):
    raise ImproperlyConfigured("Set SECRET_KEY to a long random value (50+ characters).")

DEBUG = False
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
# EMAIL_URL unset (mail printed to the log) or a backend that sends nothing is a system
# check error (tandem.E001, core/checks.py): `check`, `check --deploy` and `migrate`
# refuse, so docker-compose's migration fails before anything starts.
EMAIL_MUST_BE_DELIVERED = True

SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
# Sign-in rate limits count per client address. Behind a load balancer every request
# comes from the balancer, so without these all sign-ins would share one limit (30 a
# minute): name how many proxies of yours append to X-Forwarded-For, or the header
# your proxy puts the client's address in (X-Real-IP, CF-Connecting-IP).
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = env.str("TRUSTED_CLIENT_IP_HEADER", default="") or None
# /healthz is probed over plain HTTP by load balancers and container health checks.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
