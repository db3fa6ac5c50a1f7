"""k-anonymity for dashboards: an aggregate over fewer than `MIN_GROUP` people is never
shown to HR or programme admins — not on a page, in an export or through the API.
Managers see their own people by name already, so their views are not suppressed."""

from coaching.skills import K_ANONYMITY as MIN_GROUP

TOO_FEW = "too few to show"


def too_few(people: int) -> bool:
    return people < MIN_GROUP


__all__ = ["MIN_GROUP", "TOO_FEW", "too_few"]
