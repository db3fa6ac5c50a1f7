"""Role checks for pages and API views. Roles are computed once per request."""

from functools import wraps

from django.http import Http404
from rest_framework.permissions import BasePermission

from .roles import Role
from .selectors import roles_of


def request_roles(request) -> frozenset[Role]:
    cached = getattr(request, "_tandem_roles", None)
    if cached is None:
        cached = request._tandem_roles = roles_of(request.user)
    return cached


def role_required(*allowed: Role):
    """Page decorator: 404 unless the person holds one of `allowed` — a page for a
    role is invisible to everyone else, like any object they may not see."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request_roles(request).intersection(allowed):
                raise Http404
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


class HasRole(BasePermission):
    """DRF permission: `permission_classes = [HasRole.of(Role.HR)]`. Denied requests
    are answered 404, consistent with the pages."""

    allowed: frozenset[Role] = frozenset()

    @classmethod
    def of(cls, *roles: Role):
        return type("HasRole", (cls,), {"allowed": frozenset(roles)})

    def has_permission(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return False
        if not request_roles(request).intersection(self.allowed):
            raise Http404
        return True
