from django.contrib.auth.middleware import LoginRequiredMiddleware
from rest_framework.views import APIView


class SignInRequiredMiddleware(LoginRequiredMiddleware):
    """Every page needs a signed-in person unless the view is marked
    `@login_not_required` (sign-in, password reset, /healthz).

    API views are left to DRF, which authenticates tokens as well as sessions and
    answers 401 instead of redirecting to the sign-in page."""

    def process_view(self, request, view_func, view_args, view_kwargs):
        view_class = getattr(view_func, "cls", None)
        if view_class is not None and issubclass(view_class, APIView):
            return None
        return super().process_view(request, view_func, view_args, view_kwargs)
