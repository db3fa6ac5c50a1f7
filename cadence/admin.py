"""Cadence configuration for programme admins: policies and the teams they are applied
to, plans (read mostly) and install plans. Team channels and the notification outbox
are in notifications/admin.py.

Assignments and plans change through `cadence.services`, so plans are never doubled
and edits regenerate only untouched sessions; hand edits of policies are audited as
the app's pages audit them (`AuditedConfigMixin`: field names). Nothing here shows
anyone's words: sessions, notes and private notes are not registered (see
coaching/admin.py), and calendar feeds (whose token is a secret) are not registered
either."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from people.admin_audit import AuditedConfigMixin

from . import policy_plans, services
from .models import CadencePlan, CadencePolicy, PolicyAssignment, PolicyItem, Rollout, RolloutTick
from .selectors import describe_rule
from .selectors_policies import plans_ending


class _EndedFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("live", "Live"), ("ended", "Ended")]

    def queryset(self, request, queryset):
        if self.value() == "live":
            return queryset.filter(ended_at__isnull=True)
        if self.value() == "ended":
            return queryset.filter(ended_at__isnull=False)
        return queryset


# --- Policies ---------------------------------------------------------------------------


class PolicyItemInline(admin.TabularInline):
    model = PolicyItem
    extra = 0
    fields = [
        "kind",
        "recurrence",
        "weekday",
        "interval_weeks",
        "week_of_month",
        "local_time",
        "duration_minutes",
    ]


@admin.register(CadencePolicy)
class CadencePolicyAdmin(AuditedConfigMixin, admin.ModelAdmin):
    audit_prefix = "policy"
    list_display = ["name", "what_it_runs", "teams"]
    search_fields = ["name"]
    fieldsets = [
        (
            None,
            {
                "fields": ["name", "description"],
                "description": (
                    "Times are wall-clock times in each coach's own time zone. Changing a "
                    "policy does not change plans already made from it: a manager adjusts "
                    "their own plans on “My cadence”, or edit them under Plans."
                ),
            },
        )
    ]
    inlines = [PolicyItemInline]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .prefetch_related("items")
            .annotate(live_teams=Count("assignments", filter=Q(assignments__ended_at__isnull=True)))
        )

    @admin.display(description="Runs")
    def what_it_runs(self, obj):
        return "; ".join(
            f"{item.get_kind_display()}: {describe_rule(item, time_zone='')}, "
            f"{item.duration_minutes} min"
            for item in obj.items.all()
        )

    @admin.display(description="Teams", ordering="live_teams")
    def teams(self, obj):
        return obj.live_teams

    def get_deleted_objects(self, objs, request):
        """A policy ever applied to a team cannot be deleted (the assignments keep it):
        one line per policy says so. Django's own list named every assignment with its
        team, a query each: 908 for the policy 900 teams run."""
        kept = (
            PolicyAssignment.objects.filter(policy__in=objs)
            .values_list("policy__name")
            .annotate(teams=Count("team", distinct=True))
            .order_by("policy__name")
        )
        protected = [
            f"{name}: applied to {teams} team{'s' if teams != 1 else ''} (now or before), "
            "which keep it; end it for them under Programme → Cadence, or keep the policy"
            for name, teams in kept
        ]
        if protected:
            return [], {}, set(), protected
        return super().get_deleted_objects(objs, request)


class PolicyAssignmentForm(forms.ModelForm):
    class Meta:
        model = PolicyAssignment
        fields = ["policy", "team"]
        help_texts = {
            "team": (
                "Applying makes a weekly 1:1 plan for each current member with the team lead, "
                "the team's call review and role-play, and the lead's manager review. Plans "
                "that exist are kept, never doubled. If the team keeps another policy, that "
                "one ends first, with its plans; the one it keeps only makes what is missing, "
                "and is refused when nothing is."
            )
        }

    def clean(self):
        cleaned = super().clean()
        policy, team = cleaned.get("policy"), cleaned.get("team")
        if policy is not None and team is not None:
            try:
                policy_plans.policy_apply_check(policy=policy, team=team)
            except ValidationError as exc:
                for field, errors in exc.message_dict.items():
                    self.add_error(field, errors)
        return cleaned

    def validate_unique(self):
        """`policy_apply` keeps one live policy per team: applying another replaces
        it; the same one again makes what is missing, or is refused (`clean`)."""


@admin.register(PolicyAssignment)
class PolicyAssignmentAdmin(admin.ModelAdmin):
    form = PolicyAssignmentForm
    list_display = ["team", "policy", "applied_at", "applied_by", "ended_at", "plans_live"]
    list_filter = [_EndedFilter, "policy"]
    list_select_related = ["team", "policy", "applied_by"]
    search_fields = ["team__name", "policy__name"]
    autocomplete_fields = ["team"]
    actions = ["end_assignments"]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(live_plans=Count("plans", filter=Q(plans__ended_at__isnull=True)))
        )

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["policy", "team"]
        return ["policy", "team", "applied_at", "applied_by", "ended_at", "plans_live"]

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.get_fields(request, obj)

    @admin.display(description="Live plans", ordering="live_plans")
    def plans_live(self, obj):
        count = getattr(obj, "live_plans", None)
        if count is None:
            count = obj.plans.live().count()
        url = reverse("admin:cadence_cadenceplan_changelist")
        return format_html('<a href="{}?assignment__id__exact={}">{}</a>', url, obj.pk, count)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # Nothing on an applied assignment is edited; ending it is the list's action.
        extra_context = {
            **(extra_context or {}),
            "show_save": False,
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def save_model(self, request, obj, form, change):
        if change:
            return
        assignment = services.policy_apply(
            policy=form.cleaned_data["policy"], team=form.cleaned_data["team"], actor=request.user
        )
        obj.pk, obj.applied_at, obj.applied_by = (
            assignment.pk,
            assignment.applied_at,
            assignment.applied_by,
        )
        made = assignment.plans.live().count()
        self.message_user(request, f"{assignment.team} keeps “{assignment.policy}”: {made} plans.")
        for unplaced in assignment.unplaced:  # laid out as Team cadence's preview shows
            self.message_user(
                request, f"Not placed — {unplaced.who}: {unplaced.why}", messages.WARNING
            )

    @admin.action(description="End these assignments (and their plans)…", permissions=["change"])
    def end_assignments(self, request, queryset):
        """Asks first, listing the plans that would end; ends them once confirmed."""
        if request.POST.get("confirmed") != "yes":
            ending = [
                plans_ending(team=assignment.team)
                for assignment in queryset.filter(ended_at__isnull=True).select_related("team")
            ]
            context = {
                **self.admin_site.each_context(request),
                "title": "End these assignments and their plans?",
                "opts": self.model._meta,
                "ending": [e for e in ending if e is not None],
                "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
            }
            return TemplateResponse(request, "admin/cadence/end_assignments_confirm.html", context)
        ended = 0
        for assignment in queryset.filter(ended_at__isnull=True).select_related("team"):
            services.policy_assignment_end(assignment=assignment, actor=request.user)
            ended += 1
        self.message_user(
            request,
            f"Ended {ended} assignment{'s' if ended != 1 else ''} and their plans."
            if ended
            else "Those had already ended.",
            messages.SUCCESS if ended else messages.WARNING,
        )

    def has_delete_permission(self, request, obj=None):
        return False


# --- Plans ------------------------------------------------------------------------------

PLAN_EDITABLE = [
    "recurrence",
    "weekday",
    "interval_weeks",
    "week_of_month",
    "local_time",
    "duration_minutes",
    "time_zone",
    "paused",
    "ends_on",
]
PLAN_SHOWN = [
    "kind",
    "coach",
    "coachee",
    "team",
    "assignment",
    "starts_on",
    "generated_until",
    "created_at",
    "updated_at",
    "ended_at",
    "ended_by",
    "end_reason",
    "end_note",
]


@admin.register(CadencePlan)
class CadencePlanAdmin(admin.ModelAdmin):
    """Read mostly: rule fields change through `plan_update_as_admin` (which replaces
    the untouched future sessions); plans are never added or deleted here."""

    list_display = ["kind", "coach", "with_whom", "rule", "paused", "ended"]
    list_filter = [_EndedFilter, "kind", "paused", "end_reason", "recurrence", "team"]
    list_select_related = ["coach", "coachee", "team"]
    search_fields = [
        "coach__display_name",
        "coach__email",
        "coachee__display_name",
        "coachee__email",
        "team__name",
    ]
    fieldsets = [
        ("Who", {"fields": ["kind", "coach", "coachee", "team", "assignment"]}),
        (
            "When",
            {
                "fields": [*PLAN_EDITABLE[:7], "starts_on", "ends_on", "paused"],
                "description": (
                    "Saving a change replaces the future sessions nobody has touched; "
                    "prepared, moved, held or cancelled ones stay."
                ),
            },
        ),
        (
            "State",
            {
                "fields": [
                    "generated_until",
                    "created_at",
                    "updated_at",
                    "ended_at",
                    "ended_by",
                    "end_reason",
                    "end_note",
                ]
            },
        ),
    ]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and not obj.is_live:
            return [*PLAN_SHOWN, *PLAN_EDITABLE]
        return PLAN_SHOWN

    @admin.display(description="With")
    def with_whom(self, obj):
        return obj.coachee or obj.team

    @admin.display(description="Rule")
    def rule(self, obj):
        return f"{describe_rule(obj)} · {obj.duration_minutes} min"

    @admin.display(description="Ended", ordering="ended_at")
    def ended(self, obj):
        if obj.ended_at is None:
            return "—"
        return f"{obj.ended_at:%Y-%m-%d} · {obj.get_end_reason_display()}"

    def save_model(self, request, obj, form, change):
        changes = {
            name: form.cleaned_data[name] for name in form.changed_data if name in PLAN_EDITABLE
        }
        if changes:
            services.plan_update_as_admin(plan=obj, actor=request.user, **changes)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- Install plans ----------------------------------------------------------------------


class RolloutTickInline(admin.TabularInline):
    model = RolloutTick
    fields = ["item", "ticked_by", "ticked_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Rollout)
class RolloutAdmin(admin.ModelAdmin):
    """Install plans are started from the team's page (by its lead, someone above the
    lead or a programme admin); here a start date entered wrongly can be corrected.
    The lead ticks the by-hand items on the team's page."""

    list_display = ["team", "starts_on", "created_by", "created_at"]
    list_select_related = ["team", "created_by"]
    search_fields = ["team__name"]
    fields = ["team", "starts_on", "created_by", "created_at"]
    readonly_fields = ["team", "created_by", "created_at"]
    inlines = [RolloutTickInline]

    def has_add_permission(self, request):
        return False
