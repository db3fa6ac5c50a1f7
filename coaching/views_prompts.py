"""The question bank (`/programme/questions/`), for programme admins: the prompts shown
beside each GROW step, by step, in the order sessions show them; add one, change one,
retire one or bring it back. Everyone else gets 404."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.forms import submit
from people.access import role_required
from people.roles import Role

from .forms_prompts import PromptForm
from .models import GrowStep, Prompt
from .selectors import prompt_bank
from .services_prompts import prompt_save, prompt_set_active


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def prompt_list(request):
    return _list(request)


def _list(request, *, error=None, status=200):
    context = {"steps": prompt_bank(), "error": error}
    return render(request, "coaching/prompts.html", context, status=status)


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def prompt_new(request):
    return _editor(request, None)


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def prompt_edit(request, pk: int):
    return _editor(request, get_object_or_404(Prompt, pk=pk))


def _editor(request, prompt):
    if request.method == "GET":
        step = request.GET.get("step")
        initial = (
            PromptForm.initial_for(prompt)
            if prompt
            else {"step": step if step in GrowStep.values else GrowStep.GOAL}
        )
        return render(
            request,
            "coaching/prompt_form.html",
            {"prompt": prompt, "form": PromptForm(initial=initial)},
        )
    form = PromptForm(request.POST)
    ok, _ = submit(form, lambda data: prompt_save(actor=request.user, prompt=prompt, **data))
    if ok:
        messages.success(request, "Question saved.")
        return redirect("coaching:prompt_list")
    return render(
        request, "coaching/prompt_form.html", {"prompt": prompt, "form": form}, status=400
    )


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def prompt_retire(request, pk: int):
    return _set_active(
        request, pk, active=False, done="Question retired: sessions no longer show it."
    )


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def prompt_restore(request, pk: int):
    return _set_active(request, pk, active=True, done="Question back in use.")


def _set_active(request, pk: int, *, active: bool, done: str):
    prompt = get_object_or_404(Prompt, pk=pk)
    try:
        prompt_set_active(actor=request.user, prompt=prompt, active=active)
    except ValidationError as exc:
        return _list(request, error=exc.messages, status=400)
    messages.success(request, done)
    return redirect("coaching:prompt_list")
