"""Form helpers every app's pages use: a valid form's data handed to a service with
its refusal put on the form, the weekdays, a time-of-day input."""

from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar

from django import forms
from django.core.exceptions import ValidationError

from .errors import Forbidden

T = TypeVar("T")

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
    the field it names. `submit` calls it; so does a page with its own `try`."""
    if isinstance(exc, Forbidden):
        form.add_error(exc.field if exc.field in form.fields else None, exc.reason)
    elif hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


class Submitted(NamedTuple, Generic[T]):
    """What `submit` did: `ok` when the service ran, with what it returned as `result`
    (None otherwise). Unpack it: `ok, result = submit(...)`."""

    ok: bool
    result: T | None

    def __bool__(self) -> bool:
        # A tuple of two is always true; `if submit(...)` must mean "it ran".
        return self.ok


def submit(form: forms.Form, service: Callable[[dict[str, Any]], T]) -> Submitted[T]:
    """Run `service` with the form's cleaned data when the form is valid. A service's
    ValidationError or Forbidden goes on the form (`add_service_errors`) and nothing is
    returned: services are atomic, so nothing of it is saved. Any other exception
    passes through. The page decides what to answer either way."""
    if not form.is_valid():
        return Submitted(False, None)
    try:
        result = service(form.cleaned_data)
    except (ValidationError, Forbidden) as exc:
        add_service_errors(form, exc)
        return Submitted(False, None)
    return Submitted(True, result)
