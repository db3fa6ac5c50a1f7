"""Searching the people pickers as the browser does, and reading what they list."""

import re

PICK = "/people/pick/{}/"


GIVE = "/feedback/give/"


def pick(client, source, text="", chosen=(), name="recipient", **extra):
    query = {"name": name, "id": f"id_{name}", f"{name}_search": text, name: list(chosen)}
    return client.get(PICK.format(source), {**query, **extra})


def listed(fragment: str) -> list[str]:
    """The people a fragment offers, in order: (checked?, name)."""
    return re.findall(
        r'<input type="(?:radio|checkbox)" name="\w+" value="\d+"[^>]*?( checked)?> '
        r'<label for="[\w-]+">([^<]+?) <span',
        fragment,
    )
