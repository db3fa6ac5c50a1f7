"""`{{ field|choice_items }}`: a choice field's options as `<li>` items, the input then
its label — what `{% for choice in field %}<li>{{ choice.tag }} <label for=…>…</label>
</li>{% endfor %}` writes, without a template rendered per option (core/widgets.py
says why that matters for a list of the whole organisation)."""

from django import template
from django.forms import BoundField
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from core.widgets import input_tag

register = template.Library()


@register.filter
def choice_items(field: BoundField) -> SafeString:
    return format_html_join(
        "",
        '<li>{} <label for="{}">{}</label></li>',
        ((input_tag(c.data), c.id_for_label, c.choice_label) for c in field.subwidgets),
    )
