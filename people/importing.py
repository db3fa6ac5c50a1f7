"""Importing people from a CSV file: parse, validate every row, then apply.

Columns (header required, any order, names case-insensitive; others are ignored):
email, name, manager_email, team, time_zone, role.

The file is the truth for the people it lists: a blank manager_email means "reports
to no one", a blank time_zone means UTC. Importing never removes anyone from a team
and never revokes a role. Every row is validated before anything is written, and the
whole import is one transaction, so a file is imported entirely or not at all.
"""

import csv
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models.functions import Lower

from .import_rows import PersonRow
from .importing_new_people import NewPeople
from .models import Team, TeamMembership, User, available_time_zones
from .roles import APPOINTED_ROLES, GROUP_FOR_ROLE, Role
from .services import reporting_line_change
from .services_audit import audit_record
from .services_profile import profile_update
from .services_roles import role_grant
from .services_teams import team_create, team_lead_set, team_member_add

COLUMNS = ("email", "name", "manager_email", "team", "time_zone", "role")
TEAM_SEPARATOR = ";"

ROLE_NAMES = {
    "rep": Role.REP,
    "manager": Role.MANAGER,
    "hr": Role.HR,
    "programme_admin": Role.PROGRAMME_ADMIN,
    "programme admin": Role.PROGRAMME_ADMIN,
    "admin": Role.PROGRAMME_ADMIN,
}

_NAME_MAX = User._meta.get_field("display_name").max_length
_EMAIL_MAX = User._meta.get_field("email").max_length
_TEAM_NAME_MAX = Team._meta.get_field("name").max_length


class PeopleImportError(Exception):
    """The file cannot be imported; `errors` holds every problem as "line N: ..."."""

    def __init__(self, errors: list[str]):
        super().__init__(f"{len(errors)} problem(s) in the file; nothing was imported.")
        self.errors = errors


@dataclass
class ImportResult:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    teams_created: int = 0
    dry_run: bool = False

    @property
    def total(self) -> int:
        return self.created + self.updated + self.unchanged

    def counts(self) -> dict[str, int]:
        return {
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "teams_created": self.teams_created,
        }

    def summary(self) -> str:
        people = "person" if self.total == 1 else "people"
        teams = "team" if self.teams_created == 1 else "teams"
        text = (
            f"{self.total} {people}: {self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged; {self.teams_created} {teams} created."
        )
        if self.dry_run:
            return f"Dry run, nothing was written. Would import {text}"
        return f"Imported {text}"


# --- Parsing: text to rows, checking each row on its own ---------------------------


