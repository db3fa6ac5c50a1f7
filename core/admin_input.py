"""The admin site's lists read their filters and search straight from the address
(`?q=`, `?verb=`, `?status__exact=`), with no form in between to refuse a NUL
character, which PostgreSQL refuses in a string: every list answered such an address
with a 500. This middleware answers it with a 400 saying why, before the admin reads it.
The app's own pages and the API check their input in forms and serializers."""

from django.http import HttpResponseBadRequest
from django.urls import reverse

NUL = "\x00"


class AdminAddressWithoutNul:
    def __init__(self, get_response):
        self.get_response = get_response
        self.prefix = None

    def __call__(self, request):
        self.prefix = self.prefix or reverse("admin:index")
        if request.path.startswith(self.prefix) and any(
            NUL in key or NUL in value for key, values in request.GET.lists() for value in values
        ):
            return HttpResponseBadRequest(
                "An address in the admin site cannot contain a NUL character (%00).",
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)
