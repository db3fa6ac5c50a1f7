"""The fast choice widgets (people/widgets.py) write exactly what Django's templates
write, for every shape a form gives them: chosen values, attributes a form adds
(ids, classes, aria-*, required, disabled), empty labels, option groups, words that
need escaping."""

import pytest
from django import forms
from django.template import Context, Template

from people.widgets import FastCheckboxSelectMultiple, FastSelect

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
VALUES = [None, "", [], [1], ["2", "4"], 5, "nobody"]


@pytest.mark.parametrize("attrs", ATTRS)
@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize(
    ("fast", "stock"),
    [(FastCheckboxSelectMultiple, forms.CheckboxSelectMultiple), (FastSelect, forms.Select)],
)
def test_the_same_markup_as_djangos_templates(fast, stock, value, attrs):
    mine = fast(choices=CHOICES).render("people", value, attrs=attrs)
    theirs = stock(choices=CHOICES).render("people", value, attrs=attrs)
    assert str(mine) == str(theirs)


def test_a_bound_form_field_renders_the_same(db):
    """Through a form, as pages render them: ids per option, aria from help text and
    errors, the field's `required`."""

    class Form(forms.Form):
        many = forms.MultipleChoiceField(
            choices=CHOICES[1:3], widget=FastCheckboxSelectMultiple, help_text="Pick some."
        )
        one = forms.ChoiceField(choices=CHOICES, widget=FastSelect, help_text="Pick one.")

    class Stock(forms.Form):
        many = forms.MultipleChoiceField(
            choices=CHOICES[1:3], widget=forms.CheckboxSelectMultiple, help_text="Pick some."
        )
        one = forms.ChoiceField(choices=CHOICES, widget=forms.Select, help_text="Pick one.")

    for data in ({}, {"many": ["9"], "one": "x"}, {"many": ["1"], "one": "3"}):
        mine, theirs = Form(data=data), Stock(data=data)
        mine.is_valid(), theirs.is_valid()
        assert str(mine["many"]) == str(theirs["many"])
        assert str(mine["one"]) == str(theirs["one"])


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
