"""The first steps of a new programme, for its admin: each ticks itself from what is
recorded, so the list on the programme page shows what is left and goes away once all
is done. One query for all of them (each an EXISTS)."""

from dataclasses import dataclass

from django.db.models import Exists, Q
from django.urls import reverse
from django.utils import timezone

from cadence.models import PolicyAssignment, Rollout
from coaching.models import FocusArea
from people.models import Team, User


@dataclass(frozen=True)
class Step:
    key: str
    title: str
    how: str
    url_name: str
    query: str = ""

    @property
    def url(self) -> str:
        return reverse(self.url_name) + self.query


STEPS = (
    Step(
        "people",
        "Bring in your people and who they report to",
        "Import a CSV file from your HR system, or add people one by one.",
        "people:people_import_list",
    ),
    Step(
        "teams",
        "Make the teams and name each one's lead",
        "A team's lead runs its 1:1s, call reviews and role-plays.",
        "people:team_list",
    ),
    Step(
        "focus",
        "Choose what the programme practises first",
        "A focus area, with the scorecard criteria that show it in observable behaviour.",
        "coaching:focus_area_list",
    ),
    Step(
        "cadence",
        "Give the teams a cadence",
        "Write a cadence policy (weekly 1:1s, call reviews, monthly role-plays and "
        "manager reviews) and apply it to each team: its plans and sessions follow.",
        "cadence:team_cadence",
    ),
    Step(
        "install",
        "Start a team's install plan",
        "The 30/60/90-day checklist its lead follows to put the rhythm in place.",
        "cadence:rollout_overview",
        "?show=not_started",
    ),
    Step(
        "welcome",
        "Welcome your people",
        "Email everyone who has never signed in a link to set their password. "
        "It ticks once one of them has signed in.",
        "people:programme_people",
        "?show=new",
    ),
)


@dataclass(frozen=True)
class Progress:
    done: frozenset[str]

    @property
    def steps(self) -> list[tuple[Step, bool]]:
        return [(step, step.key in self.done) for step in STEPS]

    @property
    def done_count(self) -> int:
        return len(self.done)

    @property
    def complete(self) -> bool:
        return len(self.done) == len(STEPS)


def progress(*, reader: User) -> Progress:
    """Which first steps are done, as `reader` (the admin) opens the programme page."""
    today = timezone.localdate()
    active = User.objects.filter(is_active=True)
    checks = {
        "people": Exists(active.filter(reports_to__isnull=False)),
        "teams": Exists(Team.objects.filter(lead__isnull=False)),
        "focus": Exists(FocusArea.objects.active_on(today).filter(criteria__isnull=False)),
        "cadence": Exists(PolicyAssignment.objects.filter(ended_at__isnull=True)),
        "install": Exists(Rollout.objects.all()),
        # Someone other than the admin has signed in: the welcome reached them.
        "welcome": Exists(active.filter(~Q(pk=reader.pk), last_login__isnull=False)),
    }
    # Named apart from the person's own fields and relations ("teams" is one).
    named = {f"done_{key}": check for key, check in checks.items()}
    row = User.objects.filter(pk=reader.pk).annotate(**named).values(*named).get()
    return Progress(done=frozenset(key for key in checks if row[f"done_{key}"]))
