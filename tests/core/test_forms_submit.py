"""`core.forms.submit`: a valid form's data goes to the service; what the service
refuses lands on the form where a page shows it, and nothing else is caught."""

import pytest
from django import forms
from django.core.exceptions import ValidationError

from core.errors import Forbidden
from core.forms import submit


class NoteForm(forms.Form):
    title = forms.CharField(max_length=20)
    due_on = forms.DateField(required=False)


def _bound(**data):
    return NoteForm({"title": "Plan the week", "due_on": "", **data})


def _raising(exc):
    def service(data):
        raise exc

    return service


def test_a_valid_form_runs_the_service_with_its_cleaned_data():
    form = _bound()
    ok, result = submit(form, lambda data: ("made", data))
    assert ok
    assert result == ("made", {"title": "Plan the week", "due_on": None})
    assert not form.errors


def test_what_the_service_returns_counts_as_done_even_when_falsy():
    """A service answering "nothing changed" (False, None) still ran."""
    submitted = submit(_bound(), lambda data: False)
    assert submitted
    assert submitted.ok is True
    assert submitted.result is False


def test_an_invalid_form_never_reaches_the_service():
    def service(data):
        raise AssertionError("the service ran for an invalid form")

    form = _bound(title="")
    submitted = submit(form, service)
    assert not submitted
    assert tuple(submitted) == (False, None)
    assert form.errors["title"] == ["This field is required."]


def test_a_validation_error_on_a_field_of_the_form_lands_on_that_field():
    form = _bound()
    ok, result = submit(form, _raising(ValidationError({"due_on": "Pick a later day."})))
    assert (ok, result) == (False, None)
    assert form.errors == {"due_on": ["Pick a later day."]}


def test_a_validation_error_on_a_field_the_form_lacks_lands_at_the_top():
    form = _bound()
    ok, _ = submit(form, _raising(ValidationError({"owner": "Not on your team."})))
    assert not ok
    assert form.non_field_errors() == ["Not on your team."]
    assert list(form.errors) == ["__all__"]


def test_a_validation_error_without_a_field_lands_at_the_top():
    form = _bound()
    ok, _ = submit(form, _raising(ValidationError(["Closed that day.", "Try another."])))
    assert not ok
    assert form.non_field_errors() == ["Closed that day.", "Try another."]


def test_a_refusal_naming_a_field_lands_on_it():
    form = _bound()
    ok, _ = submit(form, _raising(Forbidden("Not yours to set.", field="title")))
    assert not ok
    assert form.errors == {"title": ["Not yours to set."]}


def test_a_refusal_without_a_field_lands_at_the_top():
    form = _bound()
    ok, _ = submit(form, _raising(Forbidden("Only the lead may do this.")))
    assert not ok
    assert form.non_field_errors() == ["Only the lead may do this."]
    assert list(form.errors) == ["__all__"]


def test_any_other_exception_passes_through():
    """A bug or an outage is not a refusal: the page must not show it as one."""
    form = _bound()
    with pytest.raises(RuntimeError):
        submit(form, _raising(RuntimeError("database went away")))
    assert not form.errors
