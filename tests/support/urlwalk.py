"""Every URL pattern of the project, made into paths a test client can request.

`routes()` walks the resolver — the apps' pages, the API router, the admin site,
allauth, the schema — so a page is covered the day it is added. `concrete_paths()`
turns each route into real paths: routes without parameters as they are, the admin
site from its own registry (every registered model, every object), everything else
from values the test supplies per route. A route with parameters that is neither
filled nor skipped on purpose comes back as `unfilled`, so a walk built on this can
fail when a new page appears that it does not know how to reach.

Used by the firewall walk (tests/feedback/test_firewall_walk.py); meant for any
"every page as every role" test."""

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from django.contrib import admin
from django.contrib.admin.utils import quote
from django.contrib.contenttypes.models import ContentType
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.resolvers import RegexPattern, RoutePattern

_ROUTE_PARAM = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")

# Values for one route: each mapping is one path (parameter name → value).
Fill = Callable[[], Iterable[Mapping[str, object]]]


@dataclass(frozen=True)
class Route:
    route: str  # spelled as Django's ResolverMatch.route spells it
    name: str | None  # with namespaces: "api:feedback-detail", "admin:people_user_change"
    namespace: str  # "" outside any namespace
    patterns: tuple = field(repr=False)  # the pattern of each level, root first

    @property
    def key(self) -> str:
        """How fills and skip lists name a route: its name, or its pattern if unnamed."""
        return self.name or self.route

    @property
    def params(self) -> tuple[str, ...]:
        names: list[str] = []
        for pattern in self.patterns:
            if isinstance(pattern, RoutePattern):
                names += [m["name"] for m in _ROUTE_PARAM.finditer(str(pattern))]
            else:
                groups = re.compile(str(pattern)).groupindex
                names += sorted(groups, key=groups.get)
        return tuple(names)

    def path(self, **values) -> str:
        """The path with `values` put in; checked to resolve back to this route."""
        missing = set(self.params) - set(values)
        if missing:
            raise KeyError(f"{self.key}: no value for {sorted(missing)}")
        path = "/" + "".join(_fill(pattern, values) for pattern in self.patterns)
        match = resolve(path)
        if match.route != self.route:
            raise AssertionError(f"{path} resolves to {match.route!r}, not {self.route!r}")
        return path


def _join(route1: str, route2: str) -> str:
    # As django.urls.resolvers.URLResolver._join_route, so `Route.route` equals
    # the `ResolverMatch.route` of a path resolved to it.
    return route2 if not route1 else route1 + route2.removeprefix("^")


def _fill(pattern, values: Mapping[str, object]) -> str:
    text = str(pattern)
    if isinstance(pattern, RoutePattern):
        return _ROUTE_PARAM.sub(lambda m: str(values[m["name"]]), text)
    if not isinstance(pattern, RegexPattern):
        raise TypeError(f"unknown pattern type {type(pattern).__name__}: {text}")
    return _fill_regex(text, values)


def _fill_regex(regex: str, values: Mapping[str, object]) -> str:
    """A regex pattern with its named groups replaced by values and anchors dropped.
    Anything else regex-like left over (unnamed groups, classes) is refused."""
    out, i = [], 0
    while i < len(regex):
        if regex.startswith("(?P<", i):
            name = regex[i + 4 : regex.index(">", i)]
            i = _group_end(regex, i)
            out.append(str(values[name]))
            continue
        char = regex[i]
        if char == "\\" and i + 1 < len(regex):
            if regex[i + 1] == "Z" and i + 2 == len(regex):
                break
            out.append(regex[i + 1])
            i += 2
            continue
        if (char == "^" and i == 0) or (char == "$" and i == len(regex) - 1):
            i += 1
            continue
        if char in "()[]{}*+?|.^$":
            raise ValueError(f"cannot fill regex {regex!r}: unnamed syntax at {i}")
        out.append(char)
        i += 1
    return "".join(out)


