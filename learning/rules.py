"""What a person may *do* with experiments and learnings they can already see (who
sees them is `visible_to` / `selectors.access_*`, a 404). Each `why_not_<verb>` gives
the reason a person reads, or None; `may_<verb>` is its yes/no. The services refuse
with the same words (`core.errors.Forbidden`, a 403 in the API); pages ask them for
their buttons."""

from people.models import User

from .models import Experiment, Learning


def why_not_plan_experiment(person: User) -> str | None:
    if not person.is_active:
        return "Only people who are here run experiments."
    return None


def why_not_change_experiment(person: User, experiment: Experiment) -> str | None:
    """Editing, starting, finishing and dropping: the owner runs their experiment;
    the others who see it read it."""
    if experiment.owner_id != person.pk:
        return "Only the person running an experiment changes it."
    return None


def may_change_experiment(person: User, experiment: Experiment) -> bool:
    return why_not_change_experiment(person, experiment) is None


def why_not_change_learning(person: User, learning: Learning) -> str | None:
    """Editing and unpublishing: its author only."""
    if learning.author_id != person.pk:
        return "Only its author edits or unpublishes a learning."
    return None


def may_change_learning(person: User, learning: Learning) -> bool:
    return why_not_change_learning(person, learning) is None
