"""Programme configuration in the admin: focus areas and the question bank.

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


# --- The learning loop: playbook modules and library tags (experiments and learnings
# are people's words and stay off the admin site).

from .models import LearningTag, PlaybookModule  # noqa: E402


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


# --- Peer pairs: the agreement template a new pair starts from (one row), and the
# pairs themselves read-only — never their notes, habits or check-ins, which are
# the pair's own words.

from django.utils import timezone  # noqa: E402

from .models import AgreementTemplate, PairMember, PeerPair  # noqa: E402


@admin.register(AgreementTemplate)
class AgreementTemplateAdmin(admin.ModelAdmin):
    list_display = ["__str__", "updated_at"]
    fields = ["text", "updated_at"]
    readonly_fields = ["updated_at"]

    def has_add_permission(self, request):
        # One row: a new pair copies it; the one seeded by migration is edited.
        return super().has_add_permission(request) and not AgreementTemplate.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        obj.updated_at = timezone.now()
        super().save_model(request, obj, form, change)


class PairMemberInline(admin.TabularInline):
    model = PairMember
    fields = ["person", "accepted_at", "left_at", "left_reason"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(PeerPair)
class PeerPairAdmin(admin.ModelAdmin):
    """Read-only: who is in which pair and how it meets. Pairs are formed on the
    Peers pages, where the members accept; the notes are not here."""

    list_display = ["__str__", "status", "rationale", "focus_area", "created_by", "created_at"]
    list_filter = ["rationale", "started_at", "ended_at"]
    list_select_related = ["focus_area", "created_by"]
    fields = [
        "rationale",
        "rationale_note",
        "focus_area",
        "agreement_text",
        "weekday",
        "local_time",
        "time_zone",
        "interval_weeks",
        "duration_minutes",
        "created_by",
        "created_at",
        "started_at",
        "ended_at",
    ]
    readonly_fields = fields
    inlines = [PairMemberInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
