from allauth.account import views as allauth_views
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import Forbidden
from core.forms import add_service_errors

from . import privacy, services_credentials, services_profile, services_roles
from .forms import ProfileForm
from .rules import may_become_first_programme_admin


@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST":
        # Not core.forms.submit: a save the service refuses also reloads the person,
        # whom the bound ModelForm has already written the refused values on.
        if form.is_valid():
            try:
                services_profile.profile_update(
                    person=request.user,
                    display_name=form.cleaned_data["display_name"],
                    time_zone=form.cleaned_data["time_zone"],
                    work_days=form.cleaned_data["work_days"],
                    work_starts=form.cleaned_data["work_starts"],
                    work_ends=form.cleaned_data["work_ends"],
                )
            except ValidationError as exc:
                request.user.refresh_from_db()
                add_service_errors(form, exc)
            else:
                messages.success(request, "Profile saved.")
                return redirect("people:profile")
        return render(request, "people/profile.html", {"form": form}, status=400)
    return render(request, "people/profile.html", {"form": form})


@require_http_methods(["GET", "POST"])
def first_programme_admin(request):
    """A fresh install's first step: its superuser, while nobody runs the programme,
    becomes the first programme admin. 404 to everyone else, as any page not theirs."""
    if not may_become_first_programme_admin(request.user):
        raise Http404
    if request.method == "POST":
        try:
            services_roles.first_programme_admin_claim(actor=request.user)
        except (ValidationError, Forbidden) as refusal:
            context = {"error": " ".join(refusal.messages)}
            return render(request, "people/first_programme_admin.html", context, status=400)
        messages.success(request, "You run the programme now. Start with the steps below.")
        return redirect("dashboards:home_programme")
    return render(request, "people/first_programme_admin.html")


@require_http_methods(["GET"])
def api_token(request):
    return render(
        request,
        "people/api_token.html",
        {"has_token": services_credentials.api_token_exists(person=request.user)},
    )


@require_POST
def api_token_create(request):
    key = services_credentials.api_token_rotate(person=request.user)
    # Shown once, on this response only; never stored anywhere readable again.
    return render(request, "people/api_token.html", {"has_token": True, "new_key": key})


@require_POST
def api_token_revoke(request):
    services_credentials.api_token_revoke(person=request.user)
    messages.success(request, "API token revoked. Scripts using it stop working now.")
    return redirect("people:api_token")


@require_GET
def my_data(request):
    """The "Download my data" page: what the file holds, and the button."""
    return render(request, "people/my_data.html")


@require_GET
def my_data_download(request):
    """Everything about the signed-in person that they may see, as one JSON file
    (audited as `privacy.data_exported`). Not indented: only the compact form is
    written by the json module's C encoder (a reviewer's audit trail alone can hold
    hundreds of thousands of events: most of the time went to indenting)."""
    document = privacy.personal_data_export(person=request.user, ip=request.META.get("REMOTE_ADDR"))
    response = JsonResponse(document, encoder=DjangoJSONEncoder)
    response["Content-Disposition"] = (
        f'attachment; filename="{privacy.export_filename(request.user)}"'
    )
    response["Cache-Control"] = "private, no-store"
    return response


class SignInView(allauth_views.LoginView):
    """allauth's sign-in, answering a refused attempt with 400 like every other form."""

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = 400
        return response
