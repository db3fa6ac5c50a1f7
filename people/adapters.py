"""allauth adapters: nobody signs themselves up; people arrive by import or admin,
and single sign-on only signs in people who already exist."""

import html

from allauth.account.adapter import DefaultAccountAdapter
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.conf import settings
from django.contrib import messages
from django.template.loader import render_to_string

from . import sign_in_limits

PASSWORD_CHANGED = "account/messages/password_changed.txt"
LOGGED_IN = "account/messages/logged_in.txt"
PASSWORD_SET_AND_SIGNED_IN = "Your password is set, and you are signed in."


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {**DefaultAccountAdapter.error_messages, **sign_in_limits.ERROR_MESSAGES}

    def is_open_for_signup(self, request):
        return settings.TANDEM_OPEN_SIGNUP

    def pre_authenticate(self, request, **credentials):
        """Failed sign-ins are limited so that an attacker cannot lock the person out
        (people/sign_in_limits.py). allauth takes the attempt back through
        `_login_failed_rl_usage` when the password was right."""
        try:
            usage = sign_in_limits.count_attempt(request, credentials.get("email") or "")
        except sign_in_limits.SignInRefused as refused:
            # Confirming a password while signed in offers no emailed code.
            code = "too_many_login_attempts" if request.user.is_authenticated else refused.code
            raise self.validation_error(code) from None
        self._login_failed_rl_usage = usage

    def add_message(self, request, level, message_template=None, *args, **kwargs):
        """Setting a password from a link (the welcome email's, or "Forgot your
        password?") signs the person in (ACCOUNT_LOGIN_ON_PASSWORD_RESET), and allauth
        says so twice: "Password successfully changed." then "Successfully signed in
        as …". One notice says both. Without the sign-in, the first stays alone."""
        changed = getattr(request, "_password_changed", None)
        if message_template == LOGGED_IN and changed:
            request._password_changed = None
            # Reading the queue marks it all shown: the rest is queued again.
            for message in messages.get_messages(request):
                if message.message != changed:
                    messages.add_message(
                        request, message.level, message.message, extra_tags=message.extra_tags
                    )
            super().add_message(request, messages.SUCCESS, message=PASSWORD_SET_AND_SIGNED_IN)
            return
        if message_template == PASSWORD_CHANGED:
            text = html.unescape(render_to_string(PASSWORD_CHANGED, {}, request).strip())
            request._password_changed = text
            super().add_message(request, level, message=text)
            return
        super().add_message(request, level, message_template, *args, **kwargs)


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request, sociallogin):
        return False
