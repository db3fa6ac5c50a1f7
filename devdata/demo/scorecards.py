"""A quarter of scorecards for the demo organisation, so the skill trends, team
distributions, rounds and calibration pages all tell a story.

What it tells, over the twelve weeks of `devdata.demo.coaching`'s history:
- Focus areas name the criteria that measure them: discovery → the Discovery call
  template's question, listening and problem criteria; objection handling → the
  Objection handling template; multi-threading (EMEA) → stakeholders and next step.
- Every rep has a recorded call scored with their manager every two or three weeks
  (the call reviews' presented calls where they fit), the rep self-assessing first.
  Enterprise East gets steadily better on the discovery criteria (2 → 3, some 4);
  EMEA Growth stalls in its escalation month and climbs after it, and picks up the
  stakeholder criterion once multi-threading starts; Mid-Market Central stays flat.
  Self-assessments start a point above the coach's and the gap closes.
- Self-only rounds on pricing, demo and cold calls; two peer rounds between the peer
  coaching pairs; Daniel scoring Lena's escalation retrospective with her.
- Open business: this week's calls the coach has scored and the rep has not yet
  (aisha.bello among them), one the rep declined, one waiting on Marcus (Jordan
  scored first: blind to Marcus and Daniel until Marcus scores too).
- One team review round per team on its latest held call review (Enterprise East and
  Mid-Market Central closed; EMEA Growth's still open, two people yet to score).
- Daniel's closed discovery calibration with the three managers (Marcus reads the
  first anchor differently: the outlier), and a second one still open.

Everything goes through `scorecards.services` (and `coaching.services` for the call
review round) as a person would; what no service can express for history — when a
call was added, a round opened or closed, a scorecard saved or submitted — is then
moved back with `.update()`, as `devdata.demo.coaching` does.

Idempotent: if a demo person opened any scoring round, nothing is written.
Deterministic: one seeded random generator per rep and per story."""

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.apps import apps as django_apps
from django.db import transaction
from django.db.models import Count, Exists, OuterRef
from django.utils import timezone

from coaching.models import CoachingSession, FocusArea, SessionKind, SessionStatus
from coaching.services import call_review_scoring_open
from devdata.demo.coaching import ACCOUNTS, CENTRAL, EAST, EMEA, _at, _demo_people, _monday, _slug
from devdata.demo.people import HEAD, REPS, TEAMS, _key
from people.models import Team, User
from scorecards.library import seed_starter_library
from scorecards.models import (
    CriterionVersion,
    RecordedCall,
    RoundContext,
    RoundRater,
    Score,
    Scorecard,
    ScoringRound,
    Template,
)
from scorecards.services import (
    ScoreInput,
    calibration_open,
    coach_scoring_open,
    peer_scoring_open,
    recorded_call_create,
    round_close,
    round_decline,
    scorecard_save,
    self_assessment_open,
)

DISCOVERY, OBJECTIONS, DEMO, COLD_CALL, RETRO = (
    "Discovery call",
    "Objection handling",
    "Product demo",
    "Cold-call opener",
    "Project retrospective facilitation",
)
# Positions (0-based) of the Discovery call criteria.
QUESTIONS, LISTENING, PROBLEM, STAKEHOLDERS = range(4)
FOCUS = (QUESTIONS, LISTENING, PROBLEM)

# Weeks (1..12, 12 = last week) of each rep's coach-scored calls: every two or three
# weeks, from the baseline in week 1 to last week.
PATTERNS = [
    (1, 3, 6, 8, 10, 12),
    (1, 4, 6, 9, 12),
    (1, 3, 5, 8, 10, 12),
    (1, 4, 7, 9, 12),
]
# EMEA Growth: progress by week — the escalation month (weeks 5–8) stalls it.
EMEA_CURVE = {1: 0, 2: 0.1, 3: 0.2, 4: 0.25, 5: 0.25, 6: 0.25, 7: 0.3, 8: 0.35}
EMEA_CURVE |= {9: 0.55, 10: 0.7, 11: 0.85, 12: 1.0, 13: 1.0}
MULTITHREADING_FROM = 8

# This week's calls the coach has already scored, waiting on the rep ("score it
# yourself first"); the one the rep declined; the one waiting on the coach.
WAITING_ON_REP = ("aisha.bello", "diego.ramos", "sam.carter", "camille.dubois")
DECLINED_BY_REP = "owen.murphy"
WAITING_ON_COACH = "jordan.lee"
PEER_ROUNDS = (("aisha.bello", "kwame.asante", 7), ("jonas.weber", "camille.dubois", 9))

# --- Content ----------------------------------------------------------------------------

MOMENTS = {
    DISCOVERY: (
        "first open question",
        "customer describes the current process",
        "first screen share",
        "recap of their problem",
        "budget comes up",
        "what happens if nothing changes",
        "champion names the CFO",
        "next steps",
    ),
    OBJECTIONS: (
        "price pushback",
        "'we already have a tool for that'",
        "customer story",
        "discount asked for",
        "timing objection",
        "next steps",
    ),
    DEMO: (
        "recap and agenda",
        "first workflow",
        "customer's own example",
        "question from their ops lead",
        "reporting section",
        "next steps",
    ),
    COLD_CALL: ("opener", "reason for calling", "first question", "brush-off", "the ask"),
    RETRO: ("ground rules", "timeline", "silent writing", "causes", "actions and owners"),
}

