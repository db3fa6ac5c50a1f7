"""Choice widgets for lists as long as the organisation: everyone you may ask for
feedback, give it to or pair with. Django renders each option through the template
engine, about 0.1 ms apiece: at 10,000 people "Ask for feedback" spent 1.4 s on its
checkboxes. These write the same markup as Django's templates
(`django/forms/widgets/multiple_input.html`, `select.html` and their options), in
Python; `tests/config/test_widgets.py` holds them to Django's output."""

from django import forms
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe


def _attrs(attrs: dict) -> SafeString:
    """As `django/forms/widgets/attrs.html`: False leaves an attribute out, True writes
    its name alone."""
    return mark_safe(  # noqa: S308 - every name and value is escaped here
        "".join(
            f" {conditional_escape(name)}"
            if value is True
            else f' {conditional_escape(name)}="{conditional_escape(value)}"'
            for name, value in attrs.items()
            if value is not False
        )
    )


def _value(value) -> str:
    return "" if value is None else format_html(' value="{}"', value)


class FastCheckboxSelectMultiple(forms.CheckboxSelectMultiple):
    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        rows = []
        for group, options, _index in widget["optgroups"]:
            if group:
                rows.append(format_html("\n  <div><label>{}</label>", group))
            rows.append(
                format_html_join("", "<div>\n    {}</div>", ((_option(o),) for o in options))
            )
            if group:
                rows.append(mark_safe("\n  </div>"))
        own = widget["attrs"]
        return format_html(
            "<div{}{}>{}\n</div>",
            format_html(' id="{}"', own["id"]) if own.get("id") else "",
            format_html(' class="{}"', own["class"]) if own.get("class") else "",
            mark_safe("".join(rows)),  # noqa: S308 - built with format_html above
        )


def input_tag(option: dict) -> SafeString:
    """One option's `<input>`, as `{{ choice.tag }}` writes it in a template."""
    return format_html(
        '<input type="{}" name="{}"{}{}>',
        option["type"],
        option["name"],
        _value(option["value"]),
        _attrs(option["attrs"]),
    )


def _option(option: dict) -> SafeString:
    field = input_tag(option)
    # The newlines are the ends of Django's template files (input.html, then
    # input_option.html and checkbox_option.html), kept so the markup is the same.
    if not option["wrap_label"]:
        return format_html("{}\n\n\n", field)
    target = option["attrs"].get("id")
    return format_html(
        "<label{}>{}\n {}</label>\n\n",
        format_html(' for="{}"', target) if target else "",
        field,
        option["label"],
    )


class FastSelect(forms.Select):
    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        parts = []
        for group, options, _index in widget["optgroups"]:
            if group:
                parts.append(format_html('\n  <optgroup label="{}">', group))
            parts.append(
                format_html_join(
                    "",
                    '\n  <option value="{}"{}>{}</option>\n',
                    ((o["value"], _attrs(o["attrs"]), o["label"]) for o in options),
                )
            )
            if group:
                parts.append(mark_safe("\n  </optgroup>"))
        return format_html(
            '<select name="{}"{}>{}\n</select>',
            widget["name"],
            _attrs(widget["attrs"]),
            mark_safe("".join(parts)),  # noqa: S308 - built with format_html above
        )
