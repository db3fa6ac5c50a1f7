"""The organisation: one head, four levels of managers, teams of reps, HR and
programme admins — in memory first (every later phase reads it), then written.

For N people (leavers included, as rows):

    head → VPs (one per region) → directors → senior managers → managers → reps

with spans drawn around 5 directors per VP, 6 senior managers per director, 6
managers per senior manager and 8–12 reps per manager (6–15 on a given day, with
leavers and movers); each manager at the bottom leads one team. For N = 10,000:
5 VPs, 25 directors, 150 senior managers, 901 teams (about 1,080 managers in all),
about 8,900 reps, 5 HR people and 2 programme admins (who report to the head, like
everyone else except the head).

History, over the years seeded: about 5% of reps left (deactivated, their lines and
memberships closed, reports_to cleared) and were replaced a few weeks later; about
4% moved team once (a closed line to the old manager, a closed membership); about a
fifth joined during the history. Managers stay put. `User.reports_to`, the open
`ReportingLine` and the open `TeamMembership` always agree."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings

from . import words

LEVELS = ("head", "VP", "director", "senior manager", "manager", "rep")
HEAD, VP, DIRECTOR, SENIOR, MANAGER, REP = range(6)
DOMAIN = "scale.example.com"
MIN_PEOPLE = 100


@dataclass(frozen=True)
class Clock:
    """Every time in the data is relative to `today` (UTC): history runs back from
    the Monday of this week, plans are materialised up to `horizon`."""

    today: date
    years: int

    @property
    def now(self) -> datetime:
        """The seed's "now": midnight UTC today. Sessions after it are not logged yet."""
        return datetime.combine(self.today, time.min, tzinfo=UTC)

    @property
    def anchor(self) -> datetime:
        return self.now - timedelta(days=self.today.weekday())

    @property
    def start(self) -> datetime:
        return self.anchor - timedelta(weeks=52 * self.years)

    @property
    def horizon(self) -> datetime:
        return self.now + timedelta(weeks=settings.CADENCE_HORIZON_WEEKS)

    @property
    def weeks(self) -> int:
        return 52 * self.years


@dataclass(slots=True)
class Stint:
    """Reporting to one manager (and, for reps, on that manager's team) for a while."""

    manager: int
    team: int | None
    start: datetime
    end: datetime | None = None


@dataclass(slots=True)
class CoachProfile:
    """How someone runs their coaching: it shapes every session they lead."""

    adherence: float
    trajectory: str  # steady, improving, slipping, rough
    change: float  # how far the trajectory moves adherence
    change_from: int  # week index (from the start) where it begins
    change_weeks: int
    miss_share: float  # of the sessions not held, how many are simply missed
    sticky: float  # a miss makes the next one likelier
    notes_rate: float
    theatre: float  # notes copied from the last session
    move_rate: float
    private_rate: float
    scoring_every: int | None  # weeks between scored calls per rep; None: never scores
    usefulness: float  # mean rating their coachees give


@dataclass(slots=True)
class Person:
    id: int
    first: str
    name: str
    email: str
    tz: str
    level: int
    region: int
    joined: datetime
    label: str
    left: datetime | None = None
    stints: list[Stint] = field(default_factory=list)
    reports: list[int] = field(default_factory=list)  # current, active
    team: int | None = None  # current team (reps)
    led: int | None = None  # the team they lead
    coach: CoachProfile | None = None
    vacations: frozenset = frozenset()  # Mondays of weeks away
    prep_rate: float = 0.0
    rates: float = 0.0  # how often they rate their 1:1s
    skill: float = 2.2  # scorecards: where they start
    self_bias: float = 0.5
    activity: float = 1.0  # feedback given, relative
    travels: float = 1.0

    @property
    def active(self) -> bool:
        return self.left is None

    @property
    def manager(self) -> int | None:
        return self.stints[-1].manager if self.stints and self.active else None

    def manager_at(self, moment: datetime) -> int | None:
        for stint in self.stints:
            if stint.start <= moment and (stint.end is None or moment < stint.end):
                return stint.manager
        return None

    def team_at(self, moment: datetime) -> int | None:
        for stint in self.stints:
            if stint.start <= moment and (stint.end is None or moment < stint.end):
                return stint.team
        return None


