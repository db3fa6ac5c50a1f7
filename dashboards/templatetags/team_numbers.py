"""Number formats for the team and growth dashboards: a rate as a whole percentage (as
the HR pages print it), a signed gap, a mean on its scale — and a dash where there is
nothing to divide by."""

from django import template

from .. import charts

register = template.Library()

DASH = "—"


@register.filter
def percent(value: float | None) -> str:
    """Whole percent, halves rounded up, as on every dashboard (5 of 8 is 63%)."""
    return charts.percent(value)


@register.filter
def signed(value: float | None) -> str:
    """A gap: +0.5, −0.25, 0."""
    if value is None:
        return DASH
    if value == 0:
        return "0"
    sign = "+" if value > 0 else "−"
    return f"{sign}{abs(value):g}"


@register.filter
def own_against_others(gap: float) -> str:
    """A self-vs-others gap in words, for the middle of a sentence: "0.5 higher
    than theirs", "0.25 lower than theirs", "the same as theirs"."""
    shown = round(gap, 2)  # as `mean` prints the averages themselves
    if shown == 0:
        return "the same as theirs"
    return f"{abs(shown):g} {'higher' if shown > 0 else 'lower'} than theirs"


@register.filter
def mean(value: float | None) -> str:
    """A mean, to two decimals at most: 3, 2.5, 2.67."""
    return DASH if value is None else f"{round(value, 2):g}"


@register.filter
def cancel_reason(value: str) -> str:
    """A cancel reason's label, in lower case for the middle of a sentence."""
    from coaching.models import CancelReason

    return dict(CancelReason.choices).get(value, value).lower()
