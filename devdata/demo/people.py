"""The demo organisation: a sales org on two continents, plus HR and a programme admin.

Idempotent: people are matched by email, reporting lines and memberships are only
changed when different, and every demo password is (re)set so the printed logins work."""

from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from people.models import (
    WORK_ENDS_DEFAULT,
    WORK_STARTS_DEFAULT,
    AuditEvent,
    Team,
    TeamMembership,
    User,
    work_days_bits,
)
from people.roles import Role
from people.services import account_create, reporting_line_change
from people.services_audit import audit_record
from people.services_roles import role_grant
from people.services_teams import team_create, team_lead_set, team_member_add

DEMO_PASSWORD = "tandem-demo-2026"
DOMAIN = "example.com"


@dataclass(frozen=True)
class DemoPerson:
    key: str
    name: str
    time_zone: str
    manager: str | None = None
    role: str = "rep"  # label printed next to the login


HEAD = DemoPerson("daniel.mensah", "Daniel Mensah", "America/New_York", role="head of sales")
ADMIN = DemoPerson("ada.okafor", "Ada Okafor", "Europe/London", role="programme admin")
HR = DemoPerson("helen.park", "Helen Park", "Europe/London", role="HR")

TEAMS = {
    "Enterprise East": DemoPerson(
        "sofia.alvarez", "Sofia Alvarez", "America/New_York", HEAD.key, "manager"
    ),
    "Mid-Market Central": DemoPerson(
        "marcus.chen", "Marcus Chen", "America/Chicago", HEAD.key, "manager"
    ),
    "EMEA Growth": DemoPerson("lena.fischer", "Lena Fischer", "Europe/Berlin", HEAD.key, "manager"),
}

REPS = {
    "Enterprise East": [
        ("Aisha Bello", "America/New_York"),
        ("Tom Becker", "America/New_York"),
        ("Grace Liu", "America/Toronto"),
        ("Diego Ramos", "America/New_York"),
        ("Hannah Scott", "America/New_York"),
        ("Kwame Asante", "America/Toronto"),
        ("Emily Novak", "America/New_York"),
        ("Ravi Shah", "America/New_York"),
    ],
    "Mid-Market Central": [
        ("Jordan Lee", "America/Chicago"),
        ("Maria Gonzalez", "America/Chicago"),
        ("Sam Carter", "America/Denver"),
        ("Nina Petrova", "America/Chicago"),
        ("Owen Murphy", "America/Chicago"),
        ("Fatima Khan", "America/Denver"),
        ("Lucas Silva", "America/Chicago"),
        ("Chloe Martin", "America/Chicago"),
    ],
    "EMEA Growth": [
        ("Jonas Weber", "Europe/Berlin"),
        ("Camille Dubois", "Europe/Paris"),
        ("Oliver Hughes", "Europe/London"),
        ("Sara Rossi", "Europe/Rome"),
        ("Mateusz Nowak", "Europe/Warsaw"),
        ("Ingrid Larsen", "Europe/Oslo"),
        ("Amara Nwosu", "Europe/London"),
        ("Pablo Ortega", "Europe/Madrid"),
    ],
}


def demo_email(key: str) -> str:
    return f"{key}@{DOMAIN}"


def _key(name: str) -> str:
    return name.lower().replace(" ", ".")


def demo_people() -> list[DemoPerson]:
    people = [HEAD, ADMIN, HR, *TEAMS.values()]
    for team, reps in REPS.items():
        manager = TEAMS[team].key
        people += [DemoPerson(_key(name), name, tz, manager) for name, tz in reps]
    return people


# People whose working hours are their own (everyone else: Monday–Friday 09:00–17:00):
# the free slots offered to move their 1:1s keep to them.
OWN_WORKING_HOURS = {
    "Grace Liu": ([0, 1, 2, 3], time(8, 0), time(16, 0)),  # a four-day week, early
    "Lena Fischer": ([0, 1, 2, 3, 4], time(8, 30), time(16, 30)),
}

# The organisation was there before its coaching programme: the people, their lines
# and their teams date from this long ago, before the oldest history (the focus area
# before the current one, about 25 weeks back) — not from the day the demo was seeded.
ORGANISED_WEEKS_AGO = 30


