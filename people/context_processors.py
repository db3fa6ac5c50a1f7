from django.utils.functional import SimpleLazyObject

from .access import request_roles
from .roles import Role


def roles(request):
    """`roles` in every template: the signed-in person's roles, computed on first use
    (one query) so pages that never look pay nothing."""
    user = getattr(request, "user", None)
    lazy = SimpleLazyObject(lambda: request_roles(request) if user is not None else frozenset())
    return {"roles": lazy, "Role": Role}
