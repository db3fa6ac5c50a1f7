"""Settings shared by every environment. Everything configurable comes from the
environment (see docs/configuration.md); the defaults are the embedded,
single-machine shape: SQLite, kombu's filesystem broker, local-memory cache."""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

env = environ.Env()

BASE_DIR = Path(__file__).resolve().parent.parent.parent
# Where the embedded defaults keep their files: SQLite database, filesystem broker.
VAR_DIR = Path(env.str("TANDEM_VAR_DIR", default=str(BASE_DIR / "var")))

SECRET_KEY = env.str("SECRET_KEY")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://localhost:8000")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    # Third party
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "django_htmx",
    "csp",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
    # Ours, in dependency order (docs/architecture.md): core at the bottom
    "core",
    "people",
    "notifications",
    "scorecards",
    "coaching",
    "peers",
    "learning",
    "feedback",
    "cadence",
    "dashboards",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Every page needs sign-in unless marked @login_not_required (allauth marks its
    # public views; DRF marks API views and answers 401 itself).
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    # The admin site is a 404 for the signed-in who are not staff (core/admin_access.py).
    "core.admin_access.AdminHiddenFromOthers",
    "people.middleware.ViewerTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "core.admin_input.AdminAddressWithoutNul",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "people.context_processors.roles",
                "notifications.context_processors.unread",
            ],
        },
    },
]

# Django's default renderer with the widget templates written in Python (the same
# markup, a fraction of the time: core/widgets.py).
FORM_RENDERER = "core.widgets.FastFormRenderer"
# Up to this many people a form lists them all; beyond, it offers a search box
# (people/pickers.py): a list of the whole organisation is unreadable and heavy.
PEOPLE_PICKER_LIST_UP_TO = env.int("PEOPLE_PICKER_LIST_UP_TO", default=40)

# --- Data ---------------------------------------------------------------------
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'tandem.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Behind PgBouncer in transaction pooling mode a server-side cursor would outlive the
# transaction that holds its connection (docs/operations.md, "Scaling past one machine").
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env.bool(
    "DISABLE_SERVER_SIDE_CURSORS", default=False
)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # PostgreSQL's JIT compiles any query whose estimated cost passes jit_above_cost,
    # and the planner prices a visibility rule's correlated subqueries as if each ran
    # for every row: a rep's list of scorecards spent far longer compiling than working
    # (docs/performance.md). A web app's queries are short; compiling never pays.
    # Behind PgBouncer, which refuses this start-up parameter, set
    # POSTGRES_OPTIONS="" and `ALTER DATABASE … SET jit = off` instead.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = env.str(
        "POSTGRES_OPTIONS", default="-c jit=off"
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a web process and a worker at once: wait on locks
    # instead of failing with "database is locked", and write-ahead log for readers.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    if DATABASES["default"]["NAME"] != ":memory:":
        Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # IMMEDIATE also makes the notification outbox's claim safe on SQLite, where
    # SELECT … FOR UPDATE SKIP LOCKED does nothing: each claim holds the write lock.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://tandem")}
# django-environ picks a Redis backend by what is installed; ours is always the same.
if CACHES["default"]["BACKEND"].endswith(".RedisCache"):
    # A Redis outage must not take the pages down: a failed read is a miss, a failed
    # write is dropped (each logged), a dead server is given up on within half a
    # second (core/cache.py). Meanwhile snapshots are computed per request and
    # sign-in rate limits are not counted; both come back with Redis.
    CACHES["default"]["BACKEND"] = "core.cache.OutageTolerantRedisCache"
    CACHES["default"].setdefault("OPTIONS", {}).update(
        IGNORE_EXCEPTIONS=True, SOCKET_CONNECT_TIMEOUT=0.5, SOCKET_TIMEOUT=0.5
    )
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True

