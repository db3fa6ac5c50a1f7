"""The groups behind appointed roles and the admin permissions they carry.

Kept in code and applied after every migrate (idempotent, add-only), so a fresh
database and an upgraded one end up the same; extra permissions an operator grants
in the admin are left alone."""

from django.contrib.auth.models import Group, Permission

from .roles import GROUP_FOR_ROLE, Role

# app_label.codename; later issues add their configuration models here.
ROLE_PERMISSIONS: dict[Role, list[str]] = {
    Role.HR: [],
    Role.PROGRAMME_ADMIN: [
        "people.view_user",
        "people.add_user",
        "people.change_user",
        "people.view_team",
        "people.add_team",
        "people.change_team",
        "people.view_teammembership",
        "people.add_teammembership",
        "people.change_teammembership",
        "people.view_auditevent",
        "django_celery_beat.view_periodictask",
        "django_celery_beat.change_periodictask",
        "django_celery_beat.view_crontabschedule",
        "django_celery_beat.add_crontabschedule",
        "django_celery_beat.change_crontabschedule",
        "feedback.view_interpretiveterm",
        "feedback.add_interpretiveterm",
        "feedback.change_interpretiveterm",
        "feedback.delete_interpretiveterm",
        "coaching.view_focusarea",
        "coaching.add_focusarea",
        "coaching.change_focusarea",
        "coaching.delete_focusarea",
        "coaching.view_prompt",
        "coaching.add_prompt",
        "coaching.change_prompt",
        "coaching.delete_prompt",
        # The learning loop: playbook modules and the library's tags.
        "learning.view_playbookmodule",
        "learning.add_playbookmodule",
        "learning.change_playbookmodule",
        "learning.view_learningtag",
        "learning.change_learningtag",
        "learning.delete_learningtag",
        # Peer pairs: the agreement template (one row) and the pairs, read only.
        "peers.view_agreementtemplate",
        "peers.change_agreementtemplate",
        "peers.view_peerpair",
        # Cadence: policies and their items, applying them to teams (ending is a
        # change), plans (read, rule edits), team channels, the outbox (read only).
        "cadence.view_cadencepolicy",
        "cadence.add_cadencepolicy",
        "cadence.change_cadencepolicy",
        "cadence.view_policyitem",
        "cadence.add_policyitem",
        "cadence.change_policyitem",
        "cadence.delete_policyitem",
        "cadence.view_policyassignment",
        "cadence.add_policyassignment",
        "cadence.change_policyassignment",
        "cadence.view_cadenceplan",
        "cadence.change_cadenceplan",
        "notifications.view_teamchannel",
        "notifications.add_teamchannel",
        "notifications.change_teamchannel",
        "notifications.delete_teamchannel",
        "notifications.view_notification",
        # Install plans: correcting a start date; the ticks read only.
        "cadence.view_rollout",
        "cadence.change_rollout",
        "cadence.view_rollouttick",
    ],
}


def ensure_role_groups() -> None:
    for role, group_name in GROUP_FOR_ROLE.items():
        group, _ = Group.objects.get_or_create(name=group_name)
        wanted = ROLE_PERMISSIONS.get(role, [])
        if not wanted:
            continue
        by_key = {
            f"{p.content_type.app_label}.{p.codename}": p
            for p in Permission.objects.select_related("content_type").filter(
                codename__in=[w.split(".", 1)[1] for w in wanted]
            )
        }
        group.permissions.add(*(by_key[w] for w in wanted if w in by_key))


def ensure_role_groups_after_migrate(sender, **kwargs):
    ensure_role_groups()
