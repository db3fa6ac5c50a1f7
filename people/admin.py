from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.html import format_html

from . import admin_credentials  # noqa: F401  (takes credentials out of the admin site)
from .admin_audit import AuditedAccessMixin
from .admin_erasure import erase_people
from .audit_catalogue import VERBS
from .models import AuditEvent, ReportingLine, Team, TeamMembership, User
from .roles import GROUP_FOR_ROLE
from .services import (
    account_deactivate,
    account_reactivate,
    reporting_line_change,
    reporting_line_validate,
)
from .services_teams import team_create, team_update


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


@admin.action(
    description="Deactivate selected people (ends their sign-ins)", permissions=["change"]
)
def deactivate_people(modeladmin, request, queryset):
    done = 0
    for person in queryset.order_by("pk"):
        if person.pk == request.user.pk:
            messages.error(request, "You cannot deactivate yourself.")
            continue
        if not modeladmin.has_change_permission(request, person):
            messages.error(request, f"Only a superuser can deactivate {person}.")
            continue
        account_deactivate(actor=request.user, person=person, reason="departed")
        done += 1
    if done:
        messages.success(request, f"Deactivated {done}: their sessions and tokens are ended.")


@admin.register(User)
class UserAdmin(AuditedAccessMixin, DjangoUserAdmin):
    add_form = PersonCreationForm
    form = PersonChangeForm
    ordering = ["display_name"]
    list_display = ["display_name", "email", "reports_to", "time_zone", "is_active"]
    list_filter = ["is_active", "is_staff", "groups"]
    list_select_related = ["reports_to"]
    search_fields = ["display_name", "email"]
    autocomplete_fields = ["reports_to"]
    readonly_fields = ["last_login", "date_joined", "welcome_sent_at"]
    inlines = [ReportingLineInline]
    actions = [deactivate_people, erase_people]
    fieldsets = [
        (None, {"fields": ["email", "password"]}),
        ("Person", {"fields": ["display_name", "time_zone", "reports_to"]}),
        ("Access", {"fields": ["is_active", "is_staff", "is_superuser", "groups"]}),
        ("Dates", {"fields": ["last_login", "date_joined", "welcome_sent_at"]}),
    ]

    def get_readonly_fields(self, request, obj=None):
        # A programme admin manages people but cannot make anyone, themselves least,
        # more than that: only a superuser makes a superuser; their own access (staff,
        # groups, active) is changed by someone else; and another person's email is
        # not theirs to change — with the password reset it would hand them the account
        # (and whatever that person may read).
        fields = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            fields.append("is_superuser")
            if obj is not None and obj.pk == request.user.pk:
                fields += ["is_staff", "is_active", "groups"]
            elif obj is not None:
                fields.append("email")
        return fields

    def user_change_password(self, request, id, form_url=""):
        # Setting someone's password is taking over their account: superusers only.
        # Everyone else resets their own, by email.
        if not request.user.is_superuser:
            raise PermissionDenied
        return super().user_change_password(request, id, form_url)

    def has_change_permission(self, request, obj=None):
        # A superuser's account (password, email, groups) is changed by superusers only.
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        # Programme admins appoint HR and programme admins; other groups (which may
        # carry any permission) are for superusers to hand out.
        if db_field.name == "groups" and not request.user.is_superuser:
            kwargs["queryset"] = Group.objects.filter(name__in=GROUP_FOR_ROLE.values())
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        # The reporting line and deactivation go through their services, so history,
        # audit and the end of every sign-in are kept.
        line_changed = change and "reports_to" in form.changed_data
        active_changed = change and "is_active" in form.changed_data
        new_manager = obj.reports_to
        if line_changed:
            obj.reports_to_id = form.initial.get("reports_to")
        if active_changed:
            obj.is_active = form.initial.get("is_active", not obj.is_active)
        deactivating = active_changed and obj.is_active
        super().save_model(request, obj, form, change)
        if line_changed:
            reporting_line_change(person=obj, manager=new_manager, actor=request.user)
        if active_changed and deactivating:
            account_deactivate(actor=request.user, person=obj, reason="unspecified")
            obj.is_active = False
        elif active_changed:
            account_reactivate(actor=request.user, person=obj)
            obj.is_active = True

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
    """Read here; people are added and taken off on Programme → Teams, through the
    services, so the audit trail and the cadence follow."""

    model = TeamMembership
    extra = 0
    fields = ["person", "joined_at", "left_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

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
    fieldsets = [
        (
            None,
            {
                "fields": ["name", "lead"],
                "description": "People are added to a team and taken off it on Programme → "
                "Teams, where the cadence follows each change.",
            },
        )
    ]

    def save_model(self, request, obj, form, change):
        """Through the services, as the Teams pages save: audited, and a new lead takes
        over the plans the team's policy made."""
        if not change:
            team = team_create(name=obj.name, lead=obj.lead, actor=request.user)
            obj.pk, obj.created_at = team.pk, team.created_at
            return
        team_update(team=obj, name=obj.name, lead=obj.lead, actor=request.user)


class VerbFilter(admin.SimpleListFilter):
    """The verbs from the catalogue, in words: Django's own filter would read the
    distinct verbs of the whole trail on every page (bench/routes.py, the admin site)."""

    title = "verb"
    parameter_name = "verb"

    def lookups(self, request, model_admin):
        return sorted(VERBS.items(), key=lambda item: item[1])

    def queryset(self, request, queryset):
        return queryset.filter(verb=self.value()) if self.value() else queryset


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Read-only for everyone, superusers included: the audit trail is append-only.
    Filter by verb and date; search by verb, target, actor (a person's name in the list
    links to their events). Built for a trail of millions of events: no list of every
    actor (a sidebar of everyone who ever signed in), no date hierarchy (the distinct
    years of every event), one count a page."""

    list_display = ["at", "actor_link", "verb", "target_repr", "ip"]
    list_filter = [VerbFilter, ("at", admin.DateFieldListFilter)]
    list_select_related = ["actor"]
    search_fields = ["verb", "target_repr", "target_id", "actor__email", "actor__display_name"]
    show_full_result_count = False
    fields = ["at", "actor", "verb", "target_type", "target_id", "target_repr", "data", "ip"]
    readonly_fields = fields
    actions = None  # no bulk delete, whatever permissions someone holds

    @admin.display(description="actor", ordering="actor__display_name")
    def actor_link(self, event):
        if event.actor_id is None:
            return "-"
        url = reverse("admin:people_auditevent_changelist") + f"?actor__id__exact={event.actor_id}"
        return format_html('<a href="{}">{}</a>', url, event.actor)

    def lookup_allowed(self, lookup, value, request=None):
        # One person's events, from the link on their name.
        return lookup == "actor__id__exact" or super().lookup_allowed(lookup, value, request)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