# What a coach (or a peer, or a calibrating manager) saw, by criterion: low (1–2) and
# high (3–4). Observations, not interpretations.
OBSERVED = {
    QUESTIONS: (
        (
            "First screen share at {ts}; one question before it, and it was closed ('Are "
            "you on spreadsheets today?').",
            "Asked what prompted the call, then pitched at {ts} before they had finished.",
            "Two open questions, then the product slide at {ts}.",
            "At {ts} they asked for 'a quick look' and the demo started — no question about why.",
        ),
        (
            "Three open questions before anything about us; first screen share at {ts}.",
            "'What made you look at this now?' at {ts}, then two follow-ups on the "
            "reporting answer.",
            "Every question built on their last answer; the demo only started at {ts}, "
            "after they had described the cost.",
            "Redirected 'can you just show me?' at {ts} with 'happy to — what made you ask?'",
        ),
    ),
    LISTENING: (
        (
            "Interrupted at {ts} just as they got to the re-org.",
            "Answered your own question at {ts} before they could.",
            "Went to the next scripted question at {ts} instead of following 'the team is "
            "drowning in spreadsheets'.",
            "Filled every pause — the longest silence, around {ts}, was two seconds.",
        ),
        (
            "Summarised at {ts}: 'so the issue is the month-end close, not the reports' — "
            "they said 'exactly'.",
            "Five-second silence after the budget question at {ts}; they filled it with "
            "the real number.",
            "Followed their thread about the re-org at {ts} instead of the script.",
            "Summary at {ts}; they corrected one detail and you used their wording after.",
        ),
    ),
    PROBLEM: (
        (
            "Took 'we need better reporting' at face value at {ts}; no cost or deadline came up.",
            "The problem is named at {ts} but nothing about what it costs them.",
            "Never asked what happens if they do nothing; the call moved to features at {ts}.",
        ),
        (
            "At {ts} they said the manual close ties up two people for a week each month; "
            "it was in your recap.",
            "'What happens if you do nothing this year?' at {ts} — got the March renewal deadline.",
            "At {ts} the customer put a number on it (three lost renewals) and agreed with "
            "your summary.",
        ),
    ),
    STAKEHOLDERS: (
        (
            "Ended on 'I'll send something over' at {ts}; nobody else named.",
            "'Let's reconnect in a couple of weeks' at {ts} — no date, no owner.",
            "The champion said 'I'll take it to the CFO' at {ts}; no question about what "
            "the CFO needs to see.",
        ),
        (
            "'Who else needs to say yes?' at {ts}; got the CFO's name and a date for the "
            "next call.",
            "Next meeting booked before hanging up ({ts}), with their finance lead invited.",
            "Mapped the buying group out loud at {ts}; they corrected you on who signs.",
        ),
    ),
}

# The rep on their own call: first person, generous early in the quarter.
OWN = {
    QUESTIONS: (
        "I asked a couple of questions before the demo (around {ts}).",
        "Three open questions before I shared my screen at {ts}.",
    ),
    LISTENING: (
        "I think I let them talk — there's a summary at {ts}.",
        "Summarised at {ts} and waited; they added the bit about the re-org.",
    ),
    PROBLEM: (
        "They told me the problem at {ts}.",
        "Got the cost of doing nothing at {ts}: two people for a week every month.",
    ),
    STAKEHOLDERS: (
        "Next step agreed at {ts}.",
        "Asked who else signs at {ts}; the CFO is on the next call.",
    ),
}

COACH_KEEP = {
    "early": (
        "The opening question: 'what prompted the call?', and then you let them talk.",
        "You named a next step before hanging up.",
        "Your energy when they mentioned the renewal — they opened up after that.",
    ),
    "late": (
        "The recap before the demo — they corrected one detail, which is exactly the point.",
        "Asking what happens if they do nothing. That got us the deadline.",
        "Letting the silence run after the budget question.",
        "Three open questions before the screen share, on a call where they asked to see "
        "the product straight away.",
    ),
}
COACH_TRY = {
    "discovery": (
        "Hold the screen share until you've asked three open questions — count them on "
        "a sticky note.",
        "When they name a feature, ask 'what would that let you do?' before answering.",
        "Summarise their problem in their words before any demo, and wait for them to confirm it.",
        "Ask 'what happens if you do nothing this quarter?' on your next two first calls.",
    ),
    "next_step": (
        "Before you hang up, book the next meeting and ask who else should be in it.",
        "Keep the last ten minutes for next steps.",
    ),
    "multithreading": (
        "Ask your champion who else needs to say yes, and what the CFO will need to see.",
        "Offer to build the one-page business case with the champion for her CFO.",
        "Get a second contact on the invite before the proposal goes out.",
    ),
}
OWN_KEEP = (
    "Opening question worked — they talked for four minutes.",
    "I summarised before the demo and they corrected me, which helped.",
    "Got the renewal date by asking what happens if they do nothing.",
    "Didn't share my screen until minute nine.",
)
OWN_TRY = (
    "Not share my screen before three questions.",
    "Stop filling the silences.",
    "Ask who signs before the proposal stage.",
    "Ask 'what would that let you do?' when they name a feature.",
)