@transaction.atomic
def seed_people() -> list[tuple[DemoPerson, User]]:
    """Create or refresh the demo organisation; returns every person with their row."""
    organised = timezone.now() - timedelta(weeks=ORGANISED_WEEKS_AGO)
    rows: dict[str, User] = {}
    # One hash for everyone: the demo shares one password, and hashing is deliberately slow.
    password_hash = make_password(DEMO_PASSWORD)
    for spec in demo_people():  # managers come before their reports in this list
        person = User.objects.with_email(demo_email(spec.key)).first()
        new = person is None
        if new:
            person = account_create(
                email=demo_email(spec.key), display_name=spec.name, time_zone=spec.time_zone
            )
            person.date_joined = organised
        person.password = password_hash
        person.display_name, person.time_zone, person.is_active = spec.name, spec.time_zone, True
        days, starts, ends = OWN_WORKING_HOURS.get(
            spec.name, ([0, 1, 2, 3, 4], WORK_STARTS_DEFAULT, WORK_ENDS_DEFAULT)
        )
        person.work_days, person.work_starts, person.work_ends = work_days_bits(days), starts, ends
        person.save()
        manager = rows[spec.manager] if spec.manager else None
        reporting_line_change(person=person, manager=manager, at=organised if new else None)
        rows[spec.key] = person

    role_grant(person=rows[ADMIN.key], role=Role.PROGRAMME_ADMIN)
    role_grant(person=rows[HR.key], role=Role.HR)

    created = []
    for team_name, lead_spec in TEAMS.items():
        team = Team.objects.with_name(team_name).first()
        lead = rows[lead_spec.key]
        if team is None:
            team = team_create(name=team_name, lead=lead)
            created.append(team.pk)
        team_lead_set(team=team, lead=lead)
        for name, _tz in REPS[team_name]:
            team_member_add(team=team, person=rows[_key(name)])
    Team.objects.filter(pk__in=created).update(created_at=organised)
    TeamMembership.objects.filter(team__in=created).update(joined_at=organised)
    return [(spec, rows[spec.key]) for spec in demo_people()]


def _export_row(spec: DemoPerson) -> str:
    """One person as the HR system's nightly export writes them."""
    team = next((name for name, lead in TEAMS.items() if lead.key == spec.key), "")
    role = "manager" if team else ""
    if not team and spec.manager in {lead.key for lead in TEAMS.values()}:
        team = next(name for name, lead in TEAMS.items() if lead.key == spec.manager)
    role = {ADMIN.key: "programme_admin", HR.key: "hr"}.get(spec.key, role)
    manager = demo_email(spec.manager) if spec.manager else ""
    return f"{demo_email(spec.key)},{spec.name},{manager},{team},{spec.time_zone},{role}\n"


def demo_export_csv() -> str:
    """The demo organisation as a people file: what HR's export would hold."""
    return "email,name,manager_email,team,time_zone,role\n" + "".join(
        _export_row(spec) for spec in demo_people()
    )


def seed_imports(people: dict[str, User]) -> str:
    """Last Monday's import of HR's export, applied by the programme admin: everyone
    unchanged, as a nightly sync finds most nights. Once only."""
    from people import import_worker
    from people import services_imports as imports
    from people.models import PeopleImport

    if PeopleImport.objects.exists():
        return "People imports already present — left as they are."
    admin = people[ADMIN.key]
    raw = demo_export_csv().encode()
    job = imports.import_upload(actor=admin, file_name="hr-export-monday.csv", raw=raw)
    import_worker.import_run(job.pk)  # as the worker would; its queued run then finds it done
    job.refresh_from_db()
    imports.import_apply(actor=admin, job=job)
    import_worker.import_run(job.pk)
    today = timezone.localdate(timezone=admin.tzinfo)
    monday = today - timedelta(days=today.weekday() or 7)  # the last Monday before today
    at = datetime.combine(monday, time(7, 30), tzinfo=admin.tzinfo)
    PeopleImport.objects.filter(pk=job.pk).update(uploaded_at=at, status_changed_at=at)
    return "People import history: HR's export, applied (everyone unchanged)."


# Added by the programme admin this week, none of them signed in yet: the "Never signed
# in" tab on Programme → People shows each state of a welcome — sent yesterday, its link
# still working; sent four days ago, its link expired (links last three days); not sent.
# Not in HR's export yet, on no team and reporting to nobody until it runs.
NEW_STARTERS = [
    # name, time zone, added how long ago, welcome sent how long ago (None: not sent)
    ("Yara Haddad", "Europe/London", timedelta(days=1, hours=2), timedelta(days=1)),
    ("Leo Brandt", "Europe/Berlin", timedelta(days=4, hours=3), timedelta(days=4)),
    ("Mina Sato", "America/Chicago", timedelta(hours=5), None),
]


@transaction.atomic
def seed_new_starters(people: dict[str, User]) -> str:
    """The new starters, added by the programme admin (audited when it happened), with
    `welcome_sent_at` as the worker would have noted it. Once only: someone already
    here is left as they are (signed in since, or welcomed again)."""
    admin, now, added = people[ADMIN.key], timezone.now(), 0
    for name, time_zone, added_ago, sent_ago in NEW_STARTERS:
        email = demo_email(_key(name))
        if User.objects.with_email(email).exists():
            continue
        person = account_create(email=email, display_name=name, time_zone=time_zone, actor=admin)
        sent = now - sent_ago if sent_ago else None
        User.objects.filter(pk=person.pk).update(date_joined=now - added_ago, welcome_sent_at=sent)
        events = {"person.created": now - added_ago}
        if sent:
            events["person.welcomed"] = sent
            audit_record(actor=admin, verb="person.welcomed", target=person)
        for verb, at in events.items():
            AuditEvent.objects.filter(verb=verb, target_id=str(person.pk)).update(at=at)
        added += 1
    if not added:
        return "New starters already present — left as they are."
    return (
        f"New starters who never signed in: {len(NEW_STARTERS)} (a welcome sent yesterday, "
        "one whose link expired, one not sent yet)."
    )
