"""Every named route has a name of its own. Two routes under one name resolve
`{% url %}` and `redirect()` to whichever Django finds last: a page built for one
would quietly link to the other (People under Programme once did: `person_detail` was
also a manager's page of a report)."""

from collections import Counter

from django.urls import URLResolver, get_resolver

from tests.support.urlwalk import routes

# Shadowed on purpose: our sign-in page answers /accounts/login/ before allauth's.
SHADOWED = {"account_login"}


def test_no_two_routes_share_a_name():
    names = Counter(route.name for route in routes() if route.name)
    assert [name for name, count in names.items() if count > 1 and name not in SHADOWED] == []


# Names outside any namespace on purpose: allauth's (and our sign-in page that answers
# under allauth's name), the admin's own, and the infrastructure routes of config.
GLOBAL_NAMES = {"healthz", "favicon", "api_schema", "api_docs"}
APPS = {"people", "scorecards", "coaching", "peers", "learning", "feedback", "cadence"}
APPS |= {"notifications", "dashboards"}


def test_every_page_route_is_named_in_its_app_namespace():
    """A page of app X is reversed as "X:name" (docs/architecture.md, URL namespaces)."""
    unnamespaced = [
        route.route
        for route in routes()
        if route.name
        and not route.namespace
        and route.name not in GLOBAL_NAMES
        and not route.route.startswith("accounts/")
    ]
    assert unnamespaced == []
    namespaces = {route.namespace for route in routes() if route.namespace}
    assert namespaces == APPS | {"api", "admin"}


def _views(entries):
    for entry in entries:
        if isinstance(entry, URLResolver):
            yield from _views(entry.url_patterns)
        else:
            yield entry


def test_a_page_is_in_the_namespace_of_the_app_whose_view_serves_it():
    misplaced = [
        f"{include.namespace}:{entry.name} ({entry.callback.__module__})"
        for include in get_resolver().url_patterns
        if isinstance(include, URLResolver) and include.namespace in APPS
        for entry in _views(include.url_patterns)
        if entry.callback.__module__.split(".")[0] != include.namespace
    ]
    assert misplaced == []
