"""The one refusal for "you may not do this": a service raises `Forbidden` with the
reason a person reads, when the requester can see the object but may not act on it.
Bad input stays django's ValidationError. The API answers Forbidden as a 403 with the
reason as its `detail`; a page shows the reason where it shows any refusal (on the
form, or the 403 page). The reasons come from each app's `rules.py`, so a button and
the service say the same thing. See docs/decisions/0031-403-versus-400.md."""


class Forbidden(Exception):
    """`reason`: what the person reads. `field`: the form field a page shows it on,
    when the refusal is about what was picked there (None: at the top of the form)."""

    def __init__(self, reason: str, *, field: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.field = field

    @property
    def messages(self) -> list[str]:
        """As ValidationError's, so a page shows a refusal however it shows one."""
        return [self.reason]