@dataclass(slots=True)
class Team:
    id: int
    name: str
    lead: int
    region: int
    created_at: datetime
    adopted: datetime  # the programme's start for this team (policy applied)
    members: list[tuple[int, datetime, datetime | None]] = field(default_factory=list)
    call_review: tuple | None = None  # (starts, interval, weekday, hour, minute) or None
    role_play: tuple | None = None  # (starts, week_of_month, weekday, hour, minute) or None
    trend: float = 0.0  # scorecards: how far skills move over the history

    def members_at(self, moment: datetime) -> list[int]:
        return [
            p
            for p, joined, left in self.members
            if joined <= moment and (left is None or moment < left)
        ]


@dataclass
class Org:
    clock: Clock
    people: list[Person]
    teams: list[Team]
    by_id: dict[int, Person]
    team_by_id: dict[int, Team]
    head: Person
    hr: list[Person]
    admins: list[Person]
    region_adopted: list[datetime]

    def managers(self) -> list[Person]:
        return [p for p in self.people if p.coach is not None]


def _spread(rng: random.Random, total: int, parents: int, low: int = 1) -> list[int]:
    """`total` children over `parents`, each at least `low`, unevenly."""
    counts = [low] * parents
    weights = [rng.uniform(0.6, 1.4) for _ in range(parents)]
    for _ in range(total - low * parents):
        counts[rng.choices(range(parents), weights)[0]] += 1
    return counts


def level_sizes(n: int) -> dict[str, int]:
    teams = max(2, round(n / 11.1))
    seniors = max(1, round(teams / 6))
    directors = max(1, round(seniors / 6))
    vps = max(1, round(directors / 5))
    hr = max(1, round(n / 2000))
    admins = max(1, round(n / 5000))
    reps = n - 1 - vps - directors - seniors - teams - hr - admins
    return {
        "vps": vps,
        "directors": directors,
        "seniors": seniors,
        "teams": teams,
        "hr": hr,
        "admins": admins,
        "reps": reps,
    }


class _Names:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.taken: set[str] = set()

    def __call__(self) -> tuple[str, str, str]:
        first = self.rng.choice(words.FIRST_NAMES)
        last = self.rng.choice(words.LAST_NAMES)
        local = f"{first}.{last}".lower().replace(" ", "")
        email, k = f"{local}@{DOMAIN}", 1
        while email in self.taken:
            k += 1
            email = f"{local}{k}@{DOMAIN}"
        self.taken.add(email)
        return first, f"{first} {last}", email


def _tz(rng: random.Random, region: int) -> str:
    zones = words.REGIONS[region][2]
    return rng.choices([z for z, _ in zones], [w for _, w in zones])[0]


SOUTHERN = {"Australia", "Pacific", "America/Sao_Paulo", "America/Argentina", "Africa/Johannesburg"}


def _southern(tz: str) -> bool:
    return any(tz.startswith(prefix) for prefix in SOUTHERN)


def _vacations(rng: random.Random, clock: Clock, tz: str, weeks_a_year: int) -> frozenset:
    """Mondays of the weeks someone is away: a summer block, the year-end week, and a
    week or so at random, each year of the history and the weeks ahead."""
    away = set()
    first = clock.start.date()
    for year in range(first.year, clock.horizon.year + 1):
        summer_month = 1 if _southern(tz) else rng.choice((7, 7, 8, 8, 6))
        start = date(year, summer_month, rng.randint(1, 24))
        start -= timedelta(days=start.weekday())
        block = 2 if weeks_a_year >= 3 else 1
        away.update(start + timedelta(weeks=k) for k in range(block))
        year_end = date(year, 12, 24)
        away.add(year_end - timedelta(days=year_end.weekday()))
        for _ in range(max(0, weeks_a_year - block - 1)):
            day = date(year, rng.randint(1, 12), rng.randint(1, 28))
            away.add(day - timedelta(days=day.weekday()))
    return frozenset(away)


