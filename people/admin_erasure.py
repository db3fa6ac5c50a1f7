"""The admin action that erases departed people: a confirmation page shows the dry
run for each person chosen (what is deleted, anonymised and kept, per model) and
refuses anyone still active; confirming carries the same plans out.

Programme admins and superusers only: anyone else on the admin site gets 404."""

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import ValidationError
from django.http import Http404
from django.template.response import TemplateResponse

from .erasure import person_erase
from .rules import may_erase


@admin.action(description="Erase selected departed people…", permissions=["change"])
def erase_people(modeladmin, request, queryset):
    if not may_erase(request.user):
        raise Http404
    people = list(queryset.order_by("pk"))
    refused = [p for p in people if p.is_active]
    erasable = [p for p in people if not p.is_active]

    if request.POST.get("post") == "yes":
        for person in refused:
            messages.error(request, f"{person} is still active: deactivate them first.")
        for person in erasable:
            try:
                plan = person_erase(actor=request.user, person=person, dry_run=False)
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
                continue
            total = sum(plan.deleted.values())
            messages.success(
                request,
                f"Erased person #{person.pk}: {total} rows deleted, "
                f"{sum(plan.anonymised.values())} anonymised.",
            )
        return None  # back to the list

    plans = [(person, person_erase(actor=request.user, person=person)) for person in erasable]
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": "Erase departed people",
        "opts": modeladmin.model._meta,
        "plans": plans,
        "refused": refused,
        "queryset": erasable,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "action_name": "erase_people",
    }
    return TemplateResponse(request, "admin/people/user/erase_confirmation.html", context)
