"""Writing a cadence policy (`/programme/cadence/policies/new/` and `<id>/`), for
programme admins: its name, what it is for, and for each kind of session whether
teams keep it and when. Refusals are 400 with each reason on its field and nothing
saved; everyone else gets 404. Applying it to teams is the Team cadence page's."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from people.access import role_required
from people.roles import Role

from .forms_policies import PolicyForm, policy_item_forms
from .models import CadencePolicy
from .services_policies import item_error_key, policy_save


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def policy_new(request):
    return _policy_editor(request, None)


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def policy_edit(request, pk: int):
    policy = get_object_or_404(CadencePolicy.objects.prefetch_related("items"), pk=pk)
    return _policy_editor(request, policy)


def _policy_editor(request, policy):
    if request.method == "GET":
        initial = {"name": policy.name, "description": policy.description} if policy else {}
        form, items = PolicyForm(initial=initial), policy_item_forms(policy=policy)
        return _editor_page(request, policy, form, items)
    form, items = PolicyForm(request.POST), policy_item_forms(request.POST, policy=policy)
    if all([form.is_valid(), *(item.is_valid() for item in items)]):
        rules = {item.kind: rule for item in items if (rule := item.rule()) is not None}
        try:
            saved = policy_save(actor=request.user, policy=policy, items=rules, **form.cleaned_data)
        except ValidationError as exc:
            _put_errors(exc, form, items)
        else:
            messages.success(request, _saved_message(saved))
            return redirect(f"{reverse('cadence:team_cadence')}#policy-{saved.policy.pk}")
    return _editor_page(request, policy, form, items, status=400)


def _put_errors(exc: ValidationError, form, items) -> None:
    """A service refusal on the field it names: an item's on that kind's form."""
    by_key = {item_error_key(item.kind, f): (item, f) for item in items for f in item.fields}
    for key, errors in exc.message_dict.items():
        target, field = by_key.get(key, (form, key if key in form.fields else None))
        target.add_error(field, errors)


def _saved_message(saved) -> str:
    name = saved.policy.name
    if saved.created:
        return f"“{name}” saved. Apply it to teams below."
    if not saved.changed:
        return f"Nothing changed in “{name}”."
    return (
        f"“{name}” saved. Teams that take it from now get the new rhythm; plans already "
        "made from it stay as their coaches set them."
    )


def _editor_page(request, policy, form, items, *, status=200):
    context = {
        "policy": policy,
        "form": form,
        "items": items,
        "teams_now": policy.assignments.filter(ended_at__isnull=True).count() if policy else 0,
    }
    return render(request, "cadence/policy_form.html", context, status=status)
