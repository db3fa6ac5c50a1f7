"""The session engine (SESSION_ENGINE = "people.sessions"): Django's database store,
writing each session into `people.SignInSession` with the id of the person signed in,
so all of someone's sessions can be ended at once (`people.services.account_deactivate`)."""

from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore

from .models import SignInSession

# Sessions signed in before 2 December 2026 name Django's ModelBackend, no longer
# listed (allauth's backend alone checks passwords: config/settings/base.py). Read as
# allauth's — a ModelBackend finding the same person by id — nobody is signed out by
# the upgrade.
RETIRED_BACKENDS = {
    "django.contrib.auth.backends.ModelBackend": (
        "allauth.account.auth_backends.AuthenticationBackend"
    ),
}


class SessionStore(DatabaseStore):
    @classmethod
    def get_model_class(cls):
        return SignInSession

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        try:
            session.user_id = int(data.get(SESSION_KEY))
        except (TypeError, ValueError):
            session.user_id = None
        return session

    def decode(self, session_data):
        data = super().decode(session_data)
        backend = data.get(BACKEND_SESSION_KEY)
        if backend in RETIRED_BACKENDS:
            data[BACKEND_SESSION_KEY] = RETIRED_BACKENDS[backend]
        return data