def decode_csv(raw: bytes) -> str:
    """The text of an uploaded file, or PeopleImportError naming the line that is not
    UTF-8. Spreadsheet exports often start with a byte order mark, which is dropped."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise PeopleImportError(
            [f"line {line}: not UTF-8 text; save the file as CSV UTF-8."]
        ) from None


Problem = tuple[int, str]  # (line, message); sorted and formatted at the end


def parse_people_csv(lines: Iterable[str]) -> tuple[list[PersonRow], list[Problem]]:
    """Rows and the problems visible without the database. `lines` is an open text
    file (opened with newline="") or any iterable of CSV lines."""
    reader = csv.reader(lines)
    header = next(reader, None)
    if header is None:
        return [], [(1, f"the file is empty; the header needs: {', '.join(COLUMNS)}")]
    columns, problem = _read_header(header)
    if problem:
        return [], [(1, problem)]

    rows: list[PersonRow] = []
    problems: list[Problem] = []
    last_line = reader.line_num
    try:
        for cells in reader:
            # A quoted field may span lines: a record starts right after the last one.
            line, last_line = last_line + 1, reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            row, row_problems = _read_row(line, cells, columns, width=len(header))
            rows.append(row)
            problems += row_problems
    except csv.Error as exc:
        # A field longer than the csv module allows: almost always a quote never closed.
        problems.append((last_line + 1, f"cannot be read as CSV ({exc}); is a quote unclosed?"))
    return rows, problems + _duplicate_emails(rows) + _duplicate_leads(rows)


def _read_header(cells: list[str]) -> tuple[dict[str, int], str | None]:
    names = ["_".join(cell.lstrip("\ufeff").strip().lower().split()) for cell in cells]
    columns: dict[str, int] = {}
    for index, name in enumerate(names):
        if name in COLUMNS and name in columns:
            return {}, f"column {name} appears twice in the header"
        columns.setdefault(name, index)
    missing = [name for name in COLUMNS if name not in columns]
    if missing:
        return {}, (
            f"missing required column(s): {', '.join(missing)} "
            f"(the header needs: {', '.join(COLUMNS)})"
        )
    return columns, None


def _read_row(
    line: int, cells: list[str], columns: dict[str, int], *, width: int
) -> tuple[PersonRow, list[Problem]]:
    def cell(name: str) -> str:
        index = columns[name]
        return cells[index].strip() if index < len(cells) else ""

    messages: list[str] = []
    if any(cell.strip() for cell in cells[width:]):
        # Usually an unquoted comma in a name, which shifts every later column.
        messages.append(f"{len(cells)} fields but the header has {width}")
    email = cell("email").lower()
    manager_email = cell("manager_email").lower()
    messages += _email_problems(email)
    messages += _name_problems(cell("name"))
    if manager_email and manager_email == email:
        messages.append("manager_email is the person's own email")
    teams, team_problems = _split_teams(cell("team"))
    time_zone, tz_problem = _time_zone(cell("time_zone"))
    role, role_problem = _role(cell("role"))
    messages += team_problems + [p for p in (tz_problem, role_problem) if p]

    row = PersonRow(line, email, cell("name"), manager_email, teams, time_zone, role)
    return row, [(line, message) for message in messages]


def _email_problems(email: str) -> list[str]:
    if not email:
        return ["email is missing"]
    try:
        validate_email(email)
    except ValidationError:
        return [f"{email} is not a valid email address"]
    if len(email) > _EMAIL_MAX:
        return [f"email is longer than {_EMAIL_MAX} characters"]
    return []


def _name_problems(name: str) -> list[str]:
    if not name:
        return ["name is missing"]
    if len(name) > _NAME_MAX:
        return [f"name is longer than {_NAME_MAX} characters"]
    return []


def _split_teams(value: str) -> tuple[tuple[str, ...], list[str]]:
    teams: dict[str, str] = {}  # lower-cased name → name as first written
    for name in (part.strip() for part in value.split(TEAM_SEPARATOR)):
        if name:
            teams.setdefault(name.lower(), name)
    problems = [
        f"team name {name[:30]}… is longer than {_TEAM_NAME_MAX} characters"
        for name in teams.values()
        if len(name) > _TEAM_NAME_MAX
    ]
    return tuple(teams.values()), problems


def _time_zone(value: str) -> tuple[str, str | None]:
    if not value:
        return "UTC", None
    zone = _time_zones_by_lower_name().get(value.lower())
    if zone is None:
        return value, f"{value} is not an IANA time zone (for example Europe/Berlin)"
    return zone, None


@functools.cache
def _time_zones_by_lower_name() -> dict[str, str]:
    # Spreadsheets love to re-case cells; "europe/berlin" can only mean one zone.
    return {zone.lower(): zone for zone in available_time_zones()}


def _role(value: str) -> tuple[Role | None, str | None]:
    if not value:
        return None, None
    role = ROLE_NAMES.get(" ".join(value.lower().split()))
    if role is None:
        return None, f"unknown role {value} (use rep, manager, hr or programme_admin)"
    return role, None


def _duplicate_emails(rows: list[PersonRow]) -> list[Problem]:
    first_line: dict[str, int] = {}
    problems = []
    for row in rows:
        if not row.email:
            continue
        if row.email in first_line:
            problems.append((row.line, f"{row.email} is already on line {first_line[row.email]}"))
        first_line.setdefault(row.email, row.line)
    return problems


def _duplicate_leads(rows: list[PersonRow]) -> list[Problem]:
    lead_line: dict[str, int] = {}
    problems = []
    for row in (row for row in rows if row.leads_teams):
        for team in row.teams:
            key = team.lower()
            if key in lead_line:
                problems.append(
                    (row.line, f"team {team} already has a lead on line {lead_line[key]}")
                )
            lead_line.setdefault(key, row.line)
    return problems


# --- Checks against the people already in the database -----------------------------


@dataclass(frozen=True)
class KnownPerson:
    manager_email: str  # lower-cased; "" for no manager
    is_active: bool


def known_people() -> dict[str, KnownPerson]:
    """Everyone in the database by lower-cased email (one query): enough to check
    manager references and follow reporting chains above the file."""
    return {
        email.lower(): KnownPerson((manager_email or "").lower(), is_active)
        for email, manager_email, is_active in User.objects.values_list(
            "email", "reports_to__email", "is_active"
        )
    }


def check_against_known_people(
    rows: list[PersonRow], known: dict[str, KnownPerson]
) -> list[Problem]:
    return _manager_problems(rows, known) + _cycle_problems(rows, known)


def _manager_problems(rows: list[PersonRow], known: dict[str, KnownPerson]) -> list[Problem]:
    in_file = {row.email for row in rows}
    problems = []
    for row in rows:
        manager = row.manager_email
        if not manager or manager == row.email:
            continue
        if manager not in in_file and manager not in known:
            problems.append(
                (row.line, f"manager {manager} is neither in the file nor an existing person")
            )
        elif manager in known and not known[manager].is_active:
            # Importing never reactivates anyone, so this would stay a dead end.
            problems.append((row.line, f"manager {manager} is deactivated"))
    return problems


def _cycle_problems(rows: list[PersonRow], known: dict[str, KnownPerson]) -> list[Problem]:
    """Loops in the reporting lines as they would be after the import: the file's
    lines replace the database's for the people it lists."""
    manager_of = {email: person.manager_email for email, person in known.items()}
    manager_of.update({row.email: row.manager_email for row in rows if row.email})
    # A blank manager ends a chain; one's own email is reported by the row check.
    manager_of = {email: m for email, m in manager_of.items() if m and m != email}

    line_of = {}
    for row in rows:
        line_of.setdefault(row.email, row.line)
    problems = []
    for cycle in _cycles(manager_of):
        in_file = [email for email in cycle if email in line_of]
        if not in_file:
            continue  # not the file's doing
        start = min(in_file, key=line_of.__getitem__)
        at = cycle.index(start)
        loop = cycle[at:] + cycle[:at] + [start]
        problems.append((line_of[start], f"reporting cycle: {' → '.join(loop)}"))
    return problems


