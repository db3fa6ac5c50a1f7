"""Programme configuration in the admin: focus areas and the question bank (peer pairs'
agreement and the learning loop's playbooks are in peers/admin.py and
learning/admin.py).

Sessions, notes, private notes and commitments are deliberately NOT registered:
programme admins see counts on dashboards, never anyone's words."""

from django.contrib import admin

from people.admin_audit import AuditedConfigMixin
from scorecards.models import Criterion

from .models import FocusArea, Prompt


@admin.register(FocusArea)
class FocusAreaAdmin(AuditedConfigMixin, admin.ModelAdmin):
    audit_prefix = "focus_area"
    list_display = ["name", "starts_on", "ends_on", "scope"]
    list_filter = ["starts_on"]
    search_fields = ["name", "behaviours"]
    filter_horizontal = ["teams", "criteria"]
    fields = ["name", "behaviours", "starts_on", "ends_on", "teams", "criteria"]

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "criteria":
            kwargs["queryset"] = Criterion.objects.labelled()
        field = super().formfield_for_manytomany(db_field, request, **kwargs)
        if db_field.name == "criteria":
            field.label_from_instance = lambda criterion: criterion.label
        return field

    @admin.display(description="Scope")
    def scope(self, obj):
        names = [t.name for t in obj.teams.all()]
        return ", ".join(names) if names else "Whole organisation"

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("teams")


@admin.register(Prompt)
class PromptAdmin(AuditedConfigMixin, admin.ModelAdmin):
    audit_prefix = "prompt"
    list_display = ["text", "step", "kind", "position", "is_active"]
    list_editable = ["position", "is_active"]
    list_filter = ["step", "kind", "is_active"]
    search_fields = ["text"]
