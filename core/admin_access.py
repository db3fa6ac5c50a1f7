"""The admin site is invisible to everyone who may not use it. Django's admin answers
a signed-in person who is not staff with a redirect to its own sign-in, which then
refuses them with a 403: both say the site is there. Tandem's rule for what a person
may not see is 404 (docs/security.md), so everything under the admin's prefix is a 404
for them. Visitors who are not signed in are sent to the sign-in page, as from every
other page; once signed in, staff reach the admin and others meet the 404.

Who may use it stays the admin site's own rule (`has_permission`: active staff)."""

from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.urls import reverse


class AdminHiddenFromOthers:
    def __init__(self, get_response):
        self.get_response = get_response
        self.prefix = None

    def __call__(self, request):
        self.prefix = self.prefix or reverse("admin:index")
        if request.path.startswith(self.prefix) and not admin.site.has_permission(request):
            if request.user.is_authenticated:
                raise Http404
            return redirect_to_login(request.get_full_path())
        return self.get_response(request)