def _cycles(manager_of: dict[str, str]) -> list[list[str]]:
    """Every cycle once. Each person has at most one manager, so walking up from each
    person either ends, meets a walk already done, or comes back onto itself."""
    done: set[str] = set()
    cycles = []
    for start in manager_of:
        path: dict[str, int] = {}  # email → position on this walk
        node = start
        while node in manager_of and node not in done and node not in path:
            path[node] = len(path)
            node = manager_of[node]
        if node in path:
            cycles.append(list(path)[path[node] :])
        done.update(path)
    return cycles


def people_import_validate(lines: Iterable[str]) -> list[PersonRow]:
    """The file's rows, or PeopleImportError listing every problem by line."""
    rows, problems = parse_people_csv(lines)
    if rows:
        problems += check_against_known_people(rows, known_people())
    if problems:
        problems.sort(key=lambda problem: problem[0])  # stable: a line keeps its order
        raise PeopleImportError([f"line {line}: {message}" for line, message in problems])
    return rows


# --- Applying the rows ---------------------------------------------------------------


@transaction.atomic
def people_import(
    *, rows_or_file: Iterable[str], actor: User | None = None, dry_run: bool = False
) -> ImportResult:
    """Import people from CSV lines (an open text file or any iterable of lines).

    Raises PeopleImportError, having written nothing, when any row is wrong. A dry
    run does the whole import and rolls it back, so its counts are exactly what a
    real run would report."""
    rows = people_import_validate(rows_or_file)
    result = _Importer(actor=actor).run(rows)
    if dry_run:
        result.dry_run = True
        transaction.set_rollback(True)
    else:
        audit_record(actor=actor, verb="people.imported", data=result.counts())
    return result