# Self-only rounds on the other templates: one line per criterion, low and high.
OWN_OTHER = {
    OBJECTIONS: (
        ("Went straight into the answer at {ts}.", "Said 'that's fair' at {ts} before answering."),
        (
            "Didn't ask what was behind 'too expensive' ({ts}).",
            "Asked 'compared to what?' at {ts} and waited.",
        ),
        (
            "Listed features at {ts}.",
            "Used the Pinecrest story at {ts}: same migration, six weeks.",
        ),
        (
            "Offered 10% at {ts} before they asked. Again.",
            "Held the price at {ts}; offered a longer term instead.",
        ),
        ("Moved on at {ts} without checking.", "Asked 'does that address it?' at {ts} and waited."),
    ),
    DEMO: (
        (
            "Jumped into the demo without a recap.",
            "Recapped their three problems at {ts}; they added a fourth.",
        ),
        ("Standard tour from {ts} on.", "Used their month-end example from {ts}."),
        (
            "No questions until the end.",
            "Asked how their team would use it after each section ({ts}).",
        ),
        ("I talked for most of it.", "They drove the reporting section from {ts}."),
        ("Ended on 'I'll send the deck'.", "Next meeting in the calendar at {ts}."),
    ),
    COLD_CALL: (
        (
            "Started pitching at {ts}.",
            "Name, company and reason in one sentence, then asked for 30 seconds.",
        ),
        ("Generic reason for calling.", "Mentioned their new logistics hub at {ts}."),
        ("Closed question at {ts}.", "Asked how they plan routes today ({ts})."),
        (
            "Accepted 'send me an email' at {ts}.",
            "Asked one question after 'not interested' at {ts}.",
        ),
        ("No clear ask.", "Asked for Tuesday 10:00 or Thursday 15:00 at {ts}."),
    ),
    RETRO: (
        ("Started with 'so, what went wrong?'.", "Goal, timebox and 'blameless' stated at {ts}."),
        ("Timeline from memory.", "Built the timeline from the tickets together ({ts})."),
        ("Same three voices throughout.", "Silent writing at {ts}, then a round."),
        (
            "Oliver was named as the cause at {ts} and I let it stand.",
            "Redirected to the hand-over process at {ts}.",
        ),
        ("No owners on the actions.", "Three actions, owners and dates on the board at {ts}."),
    ),
}
OWN_OTHER_NOTES = {
    OBJECTIONS: (
        ("Pausing after the pushback.", "Ask 'compared to what?' before any number moves."),
        (
            "Acknowledging the outage before explaining it.",
            "Hold the price through the first push.",
        ),
    ),
    DEMO: (
        ("The recap at the start.", "Stop after each section and ask a question."),
        ("Using their own example.", "Leave ten minutes for next steps."),
    ),
    COLD_CALL: (
        ("The one-sentence reason.", "Ask one question before accepting the brush-off."),
        ("Asking for two concrete slots.", "Open with the trigger, not our name."),
    ),
    RETRO: (("Silent writing got the quiet people in.", "Review the last retro's actions first."),),
}
OTHER_CALLS = {OBJECTIONS: ("Pricing", "Renewal"), DEMO: ("Demo",), COLD_CALL: ("Cold call",)}
PRESENTED_TEMPLATE = {
    "Discovery": DISCOVERY,
    "Stakeholder call": DISCOVERY,
    "Demo": DEMO,
    "Pricing": OBJECTIONS,
}

# What peers saw on the other templates' calls in a team review: (low, high) per position.
SEEN_OTHER = {
    DEMO: (
        (
            "No recap: the demo started at {ts}.",
            "The recap at {ts}: three problems, and they added a fourth.",
        ),
        ("The standard tour from {ts} on.", "Their month-end example from {ts}."),
        (
            "No question to them until the end.",
            "'How would your team use that?' after each section, from {ts}.",
        ),
        (
            "They spoke for maybe five minutes in total.",
            "Their ops lead drove the reporting part from {ts}.",
        ),
        ("Ended on 'I'll send the deck'.", "Next meeting booked at {ts}, their lead invited."),
    ),
    OBJECTIONS: (
        ("Straight into the answer at {ts}.", "'That's fair' at {ts} before anything else."),
        (
            "No question about 'too expensive' at {ts}.",
            "'Compared to what?' at {ts}, then silence.",
        ),
        ("Features, not a story, at {ts}.", "The Pinecrest story at {ts} landed."),
        (
            "Discount offered at {ts} before they asked.",
            "Held the price at {ts}; traded term instead.",
        ),
        ("Moved on at {ts} without checking.", "'Does that address it?' at {ts}, and waited."),
    ),
}

PEER_KEEP = (
    "The recap at {ts} — I'm stealing that wording.",
    "The opening: one question, then silence.",
    "Asking who else is involved before the demo.",
    "How calm you stayed when procurement joined.",
)
PEER_TRY = (
    "Ask what the current process costs them before the demo.",
    "Stop at the budget comment and ask who owns it.",
    "Book the next meeting before hanging up.",
    "Let the silence after the price run longer.",
)


@dataclass
class Profile:
    """How a rep's coach sees them on each Discovery call criterion: where they start
    and how far they move by the end of the quarter."""

    base: list[float]
    gain: list[float]
    overrates: float  # how far the first self-assessments sit above the coach's


# --- Building ---------------------------------------------------------------------------


