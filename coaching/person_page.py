"""Panels that apps to the right add to a coachee's page (`coaching.views_person.render_person`),
so coaching imports none of them: each registers the template it fills and a function
`(viewer, person) -> context` (learning's experiments)."""

from collections.abc import Callable

_panels: list[tuple[str, Callable[..., dict]]] = []


def person_panel(template: str):
    def register(func):
        if template not in {t for t, _ in _panels}:
            _panels.append((template, func))
        return func

    return register


def panels(*, viewer, person) -> dict:
    """The context of every registered panel, and their templates in order under
    `person_panels`."""
    context: dict = {"person_panels": [t for t, _ in _panels]}
    for _, func in _panels:
        context.update(func(viewer=viewer, person=person))
    return context