def _group_end(regex: str, start: int) -> int:
    """Index just past the group opening at `start` (nesting, escapes and classes)."""
    depth, i, in_class = 0, start, False
    while i < len(regex):
        char = regex[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError(f"unbalanced group in {regex!r}")


def routes(resolver=None) -> list[Route]:
    """Every URL pattern under the root URLconf, in resolution order."""
    found: list[Route] = []

    def walk(entries, prefix: str, patterns: tuple, namespaces: tuple):
        for entry in entries:
            route = _join(prefix, str(entry.pattern))
            if isinstance(entry, URLResolver):
                inner = namespaces + ((entry.namespace,) if entry.namespace else ())
                walk(entry.url_patterns, route, patterns + (entry.pattern,), inner)
            elif isinstance(entry, URLPattern):
                namespace = ":".join(namespaces)
                name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name
                found.append(Route(route, name, namespace, patterns + (entry.pattern,)))

    walk((resolver or get_resolver()).url_patterns, "", (), ())
    return found


# --- The admin site, filled from its own registry ------------------------------------------


# Admin object pages opened for every object; the others (history, the bare
# `<id>/` redirect, custom ones) for the first object of each model.
EVERY_OBJECT = ("change", "delete")


def admin_fill(route: Route, site=admin.site, every_object=None) -> list[dict] | None:
    """Values for a parameterised admin route, or None if it is not the admin's.
    Change and delete pages (the delete page lists what would go with the object)
    get every object of their model — where `every_object(model, page)` agrees, if
    given — other object pages the first; the app index every app; "view on site"
    one object of each model; the catch-all one unknown page."""
    if route.namespace != site.name:
        return None
    root = reverse(f"{site.name}:index").lstrip("/")
    params = route.params
    if route.name == f"{site.name}:app_list":
        labels = sorted({model._meta.app_label for model in site._registry})
        return [{params[0]: label} for label in labels]
    if route.name == f"{site.name}:view_on_site":
        rows = []
        for model in site._registry:
            first = model._default_manager.order_by("pk").first()
            if first is not None:
                content_type = ContentType.objects.get_for_model(model, for_concrete_model=False)
                rows.append({params[0]: content_type.pk, params[1]: quote(first.pk)})
        return rows
    for model in site._registry:
        opts = model._meta
        if (
            route.route.startswith(f"{root}{opts.app_label}/{opts.model_name}/")
            and len(params) == 1
        ):
            objects = model._default_manager.order_by("pk")
            pages = {f"{site.name}:{opts.app_label}_{opts.model_name}_{p}": p for p in EVERY_OBJECT}
            page = pages.get(route.name)
            if page is None or not (every_object is None or every_object(model, page)):
                objects = objects[:1]
            return [{params[0]: quote(obj.pk)} for obj in objects]
    if route.route == f"{root}(?P<url>.*)$":
        return [{"url": "no-such-page/"}]
    return None


@dataclass(frozen=True)
class Visit:
    route: Route
    path: str


def concrete_paths(
    fills: Mapping[str, Fill],
    skip: Mapping[str, str],
    *,
    all_routes: list[Route] | None = None,
    admin_every_object=None,
) -> tuple[list[Visit], list[Route]]:
    """(paths to visit, routes with parameters nobody filled). `fills` and `skip` are
    keyed by `Route.key`; a fill wins over the admin's own values.
    `admin_every_object(model, page)` limits which models' change and delete pages
    are opened for every object (see `admin_fill`)."""
    visits: list[Visit] = []
    unfilled: list[Route] = []
    for route in all_routes if all_routes is not None else routes():
        if route.key in skip:
            continue
        if not route.params:
            values = [{}]
        elif route.key in fills:
            values = list(fills[route.key]())
            if not values:  # a fill that finds nothing reaches nothing
                unfilled.append(route)
                continue
        elif (from_admin := admin_fill(route, every_object=admin_every_object)) is not None:
            values = from_admin
        else:
            unfilled.append(route)
            continue
        visits += [Visit(route, route.path(**v)) for v in values]
    return visits, unfilled
