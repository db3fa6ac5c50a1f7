"""Form helpers every app's pages use: a service's refusal put on a form, the
weekdays, a time-of-day input."""

from django import forms

from .errors import Forbidden

WEEKDAYS = [
    (0, "Monday"),
    (1, "Tuesday"),
    (2, "Wednesday"),
    (3, "Thursday"),
    (4, "Friday"),
    (5, "Saturday"),
    (6, "Sunday"),
]


class TimeInput(forms.TimeInput):
    input_type = "time"

    def __init__(self, **kwargs):
        super().__init__(format="%H:%M", **kwargs)


def add_service_errors(form: forms.Form, exc) -> None:
    """Put a service's ValidationError on a form: on the field it names when the form
    has that field, otherwise at the top; a `Forbidden` refusal's reason likewise, on
    the field it names. Shared by every app's pages."""
    if isinstance(exc, Forbidden):
        form.add_error(exc.field if exc.field in form.fields else None, exc.reason)
    elif hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)
