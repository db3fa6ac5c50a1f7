"""The pair page's per-habit buttons, asked of `peers.rules` so that a button shows
only where the service would take it."""

from django import template

from peers import rules

register = template.Library()


@register.filter
def may_retire_habit(habit, person) -> bool:
    return rules.may_retire_habit(person, habit)


@register.filter
def may_check_in_habit(habit, person) -> bool:
    return rules.may_check_in_habit(person, habit)
