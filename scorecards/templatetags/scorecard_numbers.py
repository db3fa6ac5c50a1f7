"""Numbers as a scorecard's pages write them."""

from decimal import Decimal

from django import template

register = template.Library()


@register.filter
def weight(value: Decimal) -> str:
    """A criterion's weight as people write it: 2, 1.5, 0.25 (never 2.00 or 1.50)."""
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
