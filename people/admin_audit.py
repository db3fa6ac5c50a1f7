"""Access changes made by hand in the admin site are audited like those made through
the services: adding someone to the HR or programme-admin group is a role grant,
ticking "staff" or "superuser" changes what they may open."""

from .models import User
from .roles import ROLE_FOR_GROUP
from .services_audit import audit_record

ACCESS_FLAGS = ("is_staff", "is_superuser")


def request_ip(request) -> str | None:
    return request.META.get("REMOTE_ADDR")


class AuditedAccessMixin:
    """For the person admin: `role.granted` / `role.revoked` for appointed-role groups
    (`data.via = "admin"`), `group.added` / `group.removed` for any other group and
    `access.changed` for the staff and superuser flags — ids and names of groups only."""

    def save_model(self, request, obj: User, form, change):
        flags = [f for f in ACCESS_FLAGS if f in form.changed_data] if change else []
        super().save_model(request, obj, form, change)
        if flags:
            audit_record(
                actor=request.user,
                verb="access.changed",
                target=obj,
                data={flag: bool(getattr(obj, flag)) for flag in flags} | {"via": "admin"},
                ip=request_ip(request),
            )

    def save_related(self, request, form, formsets, change):
        person = form.instance
        before = set(person.groups.values_list("name", flat=True)) if change else set()
        super().save_related(request, form, formsets, change)
        if "groups" not in form.changed_data:
            return
        after = set(person.groups.values_list("name", flat=True))
        for name, added in [(n, True) for n in sorted(after - before)] + [
            (n, False) for n in sorted(before - after)
        ]:
            role = ROLE_FOR_GROUP.get(name)
            if role is not None:
                verb = "role.granted" if added else "role.revoked"
                data = {"role": str(role), "via": "admin"}
            else:
                verb = "group.added" if added else "group.removed"
                data = {"group": name, "via": "admin"}
            audit_record(
                actor=request.user, verb=verb, target=person, data=data, ip=request_ip(request)
            )


class AuditedConfigMixin:
    """For programme configuration written in the admin site (focus areas, prompts,
    cadence policies): `<audit_prefix>.created` / `.changed` / `.deleted`, as the
    programme's pages record them, with the changed field names (inline rows as
    `<model> rows`) and `via: "admin"` — never the words themselves."""

    audit_prefix = ""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        changed = list(form.changed_data) + [
            f"{formset.model._meta.model_name} rows"
            for formset in formsets
            if formset.has_changed()
        ]
        if change and not changed:
            return
        audit_record(
            actor=request.user,
            verb=f"{self.audit_prefix}.{'changed' if change else 'created'}",
            target=form.instance,
            data={"fields": sorted(changed), "via": "admin"},
            ip=request_ip(request),
        )

    def delete_model(self, request, obj):
        target_id = obj.pk
        super().delete_model(request, obj)
        audit_record(
            actor=request.user,
            verb=f"{self.audit_prefix}.deleted",
            data={"id": target_id, "via": "admin"},
            ip=request_ip(request),
        )

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self.delete_model(request, obj)