class _Builder:
    def __init__(self, people: dict[str, User], *, seed: int):
        self.people = people
        self.seed = seed
        self.now = timezone.now()
        self.head = people[HEAD.key]
        self.leads = {name: people[spec.key] for name, spec in TEAMS.items()}
        self.teams = {name: Team.objects.get(name__iexact=name) for name in TEAMS}
        self.templates = _templates()
        self._criteria: dict[int, list[CriterionVersion]] = {}
        self.presented = self._presented_calls()

    # Times ------------------------------------------------------------------------------

    def week_day(self, tz: str, week: int, weekday: int) -> date:
        """Week 12 is last week and 13 this week, as in `devdata.demo.coaching`."""
        this_monday = _monday(self.now.astimezone(ZoneInfo(tz)).date())
        return this_monday + timedelta(weeks=week - 13, days=weekday)

    def week_of(self, tz: str, day: date) -> int:
        this_monday = _monday(self.now.astimezone(ZoneInfo(tz)).date())
        return 13 + (_monday(day) - this_monday).days // 7

    def capped(self, moment: datetime, minutes: int = 5) -> datetime:
        return min(moment, self.now - timedelta(minutes=minutes))

    def last_workday(self, tz: str) -> date:
        day = self.now.astimezone(ZoneInfo(tz)).date() - timedelta(days=1)
        while day.weekday() >= 5:
            day -= timedelta(days=1)
        return day

    # Writing through the services, then moving it back in time ---------------------------

    def criteria(self, scoring: ScoringRound) -> list[CriterionVersion]:
        if scoring.version_id not in self._criteria:
            self._criteria[scoring.version_id] = list(
                CriterionVersion.objects.filter(version=scoring.version_id).order_by("position")
            )
        return self._criteria[scoring.version_id]

    def new_call(
        self,
        person: User,
        actor: User,
        title: str,
        day: date,
        template: str,
        rng: random.Random,
        account: str,
    ) -> RecordedCall:
        minutes = sorted(rng.sample(range(60, 38 * 60, 5), 4))
        labels = sorted(rng.sample(MOMENTS[template], 4), key=MOMENTS[template].index)
        call = recorded_call_create(
            actor=actor,
            person=person,
            title=title,
            call_date=day,
            url=f"https://calls.example.com/{_slug(person.display_name)}/"
            f"{_slug(account)}-{day:%Y%m%d}",
            timestamps="\n".join(
                f"{m // 60:02d}:{m % 60:02d} {label}"
                for m, label in zip(minutes, labels, strict=True)
            ),
        )
        uploaded = self.capped(_at(person.time_zone, day, 16, rng.randrange(0, 60, 5)))
        RecordedCall.objects.filter(pk=call.pk).update(created_at=uploaded)
        return call

    def opened(self, scoring: ScoringRound, at: datetime) -> None:
        ScoringRound.objects.filter(pk=scoring.pk).update(created_at=at)
        RoundRater.objects.filter(round=scoring).update(invited_at=at)

    def score(
        self,
        scoring: ScoringRound,
        person: User,
        ratings: list[int],
        at: datetime,
        rng: random.Random,
        *,
        notes: dict[int, str] | None = None,
        keep: str = "",
        try_next: str = "",
        submit: bool = True,
    ) -> Scorecard:
        """`notes`: criterion position → what was seen (with "{ts}" for the moment)."""
        moments = [line.split(" ", 1)[0] for line in scoring.work.timestamps.splitlines()]
        scores = []
        for position, (criterion, rating) in enumerate(
            zip(self.criteria(scoring), ratings, strict=True)
        ):
            note = (notes or {}).get(position, "")
            at_moment = rng.choice(moments) if note and moments else ""
            scores.append(
                ScoreInput(
                    criterion=criterion.pk,
                    rating=rating,
                    evidence_at=at_moment,
                    evidence=note.format(ts=at_moment or "the start")[:500],
                )
            )
        card = scorecard_save(
            actor=person,
            scoring=scoring,
            scores=scores,
            keep=keep.format(ts=rng.choice(moments) if moments else "the start"),
            try_next=try_next,
            submit=submit,
        )
        at = self.capped(at)
        Scorecard.objects.filter(pk=card.pk).update(
            created_at=at - timedelta(minutes=rng.randint(4, 25)),
            submitted_at=at if submit else None,
        )
        return card

    def close(self, scoring: ScoringRound, at: datetime) -> None:
        round_close(actor=scoring.created_by, scoring=scoring)
        ScoringRound.objects.filter(pk=scoring.pk).update(closed_at=self.capped(at))

    def decline(self, scoring: ScoringRound, person: User, at: datetime) -> None:
        round_decline(actor=person, scoring=scoring)
        RoundRater.objects.filter(round=scoring, person=person).update(declined_at=self.capped(at))

    # Focus areas --------------------------------------------------------------------------

    def link_focus_areas(self) -> None:
        by_position = {
            name: [
                c.criterion
                for c in CriterionVersion.objects.filter(
                    version__template=template, version__number=1
                )
                .select_related("criterion")
                .order_by("position")
            ]
            for name, template in self.templates.items()
        }
        links = {
            "Discovery: ask before you pitch": [by_position[DISCOVERY][i] for i in FOCUS],
            "Objection handling": by_position[OBJECTIONS],
            "Multi-threading: reach the economic buyer": [by_position[DISCOVERY][STAKEHOLDERS]],
        }
        for area in FocusArea.objects.filter(name__in=links):
            area.criteria.add(*links[area.name])

    # The calls the coaching demo presented at team call reviews -------------------------

    def _presented_calls(self) -> dict[int, list[RecordedCall]]:
        sessions = (
            CoachingSession.objects.filter(
                kind=SessionKind.TEAM_CALL_REVIEW,
                occurrence__isnull=True,
                presented_call__isnull=False,
                team__in=self.teams.values(),
            )
            .select_related("presented_call")
            .order_by("scheduled_start")
        )
        found: dict[int, list[RecordedCall]] = {}
        for session in sessions:
            found.setdefault(session.presented_call.person_id, []).append(session.presented_call)
        return found

    def reuse(self, rep: User, week: int, kinds: tuple[str, ...], used: set[int]):
        """A call the rep presented at a team call review around that week."""
        for call in self.presented.get(rep.pk, []):
            kind = call.title.split(" — ", 1)[0]
            if call.pk in used or kind not in kinds or call.call_date >= self.now.date():
                continue
            if abs(self.week_of(rep.time_zone, call.call_date) - week) <= 1:
                used.add(call.pk)
                return call
        return None

    # Coach rounds ---------------------------------------------------------------------------

    def profile(self, team: str, key: str, rng: random.Random) -> Profile:
        base = [
            rng.choice([1.6, 2.0, 2.0]),
            rng.choice([2.0, 2.0, 2.3]),
            rng.choice([1.7, 2.0, 2.0]),
            rng.choice([2.0, 2.4, 2.6]),
        ]
        if team == EAST:
            gain = [rng.choice([1.0, 1.0, 1.5, 2.0]) for _ in FOCUS] + [rng.choice([0, 0, 0.5])]
        elif team == EMEA:
            flat = key == "ingrid.larsen"  # the one the quarter has not reached yet
            gain = [0.3 if flat else rng.choice([1.0, 1.0, 1.5]) for _ in FOCUS]
            gain.append(rng.choice([1.0, 1.0, 1.5]))
        else:
            # Flat, apart from Nina's questions: her peer pair with Grace is working.
            gain = [1.0 if key == "nina.petrova" else 0, 0, 0, 0]
        return Profile(base, gain, rng.choice([1.0, 1.0, 1.4]))

    @staticmethod
    def progress(team: str, week: int, position: int) -> float:
        if team == CENTRAL:
            return 0.0
        if team == EMEA:
            if position == STAKEHOLDERS:
                return max(0.0, min(1.0, (week - MULTITHREADING_FROM) / 4))
            return EMEA_CURVE[week]
        return 0.0 if position == STAKEHOLDERS and week < 2 else min(1.0, (week - 1) / 11)

    def coach_ratings(
        self, team: str, profile: Profile, week: int, rng: random.Random
    ) -> list[int]:
        ratings = []
        for position in range(4):
            level = profile.base[position] + profile.gain[position] * self.progress(
                team, week, position
            )
            noise = (
                rng.choice([-0.25, 0, 0, 0.25])
                if team != CENTRAL
                else rng.choice([-0.5, 0, 0, 0.5])
            )
            ratings.append(max(1, min(4, int(level + noise + 0.5))))
        return ratings

    def own_ratings(
        self, team: str, profile: Profile, week: int, coach: list[int], rng: random.Random
    ) -> list[int]:
        """A point above the coach at first; the gap closes (slower where the 1:1s
        slip), and one or two late self-assessments come in harder than the coach's."""
        closing = 0.6 if team == CENTRAL else 1.0
        p = min(1.0, (week - 1) / 11 * closing)
        own = []
        for rating in coach:
            gap = profile.overrates * (1 - p) + rng.choice([-0.3, 0, 0, 0.3])
            if p > 0.8 and rng.random() < 0.08:
                gap = -1
            own.append(max(1, min(4, rating + int(round(gap)))))
        return own

    def coach_notes(self, ratings: list[int], rng: random.Random, emea_late: bool):
        notes = {}
        for position in (*FOCUS, STAKEHOLDERS):
            if position == STAKEHOLDERS and not emea_late and rng.random() < 0.4:
                continue
            low, high = OBSERVED[position]
            notes[position] = rng.choice(high if ratings[position] >= 3 else low)
        return notes

    def coach_round(
        self,
        team: str,
        rep: User,
        coach: User,
        call: RecordedCall,
        week: int,
        profile: Profile,
        rng: random.Random,
        *,
        state: str = "closed",
    ) -> ScoringRound:
        """The coach opens the round the morning after the call, the rep scores first
        (that afternoon), the coach the next morning, and closes it after the 1:1.
        `state`: closed, waiting_on_rep (coach scored, rep not yet), declined (the rep
        said no), waiting_on_coach (the rep scored, the coach not yet)."""
        scoring = coach_scoring_open(actor=coach, work=call, template=self.templates[DISCOVERY])
        coach_tz = coach.time_zone
        next_day = _workday_after(call.call_date)
        opened = _at(coach_tz, next_day, 8, rng.randrange(0, 60, 5))
        own_at = _at(rep.time_zone, next_day, rng.randint(13, 17), rng.randrange(0, 60, 5))
        coach_at = _at(coach_tz, _workday_after(next_day), 8, rng.randrange(0, 60, 5))
        if state != "closed":  # the latest call: listened to and opened the same evening
            lag = rng.randint(0, 90)  # minutes, so they do not all land together
            opened = self.capped(_at(coach_tz, call.call_date, 17, 40), 6 * 60 + lag)
            own_at = self.capped(_at(rep.time_zone, next_day, 9, 20), 3 * 60 + lag)
            coach_at = self.capped(_at(coach_tz, next_day, 8, 10), 2 * 60 + lag)
        self.opened(scoring, opened)
        coach_ratings = self.coach_ratings(team, profile, week, rng)
        emea_late = team == EMEA and week >= MULTITHREADING_FROM
        if state in ("closed", "waiting_on_coach"):
            own = self.own_ratings(team, profile, week, coach_ratings, rng)
            low_high = [OWN[p][1 if own[p] >= 3 else 0] for p in range(4)]
            notes = {p: low_high[p] for p in rng.sample(range(4), rng.choice([1, 2, 2, 3]))}
            self.score(
                scoring,
                rep,
                own,
                own_at,
                rng,
                notes=notes,
                keep=rng.choice(OWN_KEEP),
                try_next=rng.choice(OWN_TRY),
            )
        if state == "declined":
            self.decline(scoring, rep, own_at)
        if state == "waiting_on_coach":
            return scoring
        try_theme = "multithreading" if emea_late else rng.choice(["discovery"] * 3 + ["next_step"])
        self.score(
            scoring,
            coach,
            coach_ratings,
            coach_at,
            rng,
            notes=self.coach_notes(coach_ratings, rng, emea_late),
            keep=rng.choice(COACH_KEEP["late" if week >= 6 else "early"]),
            try_next=rng.choice(COACH_TRY[try_theme]),
        )
        if state == "closed":  # after the 1:1 where they talked it through
            day = coach_at.astimezone(ZoneInfo(coach_tz)).date()
            for _ in range(rng.randint(1, 3)):
                day = _workday_after(day)
            self.close(scoring, _at(coach_tz, day, rng.randint(10, 16), 45))
        return scoring

    def rep_quarter(self, team: str, index: int, rep: User, coach: User) -> None:
        key = _key(rep.display_name)
        rng = random.Random(f"{self.seed}-{key}")
        profile = self.profile(team, key, rng)
        accounts = rng.sample(ACCOUNTS[team], len(ACCOUNTS[team]))
        used: set[int] = set()
        weeks = PATTERNS[(index + list(TEAMS).index(team)) % len(PATTERNS)]
        for n, week in enumerate(weeks):
            account = accounts[n % len(accounts)]
            weekday = rng.choice([0, 1, 2])
            kind = rng.choice(["Discovery", "Discovery", "First call"])
            call = None
            if week not in (weeks[0], weeks[-1]):  # the quarter's ends stay where they are
                call = self.reuse(rep, week, ("Discovery", "Stakeholder call"), used)
            if call is None:
                day = self.week_day(coach.time_zone, week, weekday)
                call = self.new_call(rep, rep, f"{kind} — {account}", day, DISCOVERY, rng, account)
            self.coach_round(team, rep, coach, call, week, profile, rng)

        # This week's call: some already scored by the coach, one declined, one waiting
        # on Marcus.
        state = {
            **dict.fromkeys(WAITING_ON_REP, "waiting_on_rep"),
            DECLINED_BY_REP: "declined",
            WAITING_ON_COACH: "waiting_on_coach",
        }.get(key)
        if state:
            account = accounts[len(weeks) % len(accounts)]
            day = self.last_workday(rep.time_zone)
            call = self.new_call(rep, rep, f"Discovery — {account}", day, DISCOVERY, rng, account)
            self.coach_round(team, rep, coach, call, 13, profile, rng, state=state)

        # Self-only rounds: a pricing or renewal call early in the quarter (objection
        # handling was the focus then), a demo or cold call later, and the presented
        # demo and pricing calls they scored after the review.
        if rng.random() < 0.7:
            self.own_round(rep, OBJECTIONS, rng.choice([1, 2]), rng, accounts[-1])
        if rng.random() < 0.4:
            self.own_round(
                rep, rng.choice([DEMO, COLD_CALL]), rng.choice([5, 7, 11]), rng, accounts[-2]
            )
        for call in self.presented.get(rep.pk, []):
            kind = call.title.split(" — ", 1)[0]
            if call.pk in used or kind not in ("Demo", "Pricing"):
                continue
            if call.call_date >= self.now.date() or rng.random() < 0.5:
                continue
            used.add(call.pk)
            week = self.week_of(rep.time_zone, call.call_date)
            self.own_round(rep, PRESENTED_TEMPLATE[kind], week, rng, "", call=call)

    def own_round(
        self,
        rep: User,
        template: str,
        week: int,
        rng: random.Random,
        account: str,
        *,
        call: RecordedCall | None = None,
    ) -> None:
        """The rep scores a call of their own, alone, the day after it."""
        if call is None:
            day = self.week_day(rep.time_zone, week, rng.choice([1, 2, 3]))
            kind = rng.choice(OTHER_CALLS[template])
            call = self.new_call(rep, rep, f"{kind} — {account}", day, template, rng, account)
        scoring = self_assessment_open(actor=rep, work=call, template=self.templates[template])
        opened = _at(rep.time_zone, _workday_after(call.call_date), 16, rng.randrange(0, 60, 5))
        self.opened(scoring, self.capped(opened, 60))
        count = len(self.criteria(scoring))
        ratings = [rng.choice([2, 2, 3, 3, 3, 4]) for _ in range(count)]
        lines = OWN_OTHER[template]
        notes = {
            p: lines[p][1 if ratings[p] >= 3 else 0]
            for p in rng.sample(range(count), rng.choice([1, 2, 3]))
        }
        keep, try_next = rng.choice(OWN_OTHER_NOTES[template])
        at = opened + timedelta(minutes=rng.randint(10, 40))
        self.score(scoring, rep, ratings, at, rng, notes=notes, keep=keep, try_next=try_next)
        self.close(scoring, at + timedelta(minutes=2))

    # Peer rounds, and Daniel coaching Lena on a retrospective -----------------------------

    def peer_round(self, subject_key: str, peer_key: str, week: int) -> None:
        rng = random.Random(f"{self.seed}-peer-{subject_key}")
        subject, peer = self.people[subject_key], self.people[peer_key]
        team = next(t for t, reps in REPS.items() if any(_key(n) == subject_key for n, _ in reps))
        account = rng.choice(ACCOUNTS[team])
        day = self.week_day(subject.time_zone, week, 1)
        call = self.new_call(
            subject, subject, f"Discovery — {account}", day, DISCOVERY, rng, account
        )
        scoring = peer_scoring_open(
            actor=subject, work=call, template=self.templates[DISCOVERY], peers=[peer]
        )
        opened = _at(subject.time_zone, day, 17, 45)
        self.opened(scoring, opened)
        own = [3, 3, rng.choice([2, 3]), 2]
        self.score(
            scoring,
            subject,
            own,
            opened + timedelta(minutes=20),
            rng,
            notes={QUESTIONS: OWN[QUESTIONS][1]},
            keep=rng.choice(OWN_KEEP),
            try_next="Ask who signs before the proposal stage.",
        )
        theirs = [3, 2, rng.choice([2, 3]), 2]
        self.score(
            scoring,
            peer,
            theirs,
            opened + timedelta(days=2, hours=-3),
            rng,
            notes={LISTENING: OBSERVED[LISTENING][0][2], QUESTIONS: OBSERVED[QUESTIONS][1][0]},
            keep=rng.choice(PEER_KEEP),
            try_next=rng.choice(PEER_TRY),
        )
        self.close(scoring, opened + timedelta(days=3))

    def retrospective(self) -> None:
        """After the escalation month, Lena ran a blameless retrospective; Daniel
        scored her facilitation with her."""
        rng = random.Random(f"{self.seed}-retro")
        lena = self.leads[EMEA]
        day = self.week_day(lena.time_zone, 9, 2)
        call = self.new_call(
            lena,
            lena,
            "Retrospective — Castellana and Hanse escalations",
            day,
            RETRO,
            rng,
            "escalations-retro",
        )
        scoring = coach_scoring_open(actor=self.head, work=call, template=self.templates[RETRO])
        opened = _at(self.head.time_zone, day + timedelta(days=1), 9, 15)
        self.opened(scoring, opened)
        lines = OWN_OTHER[RETRO]
        self.score(
            scoring,
            lena,
            [3, 3, 4, 2, 3],
            _at(lena.time_zone, day + timedelta(days=1), 17, 10),
            rng,
            notes={2: lines[2][1], 3: lines[3][0]},
            keep="Silent writing got the quiet people in.",
            try_next="Redirect the moment a person is named as the cause.",
        )
        self.score(
            scoring,
            self.head,
            [3, 4, 3, 2, 3],
            _at(self.head.time_zone, day + timedelta(days=2), 8, 40),
            rng,
            notes={
                1: "The timeline came from the tickets, with dates, before anyone said why.",
                3: "At {ts} 'Oliver should have flagged it' stood for a minute; the "
                "hand-over process came up only later.",
            },
            keep="Facts before opinions: nobody argued about what happened.",
            try_next="When a name comes up as the cause, ask 'what made that easy to miss?'",
        )
        self.close(scoring, _at(self.head.time_zone, day + timedelta(days=6), 10, 0))

    # Team review rounds -----------------------------------------------------------------

    def team_review(self, team_name: str) -> None:
        """The latest held call review of the team, scored by everyone in it: the
        presenter first, the peers with a spread of views, the lead last."""
        rng = random.Random(f"{self.seed}-review-{team_name}")
        lead = self.leads[team_name]
        session = (
            CoachingSession.objects.filter(
                kind=SessionKind.TEAM_CALL_REVIEW,
                status=SessionStatus.HELD,
                team=self.teams[team_name],
                occurrence__isnull=True,
                presented_call__isnull=False,
            )
            .select_related("presented_call")
            .order_by("-scheduled_start")
            .first()
        )
        if session is None:
            return
        call = session.presented_call
        template = PRESENTED_TEMPLATE.get(call.title.split(" — ", 1)[0], DISCOVERY)
        scoring = call_review_scoring_open(
            session=session, actor=lead, template=self.templates[template]
        )
        opened = session.scheduled_start + timedelta(minutes=38)
        self.opened(scoring, opened)
        count = len(self.criteria(scoring))
        truth = [rng.choice([2, 3, 3]) for _ in range(count)]
        raters = list(
            RoundRater.objects.filter(round=scoring).select_related("person").order_by("pk")
        )
        subject = next(r.person for r in raters if r.role == "subject")
        peers = [r.person for r in raters if r.role == "participant"]
        open_round = team_name == EMEA
        waiting = set(p.pk for p in peers[-2:]) if open_round else set()
        declined = peers[0].pk if team_name == CENTRAL else None
        at = opened + timedelta(minutes=4)
        own = [min(4, t + (1 if i == rng.randrange(count) else 0)) for i, t in enumerate(truth)]
        self.score(
            scoring,
            subject,
            own,
            at,
            rng,
            keep=rng.choice(OWN_KEEP)
            if template == DISCOVERY
            else rng.choice(OWN_OTHER_NOTES[template])[0],
            try_next=rng.choice(OWN_TRY)
            if template == DISCOVERY
            else rng.choice(OWN_OTHER_NOTES[template])[1],
        )
        for n, peer in enumerate(peers):
            at += timedelta(minutes=rng.randint(2, 9))
            if peer.pk == declined:
                self.decline(scoring, peer, at)
                continue
            ratings = [max(1, min(4, t + rng.choice([-1, 0, 0, 0, 1]))) for t in truth]
            if n == 1:  # the one who always sees it more harshly
                ratings = [max(1, r - 1) for r in ratings]
            notes = {}
            for position in rng.sample(range(count), rng.choice([1, 1, 2])):
                notes[position] = self.seen(template, position, ratings[position], rng)
            if peer.pk in waiting:
                if n == len(peers) - 1:  # started, not submitted
                    self.score(scoring, peer, ratings, at, rng, notes=notes, submit=False)
                continue
            self.score(
                scoring,
                peer,
                ratings,
                at,
                rng,
                notes=notes,
                keep=rng.choice(PEER_KEEP),
                try_next=rng.choice(PEER_TRY),
            )
        self.score(
            scoring,
            lead,
            truth,
            at + timedelta(minutes=15),
            rng,
            notes={p: self.seen(template, p, truth[p], rng) for p in (0, 1)},
            keep="The opening. Everyone heard what the first two minutes did to the call.",
            try_next="Next review: the same call, and what we'd say in the first two minutes.",
        )
        if not open_round:
            self.close(scoring, session.scheduled_start + timedelta(days=rng.randint(1, 2)))

    @staticmethod
    def seen(template: str, position: int, rating: int, rng: random.Random) -> str:
        lines = OBSERVED[position] if template == DISCOVERY else SEEN_OTHER[template][position]
        choice = lines[1 if rating >= 3 else 0]
        return choice if isinstance(choice, str) else rng.choice(choice)

    # Calibrations -----------------------------------------------------------------------

    def calibrations(self) -> None:
        rng = random.Random(f"{self.seed}-calibration")
        managers = [self.leads[EAST], self.leads[CENTRAL], self.leads[EMEA]]
        sofia, marcus, lena = managers
        grace = self.people["grace.liu"]
        day = self.week_day(grace.time_zone, 6, 1)
        call = self.new_call(
            grace,
            self.head,
            "Discovery — Harbor Point Capital",
            day,
            DISCOVERY,
            rng,
            "Harbor Point Capital",
        )
        closed = calibration_open(
            actor=self.head,
            work=call,
            template=self.templates[DISCOVERY],
            raters=managers,
            title="Discovery calibration: what a 3 looks like",
        )
        opened = _at(self.head.time_zone, day + timedelta(days=2), 9, 0)
        self.opened(closed, opened)
        # Marcus reads "open question before the pitch" as "no product words at all"
        # and marks the first criterion down: the outlier the discussion is about.
        cards = [
            (
                sofia,
                [3, 3, 2, 2],
                {
                    QUESTIONS: "Three open questions before the first share at {ts}; "
                    "followed up on the reporting one.",
                    PROBLEM: "The cost came up ('two people for a week') but no deadline.",
                },
                3,
            ),
            (
                lena,
                [3, 2, 2, 3],
                {
                    QUESTIONS: "Open questions at {ts} and twice more before any product.",
                    LISTENING: "No summary before the demo.",
                },
                9,
            ),
            (
                marcus,
                [1, 3, 2, 2],
                {
                    QUESTIONS: "Mentioned the reporting module at {ts}, before the second "
                    "question — I count that as the pitch.",
                },
                30,
            ),
        ]
        for person, ratings, notes, hours in cards:
            self.score(closed, person, ratings, opened + timedelta(hours=hours), rng, notes=notes)
        self.close(closed, opened + timedelta(days=7, hours=5))

        # The second one, this week: Sofia and Lena have scored, Marcus has not.
        jonas = self.people["jonas.weber"]
        day = self.last_workday(jonas.time_zone) - timedelta(days=2)
        while day.weekday() >= 5:
            day -= timedelta(days=1)
        call = self.new_call(
            jonas,
            self.head,
            "Discovery — Nordlys Energi",
            day,
            DISCOVERY,
            rng,
            "Nordlys Energi",
        )
        still = calibration_open(
            actor=self.head,
            work=call,
            template=self.templates[DISCOVERY],
            raters=managers,
            title="Discovery calibration, round two: the stakeholder criterion",
        )
        opened = self.capped(_at(self.head.time_zone, day + timedelta(days=1), 9, 30), 30 * 60)
        self.opened(still, opened)
        self.score(still, sofia, [3, 3, 3, 2], opened + timedelta(hours=2), rng)
        self.score(still, lena, [3, 3, 2, 3], opened + timedelta(hours=5), rng)

    # Everything ---------------------------------------------------------------------------

    def build(self) -> None:
        self.link_focus_areas()
        for team, reps in REPS.items():
            coach = self.leads[team]
            for index, (name, _tz) in enumerate(reps):
                self.rep_quarter(team, index, self.people[_key(name)], coach)
        for subject_key, peer_key, week in PEER_ROUNDS:
            self.peer_round(subject_key, peer_key, week)
        self.retrospective()
        for team in TEAMS:
            self.team_review(team)
        self.calibrations()