# --- People and sign-in ------------------------------------------------------
AUTH_USER_MODEL = "people.User"
# allauth's backend alone: it is Django's ModelBackend (permissions, the admin) signing in
# by email. Listed beside ModelBackend, a wrong password was hashed by both — twice the
# CPU a failed attempt costs (a hash at production's PBKDF2 iterations is slow on purpose).
AUTHENTICATION_BACKENDS = ["allauth.account.auth_backends.AuthenticationBackend"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "dashboards:home"
LOGOUT_REDIRECT_URL = "account_login"

ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
# Setting a password from the emailed link signs the person in: the welcome email's link
# is how most people arrive, and a "password changed" page with nowhere to go is a dead end.
ACCOUNT_LOGIN_ON_PASSWORD_RESET = True
ACCOUNT_SESSION_REMEMBER = None
ACCOUNT_ADAPTER = "people.adapters.AccountAdapter"
SOCIALACCOUNT_ADAPTER = "people.adapters.SocialAccountAdapter"
# allauth's rate limits are on by default; they need a real cache (see CACHES).
# Failed password sign-ins are keyed so that nobody can lock a colleague out
# (people/sign_in_limits.py; docs/security.md#signing-in-under-attack).
ACCOUNT_RATE_LIMITS = {
    # per address, and per account from one address (allauth's; it also counts wrong
    # MFA codes, per person)
    "login_failed": "10/m/ip,5/5m/key",
    # per account from every address: a guess spread over many is still capped
    "login_failed_account": "20/h/key",
    # per account from a browser that has signed in to it before (exempt from the two above)
    "login_failed_known_device": "5/5m/key",
    "reset_password": "20/m/ip,5/m/key",
    # asking for a sign-in code: per address, and per email address (each one sends mail)
    "request_login_code": "20/m/ip,3/m/key",
}
# The way in when the account's limit holds: a one-time code sent by email. It is the
# same proof as "Forgot your password?" (the inbox), and MFA is still asked after it.
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = env.str("MFA_TOTP_ISSUER", default="Tandem")

# Optional OpenID Connect single sign-on: on when OIDC_CLIENT_ID is set.
# Accounts are never created by SSO; the email must belong to an imported person.
OIDC_CLIENT_ID = env.str("OIDC_CLIENT_ID", default="")
SOCIALACCOUNT_ONLY = False
SOCIALACCOUNT_EMAIL_AUTHENTICATION = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT = True
SOCIALACCOUNT_PROVIDERS = {}
if OIDC_CLIENT_ID:
    SOCIALACCOUNT_PROVIDERS["openid_connect"] = {
        "APPS": [
            {
                "provider_id": env.str("OIDC_PROVIDER_ID", default="sso"),
                "name": env.str("OIDC_PROVIDER_NAME", default="Single sign-on"),
                "client_id": OIDC_CLIENT_ID,
                "secret": env.str("OIDC_CLIENT_SECRET"),
                "settings": {"server_url": env.str("OIDC_SERVER_URL")},
            }
        ],
        "EMAIL_AUTHENTICATION": True,
        "VERIFIED_EMAIL": True,
    }

# Who may sign up: nobody. People arrive by import or from an admin.
TANDEM_OPEN_SIGNUP = False

# Django's database store, with whose session each row is: deactivating someone ends
# all their sessions at once (people/sessions.py).
SESSION_ENGINE = "people.sessions"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=60 * 60 * 24 * 14)
CSRF_COOKIE_SAMESITE = "Lax"

# --- Security headers (the same everywhere; production adds HTTPS-only ones) ----
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# --- Internationalisation and time ------------------------------------------
LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files -------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- Email ----------------------------------------------------------------------
# The default prints mail to the log: right for `make run` and tests, never for
# production, whose settings turn on a check that refuses it (core/checks.py).
globals().update(env.email_url("EMAIL_URL", default="consolemail://"))
EMAIL_MUST_BE_DELIVERED = False
# A stuck mail server must not hold a worker (or a notification claim) for ever.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=20)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Tandem <tandem@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- API ------------------------------------------------------------------------
# The largest request body read into memory (Django's default, said here because the
# API's answer names it): anything larger is a 400 (core/api.py, core/error_pages.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # 2.5 MB
REST_FRAMEWORK = {
    # JSON nested deeper than 32 levels is a 400 (core/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Token first so an anonymous request gets 401 with WWW-Authenticate.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "core.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.UserRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"user": env.str("API_USER_RATE", default="2000/hour")},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tandem API",
    "DESCRIPTION": "Coaching programme platform. Every list is scoped to what the "
    "signed-in person may see; anything else is 404.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Choices that share a field name with others get a name of their own here, so none
    # gets a hash for a name: `kind` (every kind of session; the four a cadence policy
    # holds) and `roles` (the appointed two, beside every role `/me` reports).
    "ENUM_NAME_OVERRIDES": {
        "SessionKindEnum": "coaching.models.SessionKind",
        "PolicyItemKindEnum": "cadence.services_policies.POLICY_KINDS",
        "AppointedRoleEnum": "people.api_people.APPOINTED",
    },
    # 400/401/403/404/415/429/503 declared once for every operation (core/openapi.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.openapi.declare_error_responses",
    ],
}

