"""Peer pairs in the admin: the agreement template a new pair starts from (one row),
and the pairs themselves read-only — never their notes, habits or check-ins, which are
the pair's own words."""

from django.contrib import admin
from django.utils import timezone

from .models import AgreementTemplate, PairMember, PeerPair


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
