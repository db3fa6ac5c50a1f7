"""The form renderer (core/widgets.py, FORM_RENDERER) writes exactly what Django's
templates write, for every shape a form gives a widget: values of every kind, chosen
options, attributes a form adds (ids, classes, aria-*, required, disabled), empty
labels, option groups, words that need escaping; and `choice_items` what the template
loop it replaced wrote."""

from pathlib import Path

import django
import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.forms.widgets import ChoiceWidget
from django.template import Context, Template

from core.widgets import INPUT_TEMPLATES, FastFormRenderer

CHOICES = [
    ("", "Choose a person"),
    (1, "Ana <Admin> & Co"),
    (2, 'Ben "the rep"'),
    ("Team East", [(3, "Cleo"), (4, "Dev")]),
    (5, "Eve"),
]
ATTRS = [
    None,
    {"id": "id_people"},
    {"id": "id_people", "class": "wide", "aria-describedby": "help err", "required": True},
    {"disabled": True, "data-x": "a&b", "hidden": False},
]


def test_a_bound_form_field_renders_the_same(db):
    """Through a form, as pages render them: ids per option, aria from help text and
    errors, the field's `required`."""

    class Form(forms.Form):
        many = forms.MultipleChoiceField(
            choices=CHOICES[1:3], widget=forms.CheckboxSelectMultiple, help_text="Pick some."
        )
        one = forms.ChoiceField(choices=CHOICES, help_text="Pick one.")
        words = forms.CharField(widget=forms.Textarea, help_text="Say something.")
        day = forms.DateField()

    data_sets = ({}, {"many": ["9"], "one": "x", "day": "soon"}, {"many": ["1"], "one": "3"})
    for data in data_sets:
        mine = Form(data=data, renderer=FastFormRenderer())
        theirs = Form(data=data, renderer=DjangoTemplates())
        mine.is_valid(), theirs.is_valid()
        for name in Form.base_fields:
            assert str(mine[name]) == str(theirs[name]), name


def test_choice_items_write_what_the_template_loop_wrote(db):
    """`{{ field|choice_items }}` (feedback's choice groups) against the loop it
    replaced, for a form fresh, with a wrong choice and with choices made."""

    class Form(forms.Form):
        people = forms.MultipleChoiceField(
            choices=CHOICES[1:3] + CHOICES[4:], widget=forms.CheckboxSelectMultiple
        )

    loop = Template(
        '{% for choice in field %}<li>{{ choice.tag }} <label for="{{ choice.id_for_label }}">'
        "{{ choice.choice_label }}</label></li>{% endfor %}"
    )
    fast = Template("{% load choices %}{{ field|choice_items }}")
    for data in (None, {"people": ["9"]}, {"people": ["1", "5"]}):
        form = Form(data=data)
        if data is not None:
            form.is_valid()
        context = Context({"field": form["people"]})
        assert fast.render(context) == loop.render(context)


WIDGETS = [
    forms.TextInput,
    forms.NumberInput,
    forms.EmailInput,
    forms.URLInput,
    forms.PasswordInput,
    forms.HiddenInput,
    forms.DateInput,
    forms.DateTimeInput,
    forms.TimeInput,
    forms.Textarea,
    forms.CheckboxInput,
    forms.Select,
    forms.SelectMultiple,
    forms.NullBooleanSelect,
    forms.RadioSelect,
    forms.CheckboxSelectMultiple,
    forms.SplitDateTimeWidget,
    forms.MultipleHiddenInput,
]
VALUES = [None, "", "plain", '<b>"quoted" & more</b>', 0, 5, [], [1], ["2", "4"], True, False]


@pytest.mark.parametrize("widget_class", WIDGETS, ids=lambda w: w.__name__)
def test_the_fast_renderer_writes_what_djangos_renderer_writes(widget_class):
    """FORM_RENDERER: every widget Django ships that the app may use, with values of
    every kind and attributes, rendered both ways."""
    takes_choices = issubclass(widget_class, ChoiceWidget) and (
        widget_class is not forms.NullBooleanSelect
    )
    choices = {"choices": CHOICES} if takes_choices else {}
    for value in VALUES:
        for attrs in ATTRS:
            widget = widget_class(**choices)
            try:
                theirs = widget.render("field", value, attrs=attrs, renderer=DjangoTemplates())
            except (TypeError, ValueError, AttributeError):
                continue  # a value this widget cannot take at all
            mine = widget_class(**choices).render(
                "field", value, attrs=attrs, renderer=FastFormRenderer()
            )
            assert str(mine) == str(theirs), (value, attrs)


def test_the_input_templates_are_only_an_include_of_input_html():
    """The renderer writes these as `input.html`: true only while each of Django's
    templates is just that include."""
    folder = Path(django.__file__).parent / "forms/templates/django/forms/widgets"
    for name in INPUT_TEMPLATES:
        text = (folder / f"{name}.html").read_text().strip()
        assert text == '{% include "django/forms/widgets/input.html" %}', name
