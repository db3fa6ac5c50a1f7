"""Django's widget templates written in Python. Django renders each widget, and each
option of a choice widget, through the template engine, so at 10,000 people "Ask for
feedback" spent most of its time on its checkboxes, and every page with a form a
noticeable share on its fields (bench/routes.py). The writers below produce the same markup as
Django's templates (`input.html`, `textarea.html`, `select.html`,
`multiple_input.html` and their options); `tests/core/test_widgets.py` holds them to
Django's output byte for byte. `FastFormRenderer` (the FORM_RENDERER) uses them for
every form; `input_tag` also serves the `choice_items` filter (core/templatetags)."""

from django.forms.renderers import DjangoTemplates
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


def write_multiple_input(widget: dict) -> SafeString:
    """`multiple_input.html`: checkboxes or radio buttons, each in a `<div>`."""
    rows = []
    for group, options, _index in widget["optgroups"]:
        if group:
            rows.append(format_html("\n  <div><label>{}</label>", group))
        rows.append(
            format_html_join("", "<div>\n    {}</div>", ((write_option(o),) for o in options))
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
    """`input.html`: one `<input>`, as `{{ choice.tag }}` writes it in a template."""
    return format_html(
        '<input type="{}" name="{}"{}{}>',
        option["type"],
        option["name"],
        _value(option["value"]),
        _attrs(option["attrs"]),
    )


def write_option(option: dict) -> SafeString:
    """`input_option.html` as checkbox_option.html and radio_option.html include it."""
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


def write_select(widget: dict) -> SafeString:
    """`select.html` with its `select_option.html` options."""
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


def write_textarea(widget: dict) -> SafeString:
    """`textarea.html`."""
    return format_html(
        '<textarea name="{}"{}>\n{}</textarea>',
        widget["name"],
        _attrs(widget["attrs"]),
        widget["value"] if widget["value"] else "",
    )


# Django's widget templates that are only `{% include "django/forms/widgets/input.html" %}`
# (tests/core/test_widgets.py reads Django's files to keep this list true).
INPUT_TEMPLATES = (
    "checkbox", "color", "date", "datetime", "email", "file", "hidden", "number",
    "password", "search", "tel", "text", "time", "url",
)  # fmt: skip
WRITERS = {
    **{f"django/forms/widgets/{name}.html": input_tag for name in INPUT_TEMPLATES},
    "django/forms/widgets/textarea.html": write_textarea,
    "django/forms/widgets/select.html": write_select,
    "django/forms/widgets/checkbox_select.html": write_multiple_input,
    "django/forms/widgets/radio.html": write_multiple_input,
    "django/forms/widgets/checkbox_option.html": write_option,
    "django/forms/widgets/radio_option.html": write_option,
}


class FastFormRenderer(DjangoTemplates):
    """Django's default form renderer (FORM_RENDERER), with the widget templates above
    written in Python: every text box, select and checkbox on every page, each a
    template render through the engine (a session page renders a dozen). Forms,
    fields and every other template go through the engine as ever."""

    def render(self, template_name, context, request=None):
        write = WRITERS.get(template_name)
        if write is None:
            return super().render(template_name, context, request=request)
        return write(context["widget"]).strip()
