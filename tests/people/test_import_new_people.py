"""The people an import adds are written set-based (people/importing_new_people.py).
What it writes must be what the services write one person at a time; and its cost
in queries must not grow with the number of new people."""

from collections import Counter
from datetime import time

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from cadence.models import CadencePlan, CadencePolicy, PolicyItem
from cadence.services import policy_apply
from people.importing import _Importer, _levels_top_down, people_import, people_import_validate
from people.models import AuditEvent, ReportingLine, Team, TeamMembership, User
from people.services import account_create
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

HEADER = "email,name,manager_email,team,time_zone,role\n"


def organisation(reps_per_team: int) -> str:
    """A head, two managers each leading a new team, reps in those teams, some also in
    the existing Sales team (which has a cadence policy) or reporting to its existing
    lead; an HR person and a programme admin; one existing rep updated."""
    rows = [
        "head@example.com,Hana Head,,Leadership,Europe/London,manager",
        "hr@example.com,Hal Resources,head@example.com,,Europe/London,hr",
        "admin@example.com,Ada Admin,head@example.com,Enablement,,programme_admin",
        "old.rep@example.com,Olga Renamed,sales.lead@example.com,Sales,Asia/Tokyo,",
    ]
    for m in range(2):
        rows.append(f"m{m}@example.com,Manager {m},head@example.com,Team {m},Europe/Berlin,manager")
        for r in range(reps_per_team):
            teams = f"Team {m};Sales" if r % 3 == 0 else f"Team {m}"
            manager = "sales.lead@example.com" if r % 5 == 0 else f"m{m}@example.com"
            rows.append(f"r{m}.{r}@example.com,Rep {m} {r},{manager},{teams},America/Chicago,")
    return HEADER + "\n".join(rows) + "\n"


@pytest.fixture
def existing():
    """Sales, led by someone already here, with a policy that gives every member a 1:1."""
    lead = UserFactory(email="sales.lead@example.com", display_name="Sam Sales")
    sales = TeamFactory(name="Sales", lead=lead)
    TeamMembershipFactory(team=sales, person=UserFactory(email="old.rep@example.com"))
    policy = CadencePolicy.objects.create(name="Sales standard")
    PolicyItem.objects.create(policy=policy, kind="one_on_one", weekday=1, local_time=time(10))
    policy_apply(policy=policy, team=sales, actor=None)
    return sales


def row_by_row(text: str) -> None:
    """The reference: each new person through account_create and the importer's own
    team and role steps, one at a time, as imports ran before they were set-based."""
    rows = people_import_validate(text.splitlines(keepends=True))
    importer = _Importer(actor=None)
    importer._load(rows)
    for level in _levels_top_down(rows):
        for row in level:
            if row.email in importer.people:
                importer._import_known(row)
                continue
            manager = importer.people[row.manager_email] if row.manager_email else None
            person = account_create(
                email=row.email,
                display_name=row.name,
                time_zone=row.time_zone,
                manager=manager,
            )
            importer.people[row.email] = person
            importer._ensure_teams(person, row)
            importer._ensure_role(person, row)


def everything_written() -> dict:
    """The rows an import writes, by natural keys rather than ids."""
    return {
        "people": sorted(
            (
                u.email,
                u.display_name,
                u.time_zone,
                u.reports_to.email if u.reports_to else None,
                u.has_usable_password(),
                u.is_staff,
                u.is_active,
                tuple(sorted(g.name for g in u.groups.all())),
            )
            for u in User.objects.select_related("reports_to").prefetch_related("groups")
        ),
        "lines": sorted(
            (line.report.email, line.manager.email, line.ended_at is None)
            for line in ReportingLine.objects.select_related("report", "manager")
        ),
        "teams": sorted(
            (t.name, t.lead.email if t.lead else None) for t in Team.objects.select_related("lead")
        ),
        "memberships": sorted(
            (m.team.name, m.person.email, m.left_at is None)
            for m in TeamMembership.objects.select_related("team", "person")
        ),
        "plans": sorted(
            (p.kind, p.coach.email, p.coachee.email if p.coachee else None)
            for p in CadencePlan.objects.live().select_related("coach", "coachee")
        ),
        "audit": Counter(
            (e.verb, e.target_repr, tuple(sorted((e.data or {}).keys())))
            for e in AuditEvent.objects.all()
        ),
    }


def written_by(run) -> dict:
    with transaction.atomic():
        run()
        written = everything_written()
        transaction.set_rollback(True)
    return written


def test_it_writes_what_the_services_write_one_person_at_a_time(existing):
    text = organisation(reps_per_team=8)
    set_based = written_by(lambda: people_import(rows_or_file=text.splitlines(keepends=True)))
    reference = written_by(lambda: row_by_row(text))
    set_based["audit"] -= Counter({("people.imported", "", tuple(sorted(_COUNTS))): 1})
    assert set_based == reference
    # And what that is: new members of Sales got their 1:1 with its lead; the
    # updated rep kept her plan; nobody new can sign in with a password yet.
    plans = {
        coachee for _, coach, coachee in set_based["plans"] if coach == "sales.lead@example.com"
    }
    assert {"r0.0@example.com", "r1.3@example.com", "old.rep@example.com"} <= plans
    assert len(set_based["people"]) == 4 + 2 + 2 * 8 + 1  # with the existing Sales lead


_COUNTS = ("created", "updated", "unchanged", "teams_created")


def test_it_counts_new_updated_and_unchanged_people_and_new_teams(existing):
    text = organisation(reps_per_team=4)
    result = people_import(rows_or_file=text.splitlines(keepends=True))
    assert result.counts() == {"created": 13, "updated": 1, "unchanged": 0, "teams_created": 4}
    again = people_import(rows_or_file=text.splitlines(keepends=True))
    assert again.counts() == {"created": 0, "updated": 0, "unchanged": 14, "teams_created": 0}


def queries_to_import(reps_per_team: int) -> int:
    text = organisation(reps_per_team).replace("sales.lead@example.com", "head@example.com")
    text = text.replace("Team 0;Sales", "Team 0").replace("Team 1;Sales", "Team 1")
    text = "".join(line for line in text.splitlines(keepends=True) if "old.rep" not in line)
    ContentType.objects.clear_cache()  # each run looks its content types up: same cost
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        people_import(rows_or_file=text.splitlines(keepends=True))
        transaction.set_rollback(True)
    return len(queries)


@pytest.mark.skipif(
    connection.vendor == "sqlite", reason="SQLite splits an insert at 999 parameters"
)
def test_new_people_cost_the_same_queries_for_10_or_300():
    assert queries_to_import(5) == queries_to_import(150)
