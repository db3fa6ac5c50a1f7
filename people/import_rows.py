"""One row of a people CSV file as parsed (people/importing.py), shared by the parser
and the writer of new people (people/importing_new_people.py)."""

from dataclasses import dataclass

from .roles import Role


@dataclass(frozen=True)
class PersonRow:
    line: int  # physical line in the file, the header being line 1
    email: str  # lower-cased
    name: str
    manager_email: str  # lower-cased; "" for no manager
    teams: tuple[str, ...]
    time_zone: str
    role: Role | None

    @property
    def leads_teams(self) -> bool:
        # Rep and manager follow from reporting lines; "manager" in the file only
        # means something when it names the teams the person leads.
        return self.role is Role.MANAGER and bool(self.teams)