def _region(parent: Person, parents: int, index: int) -> int:
    """A small organisation has fewer VPs than regions: its people spread over the
    regions at the first level with enough of them, and then stay in their region."""
    return parent.region if parents >= len(words.REGIONS) else index % len(words.REGIONS)


def _coach_profile(rng: random.Random, clock: Clock) -> CoachProfile:
    tier = rng.choices(("excellent", "good", "average", "struggling"), (25, 40, 22, 13))[0]
    adherence = {
        "excellent": rng.uniform(0.9, 0.97),
        "good": rng.uniform(0.82, 0.9),
        "average": rng.uniform(0.7, 0.82),
        "struggling": rng.uniform(0.55, 0.7),
    }[tier]
    trajectory = rng.choices(("steady", "improving", "slipping", "rough"), (55, 15, 15, 15))[0]
    weeks = clock.weeks
    if trajectory == "slipping":  # the last weeks go badly: it shows on the dashboards
        change_weeks = rng.randint(5, 12)
        change_from, change = weeks - change_weeks, rng.uniform(0.15, 0.35)
    elif trajectory == "rough":
        change_weeks = rng.randint(5, 10)
        change_from, change = rng.randint(8, weeks - change_weeks - 2), rng.uniform(0.2, 0.35)
    elif trajectory == "improving":
        change_from, change_weeks, change = (
            0,
            rng.randint(weeks // 3, weeks),
            rng.uniform(0.1, 0.25),
        )
    else:
        change_from, change_weeks, change = 0, 1, 0.0
    weak = tier == "struggling" or trajectory == "slipping"
    # Most coaches write something in nearly every session; some often log a bare "held".
    notes_rate = rng.uniform(0.5, 0.8) if rng.random() < 0.15 else rng.uniform(0.86, 0.99)
    return CoachProfile(
        adherence=adherence,
        trajectory=trajectory,
        change=change,
        change_from=change_from,
        change_weeks=change_weeks,
        miss_share=rng.uniform(0.15, 0.35) + (0.15 if weak else 0.0),
        sticky=0.3 if weak else 0.06,
        notes_rate=notes_rate,
        theatre=rng.uniform(0.12, 0.3) if rng.random() < 0.1 else rng.uniform(0.0, 0.04),
        move_rate=rng.uniform(0.02, 0.1),
        private_rate=rng.uniform(0.0, 0.2),
        scoring_every=None if rng.random() < 0.2 else rng.randint(4, 12),
        usefulness=rng.uniform(3.2, 4.7),
    )


def adherence_at(profile: CoachProfile, week: int) -> float:
    """The coach's adherence in week `week` (counted from the history's start)."""
    p = profile.adherence
    if profile.trajectory == "steady":
        return p
    into = (week - profile.change_from) / profile.change_weeks
    if profile.trajectory == "improving":
        return p - profile.change * (1 - min(1.0, max(0.0, into)))
    if profile.trajectory == "slipping":
        return p - profile.change * min(1.0, max(0.0, into + 0.3))
    return p - profile.change if 0 <= into < 1 else p  # rough patch


def build(*, n: int, seed: int, clock: Clock, user_base: int = 0, team_base: int = 0) -> Org:
    """The organisation for `n` people; ids follow on from `user_base` and `team_base`
    (the largest ids already in the tables: none, in a fresh database)."""
    if n < MIN_PEOPLE:
        raise ValueError(f"--people must be at least {MIN_PEOPLE} for a five-level organisation")
    # Three streams: the shape (spans, team sizes, who leaves) and the names depend on
    # the seed alone, so the same seed names the same people whatever the day; dates
    # and habits come from the third.
    rng = random.Random(f"{seed}:org")
    shape = random.Random(f"{seed}:shape")
    names = _Names(random.Random(f"{seed}:names"))
    sizes = level_sizes(n)
    people: list[Person] = []
    start = clock.start

    def before_start() -> datetime:
        return start - timedelta(days=rng.randint(30, 2200), hours=rng.randint(8, 17))

    def person(level: int, region: int, tz: str, label: str, joined=None) -> Person:
        first, name, email = names()
        p = Person(
            id=user_base + len(people) + 1,
            first=first,
            name=name,
            email=email,
            tz=tz,
            level=level,
            region=region,
            joined=joined or before_start(),
            label=label,
        )
        p.vacations = _vacations(rng, clock, tz, 3)
        p.activity = rng.lognormvariate(0, 0.6)
        p.rates = 0.0 if rng.random() < 0.35 else rng.uniform(0.2, 0.9)
        people.append(p)
        return p

    def reports_to(child: Person, boss: Person) -> None:
        child.stints.append(Stint(boss.id, None, child.joined))
        boss.reports.append(child.id)

    head = person(HEAD, 0, "America/New_York", "head")
    region_count = len(words.REGIONS)
    vps = []
    for i in range(sizes["vps"]):
        region = i % region_count
        vp = person(VP, region, words.REGIONS[region][2][0][0], "VP")
        reports_to(vp, head)
        vps.append(vp)
    directors = []
    for vp, count in zip(vps, _spread(shape, sizes["directors"], len(vps)), strict=True):
        for _ in range(count):
            region = _region(vp, len(vps), len(directors))
            d = person(DIRECTOR, region, _tz(rng, region), "director")
            reports_to(d, vp)
            directors.append(d)
    seniors = []
    for d, count in zip(directors, _spread(shape, sizes["seniors"], len(directors)), strict=True):
        for _ in range(count):
            region = _region(d, len(directors), len(seniors))
            s = person(SENIOR, region, _tz(rng, region), "senior manager")
            reports_to(s, d)
            seniors.append(s)
    managers = []
    for s, count in zip(seniors, _spread(shape, sizes["teams"], len(seniors)), strict=True):
        for _ in range(count):
            region = _region(s, len(seniors), len(managers))
            m = person(MANAGER, region, _tz(rng, region), "manager")
            reports_to(m, s)
            managers.append(m)
    hr = [
        person(VP, 2 if i % 2 else 0, "Europe/London" if i % 2 else "America/New_York", "HR")
        for i in range(sizes["hr"])
    ]
    admins = [
        person(
            VP,
            2 if i % 2 == 0 else 0,
            "Europe/London" if i % 2 == 0 else "America/Chicago",
            "programme admin",
        )
        for i in range(sizes["admins"])
    ]
    for p in hr + admins:
        reports_to(p, head)

    # The programme rolls out region by region over the first months.
    region_adopted = [
        start + timedelta(weeks=3 * r, days=rng.randint(0, 4)) for r in range(region_count)
    ]
    teams: list[Team] = []
    used_names: set[str] = set()
    for m in managers:
        region_name, short, _ = words.REGIONS[m.region]
        segment = shape.choice(words.SEGMENTS)
        k = 1
        while f"{short} {segment} {k}".lower() in used_names:
            k += 1
        name = f"{short} {segment} {k}"
        used_names.add(name.lower())
        adopted = region_adopted[m.region] + timedelta(days=rng.randint(0, 8 * 7))
        team = Team(
            id=team_base + len(teams) + 1,
            name=name,
            lead=m.id,
            region=m.region,
            created_at=min(m.joined, start) - timedelta(days=rng.randint(0, 400)),
            adopted=adopted,
            trend=rng.choices((0.9, 0.25, -0.2), (30, 55, 15))[0] * rng.uniform(0.7, 1.2),
        )
        m.led = team.id
        if rng.random() < 0.9:  # one team in ten never got its call review going
            team.call_review = (
                adopted + timedelta(weeks=rng.randint(1, 12)),
                2 if rng.random() < 0.2 else 1,
                rng.choice((2, 3, 3, 4)),
                rng.choice((14, 15, 16)),
                rng.choice((0, 0, 30)),
            )
        if rng.random() < 0.55:
            team.role_play = (
                adopted + timedelta(weeks=rng.randint(4, 16)),
                rng.randint(1, 4),
                rng.choice((1, 2, 3)),
                rng.choice((10, 14, 15)),
                0,
            )
        teams.append(team)

    _reps(rng, shape, people, person, teams, managers, sizes["reps"], clock)

    for p in people:
        if p.reports or p.led:
            p.coach = _coach_profile(rng, clock)
        p.prep_rate = rng.uniform(0.05, 0.8)
        p.skill = rng.uniform(1.6, 2.8)
        p.self_bias = rng.uniform(0.1, 0.9)
        p.travels = rng.choice((0.5, 1.0, 1.0, 2.5))
    # Current reports: active people whose open stint is with this manager.
    for p in people:
        p.reports = []
    by_id = {p.id: p for p in people}
    for p in people:
        if p.active and p.stints:
            by_id[p.stints[-1].manager].reports.append(p.id)
    return Org(
        clock=clock,
        people=people,
        teams=teams,
        by_id=by_id,
        team_by_id={t.id: t for t in teams},
        head=head,
        hr=hr,
        admins=admins,
        region_adopted=region_adopted,
    )


def _reps(rng, shape, people, person, teams, managers, total, clock) -> None:
    """Seats on each team, their occupants over time: leavers and their replacements,
    new hires, and a few people who moved team."""
    start, now = clock.start, clock.now
    span = (now - start).days
    sizes = _spread(shape, total, len(teams), low=min(8, total // len(teams)))
    lead_of = {t.id: next(m for m in managers if m.id == t.lead) for t in teams}
    reps_by_team: dict[int, list[Person]] = {}
    for team, rows in zip(teams, sizes, strict=True):
        lead = lead_of[team.id]
        i = 0
        while i < rows:
            tz = lead.tz if rng.random() < 0.8 else _tz(rng, team.region)
            leaves = i + 1 < rows and shape.random() < 0.055
            if rng.random() < 0.8:
                joined = start - timedelta(days=rng.randint(20, 1800), hours=rng.randint(8, 17))
            else:  # a hire during the history, into a new seat
                joined = start + timedelta(days=rng.randint(0, span - 21), hours=rng.randint(8, 17))
            rep = person(REP, team.region, tz, "rep", joined)
            rep.vacations = _vacations(rng, clock, tz, 3)
            rep.stints.append(Stint(lead.id, team.id, joined))
            team.members.append((rep.id, joined, None))
            reps_by_team.setdefault(team.id, []).append(rep)
            i += 1
            if leaves:
                earliest = max(joined, start) + timedelta(weeks=8)
                latest = now - timedelta(weeks=3)
                if earliest >= latest:
                    continue
                left = earliest + timedelta(
                    seconds=rng.randint(0, int((latest - earliest).total_seconds()))
                )
                rep.left = left
                rep.stints[-1].end = left
                team.members[-1] = (rep.id, joined, left)
                replaced = min(left + timedelta(days=rng.randint(7, 50)), now - timedelta(days=3))
                rep2 = person(REP, team.region, tz, "rep", replaced)
                rep2.vacations = _vacations(rng, clock, tz, 3)
                rep2.stints.append(Stint(lead.id, team.id, replaced))
                team.members.append((rep2.id, replaced, None))
                reps_by_team[team.id].append(rep2)
                i += 1
    # Movers: a few long-standing reps came from another team in the same region.
    by_region: dict[int, list[Team]] = {}
    for team in teams:
        by_region.setdefault(team.region, []).append(team)
    for team in teams:
        for rep in reps_by_team.get(team.id, []):
            if shape.random() >= 0.04 or not rep.active or rep.joined > start + timedelta(weeks=26):
                continue
            others = [t for t in by_region[team.region] if t.id != team.id]
            if not others:
                continue
            old = shape.choice(others)
            earliest = max(rep.joined, start) + timedelta(weeks=8)
            latest = now - timedelta(weeks=6)
            if earliest >= latest:
                continue
            moved = earliest + timedelta(days=rng.randint(0, (latest - earliest).days))
            rep.stints = [
                Stint(old.lead, old.id, rep.joined, moved),
                Stint(team.lead, team.id, moved),
            ]
            team.members = [
                (pid, moved if pid == rep.id else joined, left)
                for pid, joined, left in team.members
            ]
            old.members.append((rep.id, rep.joined, moved))
    for team in teams:
        team.members.sort(key=lambda m: (m[1], m[0]))
