from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from .models import AuditEvent, ReportingLine, Team, TeamMembership, User
from .services import reporting_line_change, reporting_line_validate


class PersonCreationForm(AdminUserCreationForm):
    class Meta:
        model = User
        fields = ["email", "display_name", "time_zone"]


class PersonChangeForm(UserChangeForm):
    class Meta:
        model = User
        fields = "__all__"

    def clean_reports_to(self):
        manager = self.cleaned_data.get("reports_to")
        if self.instance.pk and manager != self.instance.reports_to:
            reporting_line_validate(person=self.instance, manager=manager)
        return manager


class ReportingLineInline(admin.TabularInline):
    model = ReportingLine
    fk_name = "report"
    extra = 0
    fields = ["manager", "started_at", "ended_at"]
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = "Reporting-line history"

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    add_form = PersonCreationForm
    form = PersonChangeForm
    ordering = ["display_name"]
    list_display = ["display_name", "email", "reports_to", "time_zone", "is_active"]
    list_filter = ["is_active", "is_staff", "groups"]
    list_select_related = ["reports_to"]
    search_fields = ["display_name", "email"]
    autocomplete_fields = ["reports_to"]
    readonly_fields = ["last_login", "date_joined"]
    inlines = [ReportingLineInline]
    fieldsets = [
        (None, {"fields": ["email", "password"]}),
        ("Person", {"fields": ["display_name", "time_zone", "reports_to"]}),
        ("Access", {"fields": ["is_active", "is_staff", "is_superuser", "groups"]}),
        ("Dates", {"fields": ["last_login", "date_joined"]}),
    ]

    def save_model(self, request, obj, form, change):
        # The reporting line goes through the service so history and audit are kept.
        line_changed = change and "reports_to" in form.changed_data
        new_manager = obj.reports_to
        if line_changed:
            obj.reports_to_id = form.initial.get("reports_to")
        super().save_model(request, obj, form, change)
        if line_changed:
            reporting_line_change(person=obj, manager=new_manager, actor=request.user)

    add_fieldsets = [
        (
            None,
            {
                "classes": ["wide"],
                "fields": ["email", "display_name", "time_zone", "password1", "password2"],
            },
        ),
    ]


class TeamMembershipInline(admin.TabularInline):
    model = TeamMembership
    extra = 0
    autocomplete_fields = ["person"]
    fields = ["person", "joined_at", "left_at"]

    def get_queryset(self, request):
        # Each row is named after its person and team.
        return super().get_queryset(request).select_related("person", "team")


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "lead"]
    list_select_related = ["lead"]
    search_fields = ["name"]
    autocomplete_fields = ["lead"]
    inlines = [TeamMembershipInline]


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Read-only: the audit trail is append-only."""

    list_display = ["at", "actor", "verb", "target_repr", "ip"]
    list_filter = ["verb"]
    list_select_related = ["actor"]
    search_fields = ["verb", "target_repr", "actor__email"]
    date_hierarchy = "at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
