"""The learning loop in the admin: playbook modules and the library's tags.

Experiments and learnings are people's words and stay off the admin site."""

from django.contrib import admin

from .models import LearningTag, PlaybookModule


@admin.register(PlaybookModule)
class PlaybookModuleAdmin(admin.ModelAdmin):
    list_display = ["name", "department", "position", "is_active", "used_by"]
    list_editable = ["position", "is_active"]
    list_filter = ["department", "is_active"]
    search_fields = ["name", "summary"]
    filter_horizontal = ["teams"]
    fields = [
        "name",
        "department",
        "summary",
        "goals",
        "prompts",
        "cadence",
        "experiments",
        "position",
        "is_active",
        "teams",
    ]

    @admin.display(description="Teams using it")
    def used_by(self, obj):
        return ", ".join(t.name for t in obj.teams.all()) or "—"

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("teams")


@admin.register(LearningTag)
class LearningTagAdmin(admin.ModelAdmin):
    list_display = ["name"]
    search_fields = ["name"]