@dataclass
class _Importer:
    actor: User | None
    result: ImportResult = field(default_factory=ImportResult)
    people: dict[str, User] = field(default_factory=dict)  # by lower-cased email
    teams: dict[str, Team] = field(default_factory=dict)  # by lower-cased name

    def run(self, rows: list[PersonRow]) -> ImportResult:
        self._load(rows)
        new_people = NewPeople(people=self.people, teams=self.teams, actor=self.actor)
        for level in _levels_top_down(rows):
            new = [row for row in level if row.email not in self.people]
            try:
                for row, person in zip(new, new_people.create(new), strict=True):
                    self._ensure_role(person, row)
            except ValidationError as exc:
                raise PeopleImportError(exc.messages) from exc
            self.result.created += len(new)
            created = {row.email for row in new}
            for row in level:
                if row.email not in created:
                    self._import_known(row)
        self.result.teams_created += new_people.teams_created
        return self.result

    def _load(self, rows: list[PersonRow]) -> None:
        emails = {row.email for row in rows} | {row.manager_email for row in rows}
        self.people = {
            person.email.lower(): person
            for person in User.objects.annotate(email_ci=Lower("email")).filter(
                email_ci__in=emails - {""}
            )
        }
        names = {team.lower() for row in rows for team in row.teams}
        self.teams = {
            team.name.lower(): team
            for team in Team.objects.annotate(name_ci=Lower("name")).filter(name_ci__in=names)
        }

    def _import_known(self, row: PersonRow) -> None:
        try:
            changed = self._update(row)
        except ValidationError as exc:
            # Validation should have caught it; still say where, and roll back.
            raise PeopleImportError([f"line {row.line}: {' '.join(exc.messages)}"]) from exc
        if changed:
            self.result.updated += 1
        else:
            self.result.unchanged += 1

    def _update(self, row: PersonRow) -> bool:
        """Change only what differs, so a re-run writes nothing and adds no history."""
        person = self.people[row.email]
        changes = [
            self._update_profile(person, row),
            self._update_manager(person, row),
            self._ensure_teams(person, row),
            self._ensure_role(person, row),
        ]
        return any(changes)

    def _manager(self, row: PersonRow) -> User | None:
        # Managers in the file were imported first (_levels_top_down).
        return self.people[row.manager_email] if row.manager_email else None

    def _update_profile(self, person: User, row: PersonRow) -> bool:
        if (person.display_name, person.time_zone) == (row.name, row.time_zone):
            return False
        profile_update(person=person, display_name=row.name, time_zone=row.time_zone)
        return True

    def _update_manager(self, person: User, row: PersonRow) -> bool:
        manager = self._manager(row)
        if person.reports_to_id == (manager.pk if manager else None):
            return False
        reporting_line_change(person=person, manager=manager, actor=self.actor)
        person.reports_to = manager
        return True

    def _ensure_teams(self, person: User, row: PersonRow) -> bool:
        changes = [self._ensure_team(name, person, lead=row.leads_teams) for name in row.teams]
        return any(changes)

    def _ensure_team(self, name: str, person: User, *, lead: bool) -> bool:
        team = self.teams.get(name.lower())
        created = team is None
        if created:
            team = team_create(name=name, lead=person if lead else None, actor=self.actor)
            self.teams[name.lower()] = team
            self.result.teams_created += 1
        if lead:
            changed = team_lead_set(team=team, lead=person, actor=self.actor)
        else:
            changed = _team_member_ensure(team=team, person=person, actor=self.actor)
        return created or changed

    def _ensure_role(self, person: User, row: PersonRow) -> bool:
        if row.role not in APPOINTED_ROLES:
            return False  # rep and manager follow from reporting lines
        if person.groups.filter(name=GROUP_FOR_ROLE[row.role]).exists():
            return False
        role_grant(person=person, role=row.role, actor=self.actor)
        return True


def _levels_top_down(rows: list[PersonRow]) -> list[list[PersonRow]]:
    """The rows in levels of the reporting lines, managers' levels before their
    reports', each level in file order. reporting_line_change refuses a loop even for
    a moment; the final lines are loop-free (validated), so setting them top-down
    never passes through one. A level's new people are created together: none of
    them can manage another of the same level."""
    by_email = {row.email: row for row in rows}

    @functools.cache
    def depth(email: str) -> int:
        manager = by_email[email].manager_email
        return depth(manager) + 1 if manager in by_email else 0

    levels: dict[int, list[PersonRow]] = {}
    for row in sorted(rows, key=lambda row: row.line):
        levels.setdefault(depth(row.email), []).append(row)
    return [levels[d] for d in sorted(levels)]


def _team_member_ensure(*, team: Team, person: User, actor: User | None) -> bool:
    """True when the person was not yet a current member."""
    if TeamMembership.objects.current().filter(team=team, person=person).exists():
        return False
    team_member_add(team=team, person=person, actor=actor)
    return True
