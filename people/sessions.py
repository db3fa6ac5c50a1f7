"""The session engine (SESSION_ENGINE = "people.sessions"): Django's database store,
writing each session into `people.SignInSession` with the id of the person signed in,
so all of someone's sessions can be ended at once (`people.services.person_deactivate`)."""

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore


class SessionStore(DatabaseStore):
    @classmethod
    def get_model_class(cls):
        from .models import SignInSession

        return SignInSession

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        try:
            session.user_id = int(data.get(SESSION_KEY))
        except (TypeError, ValueError):
            session.user_id = None
        return session