def _workday_after(day: date) -> date:
    day += timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def _templates() -> dict[str, Template]:
    """The starter library (a migration seeds it); seeded again if someone removed it."""
    names = (DISCOVERY, OBJECTIONS, DEMO, COLD_CALL, RETRO)
    found = {t.name: t for t in Template.objects.filter(name__in=names)}
    if len(found) < len(names):
        seed_starter_library(django_apps)
        found = {t.name: t for t in Template.objects.filter(name__in=names)}
    return found


# --- Entry point -------------------------------------------------------------------------


def scorecards_summary(people: dict[str, User]) -> list[str]:
    pks = [u.pk for u in people.values()]
    rounds = ScoringRound.objects.filter(work__person__in=pks)
    by_context = dict(rounds.order_by().values_list("context").annotate(n=Count("pk")))
    contexts = ", ".join(
        f"{label.lower()} {by_context[value]}"
        for value, label in RoundContext.choices
        if by_context.get(value)
    )
    cards = Scorecard.objects.filter(round__in=rounds)
    scored = Scorecard.objects.filter(
        round=OuterRef("round"), rater=OuterRef("person"), submitted_at__isnull=False
    )
    waiting = (
        RoundRater.objects.filter(round__in=rounds.open(), declined_at__isnull=True)
        .exclude(Exists(scored))
        .count()
    )
    linked = FocusArea.criteria.through.objects.filter(
        focusarea__name__in=[
            "Discovery: ask before you pitch",
            "Objection handling",
            "Multi-threading: reach the economic buyer",
        ]
    ).count()
    return [
        f"  scoring rounds: {rounds.count()} ({contexts}; {rounds.open().count()} open)",
        f"  scorecards: {cards.filter(submitted_at__isnull=False).count()} submitted "
        f"({Score.objects.filter(scorecard__in=cards).count()} scores), {waiting} raters "
        f"still to score, "
        f"{RoundRater.objects.filter(round__in=rounds, declined_at__isnull=False).count()} "
        "declined",
        f"  recorded calls: {RecordedCall.objects.filter(person__in=pks).count()}",
        f"  focus areas linked to {linked} criteria",
    ]


def seed_scorecards(people: dict[str, User] | None = None, *, rng_seed: int = 2026) -> list[str]:
    """A quarter of scorecards on top of the coaching history, unless a demo person
    already opened a scoring round. Returns the lines to print either way."""
    people = people or _demo_people()
    if ScoringRound.objects.filter(created_by__in=people.values()).exists():
        return ["Scorecards already present — left as they are.", *scorecards_summary(people)]
    if not FocusArea.objects.filter(name="Discovery: ask before you pitch").exists():
        return ["No coaching history to score — scorecards skipped."]
    with transaction.atomic():
        _Builder(people, seed=rng_seed).build()
    return ["Scorecards written: a quarter of scoring.", *scorecards_summary(people)]
