"""The session page's per-item buttons, asked of `coaching.rules` so that a button
shows only where the service would take it."""

from django import template

from coaching import rules

register = template.Library()


@register.filter
def may_remove_agenda_item(item, person) -> bool:
    return rules.may_remove_agenda_item(person, item)
