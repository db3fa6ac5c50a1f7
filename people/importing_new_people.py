"""The people an import adds, written set-based: one level of the reporting lines at
a time, in batched inserts, instead of one person at a time through the services
(most of it the ORM's own work per row; measured by bench/imports.py).

It writes what `account_create`, `team_create` and `team_member_add` would have
written for each row, and the same audit events, with three differences it can
afford because every row was validated against the people and teams as they are:

- uniqueness is not asked again, row by row (an address or team name that appeared
  meanwhile still fails, on the database's unique index, and rolls the import back);
- `team_membership_changed` is sent only for teams that existed before the import.
  Its one listener, the cadence, follows a team's policy, and a team the import
  creates has none yet;
- a new team named first by a member's row and then by its lead's, in one level, is
  created with its lead: one event, `team.created`, not that and `team.lead_changed`.
"""

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils import timezone

from .import_rows import PersonRow
from .models import ReportingLine, Team, TeamMembership, User
from .services_audit import audit_record_each
from .services_teams import membership_changed_announce, team_lead_set

BATCH = 1000


@dataclass
class NewPeople:
    """Adds one level's new people to `people` and their new teams to `teams` (both
    keyed by lower-cased email or name, as the importer keeps them)."""

    people: dict[str, User]
    teams: dict[str, Team]
    actor: User | None
    teams_before: set[int] = field(init=False)  # pks of the teams before the import
    teams_created: int = 0

    def __post_init__(self):
        self.teams_before = {team.pk for team in self.teams.values()}

    def create(self, rows: list[PersonRow]) -> list[User]:
        if not rows:
            return []
        persons = [self._person(row) for row in rows]
        User.objects.bulk_create(persons, batch_size=BATCH)
        now = timezone.now()
        lines = [
            ReportingLine(report=p, manager_id=p.reports_to_id, started_at=now)
            for p in persons
            if p.reports_to_id
        ]
        ReportingLine.objects.bulk_create(lines, batch_size=BATCH)
        # The events account_create writes: the line first, then the person.
        audit_record_each(
            actor=self.actor,
            verb="reporting_line.changed",
            events=[
                (line.report, {"from_manager_id": None, "to_manager_id": line.manager_id})
                for line in lines
            ],
        )
        audit_record_each(
            actor=self.actor, verb="person.created", events=[(p, {}) for p in persons]
        )
        for row, person in zip(rows, persons, strict=True):
            self.people[row.email] = person
        self._join_teams(rows, persons)
        return persons

    def _person(self, row: PersonRow) -> User:
        manager = self.people[row.manager_email] if row.manager_email else None
        person = User(
            email=User.objects.normalize_email(row.email).lower(),
            display_name=row.name.strip(),
            time_zone=row.time_zone,
            reports_to=manager,
        )
        # No password: new people sign in through a password reset or SSO.
        person.set_unusable_password()
        try:
            person.full_clean(
                exclude=["password", "reports_to"],
                validate_unique=False,
                validate_constraints=False,
            )
        except ValidationError as exc:
            # Validation should have caught it; still say where.
            raise ValidationError(f"line {row.line}: {' '.join(exc.messages)}") from exc
        return person

    def _join_teams(self, rows: list[PersonRow], persons: list[User]) -> None:
        """Each row's teams, created where new (the first row to name one creates it),
        led or joined as the row says."""
        new_teams: list[Team] = []
        joins: list[tuple[Team, User]] = []
        for row, person in zip(rows, persons, strict=True):
            for name in row.teams:
                team = self.teams.get(name.lower())
                if team is None:
                    team = Team(name=name.strip(), lead=person if row.leads_teams else None)
                    self.teams[name.lower()] = team
                    new_teams.append(team)
                elif row.leads_teams and team.pk is None:
                    team.lead = person  # created in this level, saved below
                elif row.leads_teams:
                    team_lead_set(team=team, lead=person, actor=self.actor)
                if not row.leads_teams:
                    joins.append((team, person))
        Team.objects.bulk_create(new_teams, batch_size=BATCH)
        audit_record_each(
            actor=self.actor, verb="team.created", events=[(t, {}) for t in new_teams]
        )
        self.teams_created += len(new_teams)
        memberships = TeamMembership.objects.bulk_create(
            [TeamMembership(team=team, person=person) for team, person in joins],
            batch_size=BATCH,
        )
        audit_record_each(
            actor=self.actor,
            verb="team.member_added",
            events=[(m.team, {"person_id": m.person_id}) for m in memberships],
        )
        for membership in memberships:
            if membership.team_id in self.teams_before:
                membership_changed_announce(membership)