# --- Celery ---------------------------------------------------------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = Path(env.str("CELERY_FILESYSTEM_DIR", default=str(VAR_DIR / "broker")))
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
    (_broker_dir / "control").mkdir(parents=True, exist_ok=True)
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # kombu's Redis transport, fixed so a worker busy when Redis restarts does not
    # exit (docs/decisions/0026-celery-redis-reconnect.md).
    CELERY_BROKER_TRANSPORT = "core.broker:Transport"
# A send interrupted by a lost broker connection finishes (the outbox's claims make a
# second drain harmless); cancelled, its claimed rows would wait for the reaper and
# the email leaving at that moment would go twice. Celery 6 turns this on by default.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that lost the broker retries for as long as it is down (every 30 s after the
# first minutes), instead of exiting after Celery's default 100 tries (about 46 minutes).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)

# --- Logging ----------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# auth.W004: email is unique case-insensitively (a functional unique constraint on
# Lower(email)), which the auth check cannot see. models.W040: a few indexes carry
# extra columns for PostgreSQL's index-only scans; SQLite builds them without, which
# is all the single-machine default needs.
SILENCED_SYSTEM_CHECKS = ["auth.W004", "models.W040"]

# --- Cadence engine ---------------------------------------------------------------
# How long after a session's end it counts as missed if nobody logged it.
CADENCE_MISSED_GRACE_HOURS = env.int("CADENCE_MISSED_GRACE_HOURS", default=24)
# After this many consecutive misses of one plan, the coach's manager is told.
CADENCE_ESCALATE_AFTER = env.int("CADENCE_ESCALATE_AFTER", default=2)
# How far ahead occurrences are materialised.
CADENCE_HORIZON_WEEKS = env.int("CADENCE_HORIZON_WEEKS", default=6)
# How long before a session the "upcoming" reminder goes out.
CADENCE_REMINDER_HOURS = env.int("CADENCE_REMINDER_HOURS", default=24)
# Sessions the generator made are sent as calendar invitations this many days ahead.
CADENCE_INVITATION_DAYS = env.int("CADENCE_INVITATION_DAYS", default=7)
# A sender leases the notifications it claims for this long and renews the lease while
# it works through them; a lease that runs out (the worker died) hands its rows back:
# at-least-once delivery, see docs/cadence.md. Longer than the slowest single send
# (EMAIL_TIMEOUT, the webhook's 10 s) with room to spare.
CADENCE_CLAIM_LEASE_SECONDS = env.int("CADENCE_CLAIM_LEASE_SECONDS", default=60)
# How many drains of the outbox a burst of notifications (the sweep, the reminders, the
# digests) starts side by side; each keeps going while rows are due. About the number
# of worker processes that send mail.
CADENCE_SENDERS = env.int("CADENCE_SENDERS", default=2)
# Sent, failed and in-app-only notifications are deleted this many days after they were
# recorded (nightly): the outbox gains tens of thousands of rows a week at 10,000
# people. Pending ones stay whatever their age.
NOTIFICATION_RETENTION_DAYS = env.int("NOTIFICATION_RETENTION_DAYS", default=365)
if NOTIFICATION_RETENTION_DAYS < 1:
    raise ImproperlyConfigured(
        "NOTIFICATION_RETENTION_DAYS must be a whole number of days from 1 "
        f"(it is {NOTIFICATION_RETENTION_DAYS}): 0 or less would delete what was just sent."
    )
# With at least this many plans due, the hourly generation hands the plans out in
# CADENCE_GENERATORS id ranges, one task each, for workers to write side by side (a
# first generation for 50,000 plans writes 1.5 million rows; bench/generate.py).
CADENCE_GENERATORS = env.int("CADENCE_GENERATORS", default=2)
CADENCE_GENERATE_SPLIT_FROM = env.int("CADENCE_GENERATE_SPLIT_FROM", default=5000)

# --- Dashboards ----------------------------------------------------------------------
# Cadence health for HR is computed once per slot of this many minutes (and warmed by
# beat at its start); the page says "as of" when. Any divisor of 60.
DASHBOARD_REFRESH_MINUTES = env.int("DASHBOARD_REFRESH_MINUTES", default=5)
