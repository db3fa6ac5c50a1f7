"""Team channels and the notification outbox (read only) for programme admins. Hand
edits of team channels are audited as the app's pages audit them
(`AuditedConfigMixin`: field names, never a webhook address); notifications hold only
references, never anyone's words."""

from django.contrib import admin

from people.admin_audit import AuditedConfigMixin

from .models import Notification, TeamChannel


@admin.register(TeamChannel)
class TeamChannelAdmin(AuditedConfigMixin, admin.ModelAdmin):
    """Team-level messages only (names, times, counts). Failures stay here to see."""

    audit_prefix = "channel"

    list_display = ["team", "format", "is_active", "last_success_at", "last_failure_at", "error"]
    list_filter = ["is_active", "format"]
    list_select_related = ["team"]
    search_fields = ["team__name"]
    autocomplete_fields = ["team"]
    fields = [
        "team",
        "webhook_url",
        "format",
        "is_active",
        "last_success_at",
        "last_failure_at",
        "last_error",
    ]
    readonly_fields = ["last_success_at", "last_failure_at", "last_error"]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "webhook_url":
            kwargs["assume_scheme"] = "https"
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    @admin.display(description="Last error")
    def error(self, obj):
        return (obj.last_error[:80] + "…") if len(obj.last_error) > 80 else obj.last_error


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """Read only. A row is a reference (kind, who, status); the message itself is
    rendered at send time and never stored. Built for a year of the outbox (1.4 million
    rows at 10,000 people): newest recorded first by id, the primary key's order, as
    no other index covers every row (each one more is written again whenever a row
    changes status); no date hierarchy (the distinct years of every row); one count
    (bench/routes.py reads the admin site too)."""

    list_display = ["kind", "audience", "status", "attempts", "last_error", "created_at"]
    list_filter = ["status", "kind"]
    list_select_related = ["recipient", "team"]
    search_fields = ["recipient__email", "recipient__display_name", "team__name"]
    ordering = ["-id"]
    show_full_result_count = False
    fields = [
        "kind",
        "recipient",
        "team",
        "feedback_request",
        "period",
        "status",
        "attempts",
        "last_error",
        "next_attempt_at",
        "sent_at",
        "created_at",
    ]

    @admin.display(description="To")
    def audience(self, obj):
        return obj.recipient or obj.team

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
