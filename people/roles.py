"""The five roles. Rep, manager and manager of managers follow from the reporting
line; HR and programme admin are appointments held as group membership."""

from enum import StrEnum


class Role(StrEnum):
    REP = "rep"
    MANAGER = "manager"
    MANAGER_OF_MANAGERS = "manager_of_managers"
    HR = "hr"
    PROGRAMME_ADMIN = "programme_admin"

    @property
    def label(self) -> str:
        return ROLE_LABELS[self]


ROLE_LABELS = {
    Role.REP: "Rep",
    Role.MANAGER: "Manager",
    Role.MANAGER_OF_MANAGERS: "Manager of managers",
    Role.HR: "HR",
    Role.PROGRAMME_ADMIN: "Programme admin",
}

# Appointed roles and the groups that hold them.
GROUP_FOR_ROLE = {
    Role.HR: "HR",
    Role.PROGRAMME_ADMIN: "Programme admins",
}
ROLE_FOR_GROUP = {group: role for role, group in GROUP_FOR_ROLE.items()}
APPOINTED_ROLES = frozenset(GROUP_FOR_ROLE)
