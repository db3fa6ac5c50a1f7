"""What each audit verb means, in words, and the four areas the audit log is read by.

One catalogue for the Audit log page, its API and docs/security.md's table: every verb
the code writes is here (`tests/people/test_pages_audit_log.py` greps the code for
them), so a new one cannot reach the log unnamed or outside every area. A verb not in
the catalogue — one an older version wrote — is still listed, under its own code."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Area:
    label: str
    verbs: dict[str, str]  # verb → what happened, in words


def _config(thing: str, noun: str, *extra: tuple[str, str]) -> dict[str, str]:
    """A configured thing's verbs: made, changed, and deleted by hand in the admin site
    (`people.admin_audit.AuditedConfigMixin`), with its own."""
    return {
        f"{thing}.created": f"{noun} created",
        f"{thing}.changed": f"{noun} changed",
        **dict(extra),
        f"{thing}.deleted": f"{noun} deleted in the admin site",
    }


AREAS: dict[str, Area] = {
    "access": Area(
        "Signing in and access",
        {
            "auth.signed_in": "Signed in",
            "auth.sign_in_failed": "Sign-in failed",
            "mfa.added": "Two-factor method added",
            "mfa.removed": "Two-factor method removed",
            "api_token.created": "API token made",
            "api_token.revoked": "API token revoked",
            "calendar_feed.created": "Calendar address made",
            "calendar_feed.revoked": "Calendar address revoked",
            "role.granted": "Appointed",
            "role.revoked": "Appointment ended",
            "group.added": "Added to a group",
            "group.removed": "Removed from a group",
            "access.changed": "Staff or superuser access changed",
        },
    ),
    "people": Area(
        "People and teams",
        {
            "person.created": "Person added",
            "person.changed": "Name or time zone changed",
            "person.welcomed": "Welcome email sent",
            "person.deactivated": "Deactivated",
            "person.reactivated": "Reactivated",
            "reporting_line.changed": "Manager changed",
            "people.import_uploaded": "People file uploaded",
            "people.import_discarded": "People file discarded",
            "people.imported": "People imported",
            "people.welcomed": "Welcome emailed to everyone who never signed in",
            "team.created": "Team created",
            "team.renamed": "Team renamed",
            "team.lead_changed": "Team lead changed",
            "team.member_added": "Joined a team",
            "team.member_removed": "Left a team",
            "privacy.person_erased": "Departed person erased",
        },
    ),
    "reads": Area(
        "Reads and downloads",
        {
            "feedback.evaluative_read": "Evaluative feedback read",
            "feedback.evaluative_export": "Evaluative feedback downloaded",
            "dashboards.export": "Cadence-health table downloaded",
            "calendar.session_downloaded": "Session downloaded to a calendar",
            "privacy.data_exported": "Own data downloaded",
        },
    ),
    "programme": Area(
        "Programme configuration",
        {
            "plan.created": "Plan made",
            "plan.changed": "Plan changed",
            "plan.ended": "Plan ended",
            **_config(
                "policy",
                "Cadence policy",
                ("policy.applied", "Policy applied to a team"),
                ("policy.ended", "Policy ended for a team"),
            ),
            "rollout.started": "Install plan started",
            **_config(
                "channel",
                "Team channel",
                ("channel.connected", "Team channel connected"),
                ("channel.switched_off", "Team channel switched off"),
                ("channel.switched_on", "Team channel switched on"),
                ("channel.tested", "Team channel tested"),
                ("channel.removed", "Team channel removed"),
            ),
            "closure.created": "Days closed",
            "closure.cleared": "Sessions planned on closed days removed",
            "closure.removed": "Closed days opened again",
            "pair.created": "Peer pair formed",
            "pair.started": "Peer pair started",
            "pair.ended": "Peer pair ended",
            **_config("focus_area", "Focus area", ("focus_area.ended", "Focus area ended")),
            **_config(
                "prompt",
                "Question",
                ("prompt.retired", "Question retired"),
                ("prompt.restored", "Question back in use"),
            ),
            "outbox.retried": "Failed notifications sent again",
        },
    ),
}

VERBS: dict[str, str] = {
    verb: label for area in AREAS.values() for verb, label in area.verbs.items()
}
AREA_OF: dict[str, str] = {verb: key for key, area in AREAS.items() for verb in area.verbs}


def verb_label(verb: str) -> str:
    """What happened, in words; an unknown verb as its code."""
    return VERBS.get(verb, verb)
