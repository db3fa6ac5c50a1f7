"""What a request gets when the server fails. A database that cannot be reached (or
drops the connection) is a 503 "try again shortly", not a 500: nothing is wrong with
the request, and the app reconnects by itself on the next one (CONN_HEALTH_CHECKS).
Rendered without the request's context — the user, messages and context processors
all need the database that just failed."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views import defaults

RETRY_AFTER_SECONDS = 30


def database_unavailable(exc: BaseException | None) -> bool:
    return isinstance(exc, OperationalError | InterfaceError)


def server_error(request):
    """handler500: Django calls it inside the `except` of the failed request."""
    if not database_unavailable(sys.exc_info()[1]):
        return _answer(request, 500, "Something went wrong on our side.", "500.html")
    response = _answer(
        request,
        503,
        "Tandem cannot reach its database right now. Please try again in a moment.",
        "503.html",
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def page_not_found(request, exception):
    """handler404: under /api/ a URL that matches no route (an id that is not a number,
    a misspelt path) answers JSON like every other API 404, not the HTML page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def permission_denied(request, exception):
    """handler403: the product's own page (templates/403.html, with the refusal's own
    words when it has some), JSON under /api/ like every other API refusal."""
    if request.path.startswith("/api/"):
        message = str(exception) or "You may not do this."
        return JsonResponse({"detail": message}, status=403)
    return defaults.permission_denied(request, exception)


def bad_request(request, exception):
    """handler400: a request Django refuses before any view reads it (a body over
    DATA_UPLOAD_MAX_MEMORY_SIZE, too many fields) answers JSON under /api/."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"detail": "Bad request: the request is too large or malformed."}, status=400
        )
    return defaults.bad_request(request, exception)


def _answer(request, status: int, detail: str, template: str):
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": detail}, status=status)
    return HttpResponse(render_to_string(template, {"detail": detail}), status=status)
