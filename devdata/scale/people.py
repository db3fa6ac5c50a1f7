"""Writes the organisation built in `org`: people (one shared password hash), HR
and programme admins in their groups, reporting lines with their history, teams
and memberships, and the audit events the role grants would have left."""

from __future__ import annotations

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType

from devdata.demo.people import DEMO_PASSWORD
from people.models import AuditEvent, ReportingLine, Team, TeamMembership, User
from people.roles import GROUP_FOR_ROLE, Role

from .org import Org
from .sink import Sink


def write(sink: Sink, org: Org, *, seed: int) -> None:
    # One hash for everyone (hashing is slow on purpose); a fixed salt keeps the rows
    # the same from run to run.
    password = make_password(DEMO_PASSWORD, salt=f"tandemscale{seed}")
    admins = {p.id for p in org.admins}
    users = sink.table(
        User,
        (
            "id",
            "password",
            "email",
            "display_name",
            "time_zone",
            "reports_to_id",
            "is_active",
            "is_staff",
            "date_joined",
        ),
    )
    for p in org.people:
        users.add(
            (p.id, password, p.email, p.name, p.tz, p.manager, p.active, p.id in admins, p.joined)
        )

    lines = sink.table(ReportingLine, ("id", "report_id", "manager_id", "started_at", "ended_at"))
    line_id = sink.next_id(ReportingLine)
    for p in org.people:
        for stint in p.stints:
            lines.add((line_id(), p.id, stint.manager, stint.start, stint.end))

    teams = sink.table(Team, ("id", "name", "lead_id", "created_at"))
    for team in org.teams:
        teams.add((team.id, team.name, team.lead, team.created_at))
    members = sink.table(TeamMembership, ("id", "team_id", "person_id", "joined_at", "left_at"))
    member_id = sink.next_id(TeamMembership)
    for team in org.teams:
        for person_id, joined, left in team.members:
            members.add((member_id(), team.id, person_id, joined, left))

    groups = {
        role: Group.objects.using(sink.using).get_or_create(name=name)[0].pk
        for role, name in GROUP_FOR_ROLE.items()
    }
    through = User.groups.through
    in_group = sink.table(through, ("id", "user_id", "group_id"))
    in_group_id = sink.next_id(through)
    audit = sink.table(
        AuditEvent, ("id", "verb", "target_type_id", "target_id", "target_repr", "data", "at")
    )
    user_type = ContentType.objects.db_manager(sink.using).get_for_model(User).pk
    audit_id = sink.next_id(AuditEvent)
    for role, people in ((Role.HR, org.hr), (Role.PROGRAMME_ADMIN, org.admins)):
        for p in people:
            in_group.add((in_group_id(), p.id, groups[role]))
            audit.add(
                (
                    audit_id(),
                    "role.granted",
                    user_type,
                    str(p.id),
                    p.name,
                    {"role": str(role)},
                    p.joined,
                )
            )
