"""People's part of a person's data (see `people.privacy`): profile, reporting lines,
teams, the audit trail about them; on erasure, the sign-in material goes and the
person row is anonymised."""

import re

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth.hashers import make_password
from django.contrib.contenttypes.models import ContentType
from django.db.models import Aggregate, Count, Q, TextField
from rest_framework.authtoken.models import Token

from .erasure import erased_email, former_name
from .models import (
    AuditEvent,
    ImportStatus,
    PeopleImport,
    ReportingLine,
    SignInSession,
    Team,
    TeamMembership,
    User,
    work_days_of,
)
from .privacy import Erasure, erasure_part, export_section, named, ref, when
from .selectors import roles_of


@export_section("profile")
def profile(person: User) -> dict:
    return {
        "id": person.pk,
        "email": person.email,
        "display_name": person.display_name,
        "time_zone": person.time_zone,
        "working_hours": {
            "days": work_days_of(person.work_days),
            "starts": person.work_starts.strftime("%H:%M"),
            "ends": person.work_ends.strftime("%H:%M"),
        },
        "date_joined": when(person.date_joined),
        "last_login": when(person.last_login),
        "welcome_sent_at": when(person.welcome_sent_at),
        "is_active": person.is_active,
        "roles": sorted(str(role) for role in roles_of(person)),
        "api_token": Token.objects.filter(user=person).exists(),
        "mfa_methods": sorted(
            Authenticator.objects.filter(user=person).values_list("type", flat=True)
        ),
    }


@export_section("reporting_lines")
def reporting_lines(person: User) -> dict:
    """Who they reported to, when — and who reported to them."""
    lines = ReportingLine.objects.filter(Q(report=person) | Q(manager=person)).select_related(
        "report", "manager"
    )
    return {
        "managers": [
            {
                "manager": ref(line.manager),
                "started_at": when(line.started_at),
                "ended_at": when(line.ended_at),
            }
            for line in lines
            if line.report_id == person.pk
        ],
        "reports": [
            {
                "report": ref(line.report),
                "started_at": when(line.started_at),
                "ended_at": when(line.ended_at),
            }
            for line in lines
            if line.manager_id == person.pk
        ],
    }


@export_section("teams")
def teams(person: User) -> dict:
    memberships = TeamMembership.objects.filter(person=person).select_related("team")
    return {
        "memberships": [
            {
                "team": {"id": m.team_id, "name": m.team.name},
                "joined_at": when(m.joined_at),
                "left_at": when(m.left_at),
            }
            for m in memberships
        ],
        "leads": [{"id": t.pk, "name": t.name} for t in Team.objects.filter(lead=person)],
    }


def audit_about(person: User):
    """Events they caused, and events whose target is them."""
    user_type = ContentType.objects.get_for_model(User)
    return AuditEvent.objects.filter(
        Q(actor=person) | Q(target_type=user_type, target_id=str(person.pk))
    )


class _Joined(Aggregate):
    """A group's values as one comma-separated string: PostgreSQL's string_agg,
    SQLite's group_concat."""

    function = "STRING_AGG"
    template = "%(function)s(%(expressions)s, ',')"
    output_field = TextField()

    def as_sqlite(self, compiler, connection, **extra):
        return super().as_sql(compiler, connection, function="GROUP_CONCAT", **extra)


@export_section("audit_events")
def audit_events(person: User) -> list:
    """One entry per thing that happened: the events written together (a page of
    evaluative feedback read, an export: the same moment, verb, actor, details and
    address) are one entry with every target's id, grouped by the database. Someone
    who reviews evaluative feedback gathers an event per item read, hundreds of
    thousands over the years: 365,000 made the head's download 77 MB."""
    groups = (
        audit_about(person)
        .values("at", "verb", "actor_id", "actor__display_name", "target_type__model", "data", "ip")
        .annotate(events=Count("id"), target_ids=_Joined("target_id"))
        .order_by("at", "verb")
    )
    return [
        {
            "at": when(group["at"]),
            "verb": group["verb"],
            "actor": named(group["actor_id"], group["actor__display_name"]),
            "target_type": group["target_type__model"],
            "target_ids": _ids(group["target_ids"]),
            "events": group["events"],
            "data": group["data"],
            "ip": group["ip"],
        }
        for group in groups
    ]


def _ids(joined: str | None) -> list[str]:
    """Target ids in order (numbers as numbers), without the empty ones of events
    that have no target."""
    ids = [target for target in (joined or "").split(",") if target]
    return sorted(ids, key=lambda target: (len(target), target))


def _sign_in_sessions(person: User):
    """Their sign-in sessions: each row of the session store knows whose it is
    (people/sessions.py), so one indexed query finds them."""
    return SignInSession.objects.filter(user_id=person.pk)


@erasure_part
def erase(person: User) -> Erasure:
    user_type = ContentType.objects.get_for_model(User)
    me = User.objects.filter(pk=person.pk)
    return Erasure(
        delete=[
            _sign_in_sessions(person),
            Token.objects.filter(user=person),
            Authenticator.objects.filter(user=person),
            EmailAddress.objects.filter(user=person),
            SocialAccount.objects.filter(user=person),
            User.groups.through.objects.filter(user=person),
            User.user_permissions.through.objects.filter(user=person),
        ],
        anonymise=[
            (
                me,
                {
                    "display_name": former_name(person.pk),
                    "email": erased_email(person.pk),
                    "password": make_password(None),
                    "is_staff": False,
                    "is_superuser": False,
                    "last_login": None,
                    "welcome_sent_at": None,
                },
            ),
            # Their name, as it was written into the trail's "target" column.
            (
                AuditEvent.objects.filter(target_type=user_type, target_id=str(person.pk)),
                {"target_repr": former_name(person.pk)},
            ),
            *_imports_naming(person),
        ],
        keep=[
            ReportingLine.objects.filter(Q(report=person) | Q(manager=person)),
            TeamMembership.objects.filter(person=person),
            AuditEvent.objects.filter(actor=person),
            PeopleImport.objects.filter(Q(uploaded_by=person) | Q(applied_by=person)),
        ],
    )


def _imports_naming(person: User) -> list:
    """People imports whose file or problems hold the person's address: the text goes
    (the counts stay), and one that could still be applied is discarded."""
    # The whole address, so erasing rep@ leaves a file naming other.rep@ alone.
    address = rf"(^|[^a-z0-9.!#$%&'*+/=?^_`{{|}}~@-]){re.escape(person.email)}($|[^a-z0-9.-])"
    naming = PeopleImport.objects.filter(Q(csv_text__iregex=address) | Q(problems__iregex=address))
    open_ = [ImportStatus.CHECKING, ImportStatus.READY]
    cleared = {"csv_text": "", "problems": ""}
    return [
        (naming.filter(status__in=open_), {**cleared, "status": ImportStatus.DISCARDED}),
        (naming.exclude(status__in=open_), cleared),
    ]
