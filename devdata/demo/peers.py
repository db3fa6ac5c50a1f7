"""Peer coaching and the learning loop for the demo organisation, on top of
`devdata.demo.coaching`'s twelve weeks of history (and its scorecards and cadence).

What it tells, relative to today (week 13 is this week, 12 last week, as in
`devdata.demo.coaching`):
- The peer pairs behind the history's ad hoc peer sessions (`PEER_PAIRS`) become
  pairs, formed by their team lead (Grace and Nina, on two teams, by Daniel, above
  both), each with a rationale quoting the scorecard averages of the day they were
  formed, both members' acceptance, private notes, two or three small habits each
  and the partner's check-ins — kept, partly, not yet — after each session they held.
- A trio in EMEA Growth, formed last week around the multi-threading focus, not met
  yet; Hannah and Aisha still forming (Hannah accepted, aisha.bello is asked); Owen
  and Fatima in Mid-Market Central, where Owen left in week 9 with a reason only the
  programme admin (ada.okafor) reads; Diego and Emily's pair, closed by Sofia after
  a full cycle. The last two met in ad hoc peer sessions, as the history's pairs did.
- Experiments in every state, by reps and managers, linked to pairs, commitments,
  sessions and the focus areas; seventeen learnings in the library (most for the
  whole organisation, five for a team), eight of them published from finished
  experiments; each team's playbook picks; five diagnoses (one revisited).

Every change goes through the services a person would use (`services_pairs`,
`services_learning`, `services_diagnosis`, `coaching.services` for the ad hoc
sessions); the moments they stamp with "now" are then moved back with `.update()`,
as `devdata.demo.coaching` does. The pairs' cadence plans are the cadence engine's: made
when a pair starts; `devdata.demo.rollout` starts the live ones where the pairs' own
bookings leave off, so nothing is doubled.

Idempotent: if a demo person formed any pair, nothing is written.
Deterministic for a given day."""

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.apps import apps as django_apps
from django.db import transaction
from django.db.models import Avg, Count
from django.utils import timezone

from coaching.models import (
    CancelReason,
    CoachingSession,
    Commitment,
    CommitmentStatus,
    Diagnosis,
    FocusArea,
    NotesRevision,
    SessionKind,
    SessionStatus,
    SharedNotes,
)
from coaching.programme_content import seed_programme_content
from coaching.services import notes_save, peer_session_create, session_cancel, session_mark_held
from coaching.services_diagnosis import diagnosis_record
from devdata.demo.coaching import SERVICE_SHIFT, _at, _demo_people, _monday
from devdata.demo.people import TEAMS
from learning.models import (
    Audience,
    Experiment,
    ExperimentStatus,
    Learning,
    LearningKind,
    PlaybookModule,
)
from learning.services import (
    experiment_create,
    experiment_drop,
    experiment_finish,
    experiment_start,
    learning_publish,
    team_playbooks_set,
)
from peers.models import (
    CheckInOutcome,
    Habit,
    HabitCheckIn,
    PairingRationale,
    PairMember,
    PairNote,
    PeerPair,
    PeerRequest,
)
from peers.services import (
    habit_add,
    habit_check_in,
    habit_retire,
    pair_accept,
    pair_create,
    pair_end,
    pair_leave,
    pair_note_add,
)
from peers.services_requests import peer_request_set
from people.models import Team, TeamMembership, User
from scorecards.models import RaterRole, RoundContext, Score

DISCOVERY = "Discovery: ask before you pitch"
MULTITHREADING = "Multi-threading: reach the economic buyer"
# People asking for a peer (days ago, focus area, what they would like to work on):
# one on each team, so each lead finds someone on Form a pair.
PEER_REQUESTS = (
    (
        "ravi.shah",
        9,
        DISCOVERY,
        "My discovery calls turn into demos by minute ten — I'd "
        "like someone who holds back the pitch.",
    ),
    (
        "lucas.silva",
        4,
        None,
        "Pricing pushback. I'd like to practise it with someone who handles it calmly.",
    ),
    ("ingrid.larsen", 2, MULTITHREADING, ""),
)
KEPT, PARTLY, NOT_YET = CheckInOutcome.KEPT, CheckInOutcome.PARTLY, CheckInOutcome.NOT_YET
PLAYBOOKS = ("Core coaching playbook", "Sales: calls and deals")
# A rationale quotes the members' averages only when each was scored this often.
MIN_SCORECARDS_QUOTED = 2

# A moment in the story: (week, weekday, hour, minute), in someone's time zone.
When = tuple[int, int, int, int]


# --- Peer pairs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HabitSpec:
    owner: str
    text: str
    week: int  # added in this week, after the session (or when the pair started)
    # The partner's check-ins, one per session held from the week after it was added.
    outcomes: tuple[str, ...] = ()
    notes: dict[int, str] = field(default_factory=dict)  # check-in number → note
    retired_week: int | None = None


@dataclass(frozen=True)
class PairSpec:
    key: str
    members: tuple[str, ...]
    formed_by: str
    rationale: str
    note: str  # "{scores}" is replaced by the members' averages the day it was formed
    focus: str | None
    weekday: int
    local_time: time
    time_zone: str
    interval_weeks: int
    formed: When | None  # in the time zone of whoever formed it; None: three days ago
    # Each member's acceptance, hours after it was formed (None: not answered yet).
    accepts: tuple[float | None, ...]
    # Weeks they met (ad hoc sessions already in the history, or written here).
    met: tuple[int, ...] = ()
    write_sessions: bool = False  # the pair's ad hoc sessions are written here
    cancelled: dict[int, tuple[str, str]] = field(default_factory=dict)  # week → who, why
    habits: tuple[HabitSpec, ...] = ()
    notes: tuple[tuple[int, str, str], ...] = ()  # (week, author, text)
    # How it ends: ("left", who, when, reason) or ("ended", when); None: still on.
    end: tuple | None = None


PAIRS = (
    PairSpec(
        key="east",
        members=("aisha.bello", "kwame.asante"),
        formed_by="sofia.alvarez",
        rationale=PairingRationale.COMPLEMENTARY,
        note="Aisha already asks before she pitches; Kwame holds the price without "
        "flinching. Each coaches the other's weak spot. {scores}",
        focus=DISCOVERY,
        weekday=4,
        local_time=time(12, 0),
        time_zone="America/New_York",
        interval_weeks=2,
        formed=(1, 4, 9, 15),
        accepts=(2.2, 4.9),
        met=(2, 4, 6, 8, 10, 12),
        habits=(
            HabitSpec(
                "aisha.bello",
                "Three open questions before I share my screen on a first call",
                2,
                (PARTLY, KEPT, KEPT, KEPT, KEPT),
                {0: "Two of three calls; Kestrel Bank went to the demo at minute six."},
            ),
            HabitSpec(
                "aisha.bello",
                "Say the price, then stay quiet for three seconds",
                6,
                (NOT_YET, PARTLY, KEPT),
                {0: "Filled the silence with a discount on Halcyon Health.", 2: "Four seconds!"},
            ),
            HabitSpec(
                "kwame.asante",
                "Say the customer's problem back in one sentence before any demo",
                2,
                (NOT_YET, PARTLY, PARTLY, KEPT, KEPT),
                {1: "Did it at Summit Ridge, forgot at Alder & Finch."},
            ),
            HabitSpec(
                "kwame.asante",
                "Ask “who else needs to say yes?” on every discovery call",
                2,
                (PARTLY, KEPT, KEPT),
                {2: "It's automatic now: retiring it."},
                retired_week=8,
            ),
            HabitSpec(
                "kwame.asante",
                "Send the recap within an hour of every customer call",
                10,
                (PARTLY,),
            ),
        ),
        notes=(
            (
                2,
                "aisha.bello",
                "First session. We agreed: each of us listens to two of the other's "
                "recordings a week and writes observations only — no “you should”.",
            ),
            (
                6,
                "kwame.asante",
                "Aisha's pause after the price at Kestrel Bank: the buyer answered with a "
                "question about scope, not a discount ask. Worth trying at Halcyon.",
            ),
            (
                10,
                "aisha.bello",
                "Kwame's “who else needs to say yes?” is a habit now. Next for him: "
                "recaps within the hour. For me: the silence after the price, still.",
            ),
            (
                12,
                "kwame.asante",
                "Bring to the call review: the Pinecrest call where the champion went "
                "quiet the moment we named the CFO.",
            ),
        ),
    ),
    PairSpec(
        key="emea",
        members=("jonas.weber", "camille.dubois"),
        formed_by="lena.fischer",
        rationale=PairingRationale.SIMILAR,
        note="Both are learning to reach the economic buyer on deals over 50k, at the same "
        "stage with similar accounts: they can try the same things and compare. {scores}",
        focus=None,
        weekday=4,
        local_time=time(11, 0),
        time_zone="Europe/Berlin",
        interval_weeks=2,
        formed=(6, 0, 10, 0),
        accepts=(22.8, 3.7),
        met=(7, 11),  # week 9 was cancelled (a clashing meeting)
        habits=(
            HabitSpec(
                "jonas.weber",
                "Ask my champion what their boss will need to see, on every deal over 50k",
                6,
                (PARTLY, KEPT),
            ),
            HabitSpec(
                "jonas.weber",
                "Open proposal calls with the recommendation and the price",
                6,
                (NOT_YET, KEPT),
                {1: "Vistula Bank: the CFO stayed to the end."},
            ),
            HabitSpec(
                "camille.dubois",
                "Name a second engaged contact before the proposal goes out",
                6,
                (KEPT, PARTLY),
                {1: "Maison Verte still single-threaded."},
            ),
            HabitSpec(
                "camille.dubois",
                "Offer to draft the one-page business case with the champion",
                7,
                (PARTLY,),
            ),
        ),
        notes=(
            (
                7,
                "camille.dubois",
                "We tried the same opener on two deals each: “what will your CFO need to "
                "see to say yes?” Three of four champions answered with a name.",
            ),
            (
                11,
                "jonas.weber",
                "Conclusion first worked with finance in the room and lost operations at "
                "Baltic Freight. Next time: ask who is coming before choosing the opening.",
            ),
        ),
    ),
    PairSpec(
        key="across",
        members=("grace.liu", "nina.petrova"),
        formed_by="daniel.mensah",
        rationale=PairingRationale.COMPLEMENTARY,
        note="Across two teams on purpose: Grace leads discovery in Enterprise East, Nina "
        "is newer to it and strong on pricing calls. {scores}",
        focus=DISCOVERY,
        weekday=4,
        local_time=time(13, 0),
        time_zone="America/Chicago",
        interval_weeks=3,
        formed=(4, 1, 11, 0),
        accepts=(3.0, 23.5),
        met=(5, 8, 11),
        habits=(
            HabitSpec(
                "grace.liu",
                "Pause for three seconds after I say the price",
                4,
                (NOT_YET, PARTLY, KEPT),
            ),
            HabitSpec(
                "grace.liu",
                "Write down the buyer's exact words for their problem",
                4,
                (KEPT, KEPT, KEPT),
            ),
            HabitSpec(
                "nina.petrova",
                "Three open questions before the demo on every first call",
                4,
                (PARTLY, PARTLY, KEPT),
                {0: "Two of four calls: the demo-first habit is strong."},
            ),
            HabitSpec(
                "nina.petrova",
                "Ask “what happens if you do nothing this quarter?”",
                8,
                (PARTLY,),
            ),
        ),
        notes=(
            (
                5,
                "grace.liu",
                "Different teams, same problem: we both rush to the demo when the buyer "
                "sounds keen. Swapping one recording each before every session.",
            ),
            (
                11,
                "nina.petrova",
                "Grace's pause after the price worked twice out of three for me. The third "
                "time the buyer filled the silence with a new objection.",
            ),
        ),
    ),
    PairSpec(
        key="trio",
        members=("oliver.hughes", "sara.rossi", "amara.nwosu"),
        formed_by="lena.fischer",
        rationale=PairingRationale.SIMILAR,
        note="Three people on the same focus: each has one deal stuck with a single "
        "champion. {scores}",
        focus=MULTITHREADING,
        weekday=4,
        local_time=time(14, 0),
        time_zone="Europe/London",
        interval_weeks=2,
        formed=(12, 0, 9, 30),
        accepts=(1.5, 24.5, 54.5),
        habits=(
            HabitSpec(
                "oliver.hughes", "Ask “who else needs to say yes?” before every proposal", 12
            ),
            HabitSpec(
                "sara.rossi", "Get a second engaged contact at Castellana Seguros this month", 12
            ),
            HabitSpec(
                "amara.nwosu", "Offer to build the business case together with the champion", 12
            ),
        ),
        notes=(
            (
                12,
                "amara.nwosu",
                "Agreed before the first session: each of us brings one stuck deal. "
                "Observations first, advice only when asked.",
            ),
        ),
    ),
    PairSpec(
        key="forming",
        members=("hannah.scott", "aisha.bello"),
        formed_by="sofia.alvarez",
        rationale=PairingRationale.SIMILAR,
        note="Both are working on holding the price in the last call of a deal.",
        focus=None,
        weekday=3,
        local_time=time(12, 0),
        time_zone="America/New_York",
        interval_weeks=2,
        formed=None,  # three days ago
        accepts=(26.0, None),
    ),
    PairSpec(
        key="left",
        members=("owen.murphy", "fatima.khan"),
        formed_by="marcus.chen",
        rationale=PairingRationale.COMPLEMENTARY,
        note="Fatima summarises the customer's problem better than anyone on the team; "
        "Owen is the one who books the next meeting. {scores}",
        focus=DISCOVERY,
        weekday=4,
        local_time=time(10, 0),
        time_zone="America/Chicago",
        interval_weeks=2,
        formed=(3, 0, 10, 0),
        accepts=(23.0, 2.0),
        met=(4, 6, 8),
        write_sessions=True,
        cancelled={8: ("owen.murphy", CancelReason.FORECAST_CALL)},
        habits=(
            HabitSpec(
                "owen.murphy",
                "Write my three opening questions down before every first call",
                3,
                (PARTLY, NOT_YET),
            ),
            HabitSpec(
                "fatima.khan",
                "Summarise the problem back before the demo",
                3,
                (KEPT, KEPT),
            ),
            HabitSpec(
                "fatima.khan",
                "Let the pause sit after a question — count to five",
                3,
                (PARTLY, KEPT),
            ),
        ),
        notes=(
            (
                4,
                "fatima.khan",
                "Good first session. Owen's Redline Auto Parts call: he asked one question "
                "and demoed for twenty minutes. He saw it before I said anything.",
            ),
            (
                6,
                "owen.murphy",
                "Week was all forecast. Didn't write the questions down once. Fatima's "
                "counting-to-five is working for her, though.",
            ),
        ),
        end=(
            "left",
            "owen.murphy",
            (9, 2, 17, 30),
            "Quarter-end forecast work is eating my Fridays; I'd rather stop than keep "
            "cancelling on Fatima.",
        ),
    ),
    PairSpec(
        key="ended",
        members=("diego.ramos", "emily.novak"),
        formed_by="sofia.alvarez",
        rationale=PairingRationale.COMPLEMENTARY,
        note="Diego finds the deadline on every first call; Emily books the next meeting "
        "before anyone hangs up. {scores}",
        focus=DISCOVERY,
        weekday=2,
        local_time=time(12, 30),
        time_zone="America/New_York",
        interval_weeks=2,
        formed=(1, 4, 10, 0),
        accepts=(5.0, 1.5),
        met=(2, 4, 6, 8),
        write_sessions=True,
        habits=(
            HabitSpec(
                "diego.ramos",
                "Ask “what happens if you do nothing?” on every first call",
                2,
                (PARTLY, KEPT, KEPT),
                {2: "Stuck: it's how he opens now."},
                retired_week=8,
            ),
            HabitSpec(
                "emily.novak",
                "Keep my talk time under 50% on discovery calls",
                2,
                (NOT_YET, PARTLY, KEPT),
                {0: "62% at Crescent Pharma.", 2: "44% and 47%."},
            ),
            HabitSpec(
                "emily.novak",
                "Book the next meeting before the call ends",
                4,
                (KEPT, KEPT),
            ),
        ),
        notes=(
            (
                2,
                "diego.ramos",
                "Swapped recordings: Harbor Point (mine) and Crescent Pharma (Emily's). "
                "Observations only. Hardest part: not saying “you should”.",
            ),
            (
                8,
                "emily.novak",
                "Both habits stuck. We'll ask Sofia to close the pair and pair us with "
                "the new starters next quarter.",
            ),
        ),
        end=("ended", (9, 1, 10, 0)),
    ),
)

ADHOC_NOTES = {
    "left": {
        4: "Experiment this week: Owen writes three questions on a sticky note before "
        "each first call. Evidence: the minute of the first screen share.",
        6: "Reflection: Fatima counted to five after two questions and got the budget "
        "owner's name both times. Owen didn't get to try his — forecast week.",
    },
    "ended": {
        2: "Goal for the next four weeks: Diego keeps asking what happens if they do "
        "nothing; Emily keeps her talk time under half. Each listens to one call a week.",
        4: "Diego's question surfaced the March deadline at Harbor Point. Emily's talk "
        "time: 58%, down from 62%.",
        6: "Small experiment for the week: Emily asks a question and waits, every time "
        "she feels the urge to explain a feature.",
        8: "Closing the loop: both habits held for three sessions. Writing it up for "
        "the team's library.",
    },
}


# --- Experiments --------------------------------------------------------------------------


@dataclass(frozen=True)
class ExperimentSpec:
    key: str
    owner: str
    hypothesis: str
    test: str
    evidence: str
    created: When | None  # None: yesterday
    started: When | None = None
    finished: When | None = None  # done, or dropped when there is no result
    result: str = ""
    learning: str = ""
    focus: str | None = None
    pair: str | None = None  # a PairSpec key
    # ("commitment", its first words — None: the latest open one), ("next 1:1", None)
    # or ("1:1 held before week", n): one of the owner's.
    link: tuple | None = None


EXPERIMENTS = (
    ExperimentSpec(
        "aisha-questions",
        "aisha.bello",
        "Three open questions before the first screen share get the buyer talking about "
        "the real problem",
        "On my next four first calls, no screen share before three open questions. Kwame "
        "listens to two of the recordings.",
        "Two of the four buyers still asking to “just see the product” before minute ten.",
        (3, 0, 8, 30),
        (3, 0, 8, 35),
        (5, 4, 16, 0),
        "Four calls. First screen share at minutes 11, 14, 9 and 16. Two buyers named "
        "the deadline behind the project without being asked. At Pinecrest the buyer "
        "asked for the demo at minute six; I asked what she hoped to see and she named "
        "the reporting gap.",
        "“What do you hope to see?” is a fourth question: it turns an early demo request "
        "into discovery. Three questions on a sticky note, every first call.",
        focus=DISCOVERY,
        pair="east",
    ),
    ExperimentSpec(
        "kwame-summary",
        "kwame.asante",
        "Saying the customer's problem back in one sentence cuts the “that's not quite it” moments",
        "Next three demos: one sentence summary before the first slide, then “did I get "
        "that right?”",
        "If buyers correct me as often as before (about one call in two).",
        (11, 1, 9, 0),
        (11, 2, 8, 45),
        focus=DISCOVERY,
        pair="east",
    ),
    ExperimentSpec(
        "jonas-conclusion",
        "jonas.weber",
        "Leading with the conclusion keeps the room",
        "Open the next three proposal calls with the recommendation and the price in the "
        "first two minutes; the detail after, only as asked.",
        "If the CFO leaves or checks out before we reach the price, as at Vistula Bank "
        "last quarter.",
        (7, 4, 12, 0),
        (8, 0, 9, 0),
        (10, 3, 17, 0),
        "Two of three rooms stayed to the end. At Vistula Bank the CFO asked three "
        "questions about the number instead of leaving at minute twenty. At Baltic "
        "Freight the operations lead wanted the path first and went quiet.",
        "The conclusion first works with finance in the room; operations people want the "
        "path first. Ask who is coming before choosing the opening.",
        pair="emea",
    ),
    ExperimentSpec(
        "camille-boss",
        "camille.dubois",
        "Asking the champion what their boss will need to see gets me the economic buyer's meeting",
        "Ask it on the Maison Verte and Atlas Mobility calls this week, before any talk "
        "of a proposal.",
        "If neither champion names the economic buyer or offers an introduction.",
        (12, 4, 15, 0),
        focus=MULTITHREADING,
        pair="emea",
    ),
    ExperimentSpec(
        "grace-silence",
        "grace.liu",
        "Three seconds of silence after the price means fewer discount requests",
        "Say the price and count to three on every pricing conversation for two weeks.",
        "If buyers ask for a discount as often as before — about half the time.",
        (5, 4, 14, 0),
        (6, 0, 8, 30),
        (7, 4, 16, 30),
        "Five pricing conversations. Three times the buyer filled the silence with a "
        "question about scope; twice they asked for a discount anyway (once the "
        "procurement lead, who always does).",
        "Silence moves the conversation to value more often than not. Have the value "
        "answer ready for the scope question the silence brings.",
        pair="across",
    ),
    ExperimentSpec(
        "nina-agenda",
        "nina.petrova",
        "Sending the agenda the day before makes discovery calls shorter",
        "Email a three-line agenda the afternoon before each first call this week.",
        "If the calls run as long as usual (45 minutes or more).",
        (8, 4, 15, 0),
        (8, 4, 15, 5),
        (9, 2, 11, 0),
        focus=DISCOVERY,
        pair="across",
    ),
    ExperimentSpec(
        "sofia-speak-last",
        "sofia.alvarez",
        "Speaking last in the call review gets more from the peers",
        "Let a rep host the next two call reviews; I say nothing until every peer has "
        "spoken, and I count their comments.",
        "If the peers wait for me the way they did when I opened.",
        (8, 1, 17, 0),
        (8, 3, 15, 55),
        (11, 3, 17, 15),
        "Eleven peer comments before mine in the week-11 review, against four when I "
        "opened. The host ran the clock; two comments named the same moment I would have.",
        "Speaking last costs nothing: the team says what I would have said, and owns it. "
        "My one comment now goes on what nobody raised.",
        focus=DISCOVERY,
        link=("commitment", "Let a rep host"),
    ),
    ExperimentSpec(
        "marcus-forecast",
        "marcus.chen",
        "Moving forecast prep to Monday morning frees the 1:1 slots",
        "Forecast prep on Monday 8–9 for four weeks; no 1:1 moved for it.",
        "If a 1:1 is cancelled for the forecast call again in those four weeks.",
        (12, 1, 8, 0),
        (12, 2, 8, 0),
        link=("commitment", "Move forecast prep"),
    ),
    ExperimentSpec(
        "lena-delegate",
        "lena.fischer",
        "Delegating the escalation stand-up keeps my 1:1s",
        "Oliver runs the daily escalation stand-up for four weeks; I join only on Fridays.",
        "If I still cancel a 1:1 for an escalation in those four weeks.",
        (8, 1, 9, 0),
        (8, 2, 9, 0),
        (12, 4, 16, 0),
        "Every 1:1 held in weeks 9 to 12, thirty of thirty. Oliver ran the stand-up "
        "eighteen times and asked to keep it.",
        "A named owner for the escalation stand-up protected the 1:1 slots better than "
        "any calendar block. Delegation beats heroics.",
        focus=DISCOVERY,
        link=("commitment", "Delegate the escalation"),
    ),
    ExperimentSpec(
        "diego-nothing",
        "diego.ramos",
        "Asking “what happens if you do nothing?” surfaces the real deadline",
        "Ask it on every first call for three weeks and write down the answer.",
        "If fewer than half of the buyers name a date or a consequence.",
        (2, 3, 14, 0),
        (3, 0, 9, 0),
        (6, 4, 15, 0),
        "Seven first calls; five buyers named a date (a renewal, a board meeting, an "
        "audit). Harbor Point's March renewal changed the whole plan.",
        "The question works best after the buyer describes the problem, not before. "
        "The answer goes straight into the mutual action plan.",
        focus=DISCOVERY,
        pair="ended",
    ),
    ExperimentSpec(
        "owen-questions",
        "owen.murphy",
        "Writing the opening questions down makes me ask them",
        "Three questions on a sticky note before each first call for two weeks.",
        "If the recordings still show the demo in the first five minutes.",
        (4, 4, 11, 0),
        (5, 0, 9, 0),
        (8, 1, 18, 0),
        focus=DISCOVERY,
        pair="left",
    ),
    ExperimentSpec(
        "fatima-tried",
        "fatima.khan",
        "Asking what they've tried already gets me to the real problem faster",
        "Ask “what have you tried already?” as the second question on my next three first calls.",
        "If it takes as long as usual to hear the problem in the customer's words.",
        (12, 3, 16, 0),
        focus=DISCOVERY,
    ),
    ExperimentSpec(
        "oliver-yes",
        "oliver.hughes",
        "Asking “who else needs to say yes?” before the proposal adds a second contact",
        "Ask it on the Atlas Mobility and Hanse Logistik calls before the proposal goes "
        "out; note every new name.",
        "If neither call brings a new name.",
        (12, 3, 10, 0),
        (12, 4, 9, 0),
        focus=MULTITHREADING,
        pair="trio",
    ),
    ExperimentSpec(
        "aisha-recap",
        "aisha.bello",
        "A recap within the hour gets the next step confirmed in writing",
        "Send the recap within an hour of my next three calls, with the next step as the "
        "first line.",
        "If buyers reply no faster than the two days it takes now.",
        None,  # yesterday
        link=("next 1:1", None),
    ),
    ExperimentSpec(
        "jordan-next-call",
        "jordan.lee",
        "Doing it on the very next call, not “this week”, is what makes a commitment stick",
        "Put my open commitment in the calendar right before the first call after my "
        "1:1, and try it there.",
        "If the commitment is still open by its due date.",
        (12, 0, 16, 0),
        (12, 1, 8, 30),
        focus=DISCOVERY,
        link=("commitment", None),
    ),
    ExperimentSpec(
        "tom-listen",
        "tom.becker",
        "Listening back at 1.5x shows me where my talk time goes",
        "Listen to one of my calls a week at 1.5x and mark every stretch where I talk for "
        "more than a minute.",
        "If the stretches are spread evenly rather than bunched in one part of the call.",
        (9, 0, 17, 0),
        (9, 1, 8, 0),
        (11, 4, 12, 0),
        "Three calls, fourteen stretches over a minute: eleven of them right after the "
        "buyer mentioned a competitor.",
        "My talk time isn't spread out: it's a reflex when a competitor comes up. Now I "
        "ask “what do you like about them?” instead.",
        focus=DISCOVERY,
        link=("1:1 held before week", 9),
    ),
    ExperimentSpec(
        "daniel-forecast",
        "daniel.mensah",
        "Asking each manager for one coaching moment in the forecast call keeps coaching "
        "on the agenda",
        "Close each weekly forecast call by asking every manager for one coaching "
        "moment from the week, a clip or a sentence.",
        "If managers answer with deal updates instead of coaching after three weeks.",
        (5, 0, 8, 0),
        (5, 1, 16, 0),
        (9, 1, 17, 0),
        "Four forecast calls. Sofia and Lena brought a clip every time; Marcus twice, "
        "both times from the call review. The question took six minutes a week.",
        "What the top asks about is what gets done. Six minutes of the forecast call buys "
        "more coaching than any reminder.",
    ),
)


# --- The library --------------------------------------------------------------------------


@dataclass(frozen=True)
class LearningSpec:
    author: str
    kind: str
    title: str
    body: str
    tags: tuple[str, ...]
    audience: str
    published: When
    focus: str | None = None
    experiment: str | None = None  # an ExperimentSpec key


def _from(key: str) -> str:
    """A learning's body written from a finished experiment."""
    spec = next(e for e in EXPERIMENTS if e.key == key)
    return (
        f"Hypothesis: {spec.hypothesis}.\n\nWhat I tried: {spec.test}\n\n"
        f"What happened: {spec.result}\n\nWhat I learned: {spec.learning}"
    )


ORG, TEAM = Audience.ORGANISATION, Audience.TEAM
LEARNINGS = (
    LearningSpec(
        "ada.okafor",
        LearningKind.TEMPLATE,
        "First peer session: a 30-minute agenda",
        "0–5 Check in: one win, one stuck moment since we last spoke.\n"
        "5–15 One recording each: observations only, no advice unless asked.\n"
        "15–25 Goal and a small experiment for the next two weeks: what would a small "
        "experiment look like this week? What evidence would change your mind?\n"
        "25–30 Habits: each names one small, observable habit; the partner checks it in "
        "next time. Progress, not perfection.",
        ("peer coaching", "agendas", "templates"),
        ORG,
        (2, 1, 11, 0),
    ),
    LearningSpec(
        "sofia.alvarez",
        LearningKind.CHECKLIST,
        "Before you share your screen: a discovery checklist",
        "I asked at least three open questions.\n"
        "I can say their problem back in one sentence, in their words.\n"
        "I know what happens if they do nothing this quarter.\n"
        "I know who else needs to say yes.\n"
        "I asked what they hope to see before showing anything.",
        ("discovery", "questions", "checklists"),
        ORG,
        (3, 1, 16, 0),
        focus=DISCOVERY,
    ),
    LearningSpec(
        "diego.ramos",
        LearningKind.LEARNING,
        "Asking “what happens if you do nothing?” surfaces the real deadline",
        _from("diego-nothing"),
        ("discovery", "urgency", "questions"),
        TEAM,
        (6, 4, 17, 0),
        focus=DISCOVERY,
        experiment="diego-nothing",
    ),
    LearningSpec(
        "aisha.bello",
        LearningKind.LEARNING,
        "Three questions before the screen share — and a fourth for early demo requests",
        _from("aisha-questions"),
        ("discovery", "questions", "first calls"),
        ORG,
        (5, 4, 17, 0),
        focus=DISCOVERY,
        experiment="aisha-questions",
    ),
    LearningSpec(
        "camille.dubois",
        LearningKind.CHECKLIST,
        "Objection handling: acknowledge, explore, answer",
        "Acknowledge the concern in their words before answering it.\n"
        "Ask what is behind it: “what makes you say that?”\n"
        "Answer with a customer story, not a feature list.\n"
        "Check: “does that address it, or is there more?”",
        ("objections", "listening", "checklists"),
        ORG,
        (4, 2, 10, 0),
    ),
    LearningSpec(
        "marcus.chen",
        LearningKind.LEARNING,
        "Objections: ask what's behind it before you answer",
        "In three call reviews running, the objection we answered was not the one the "
        "buyer had. At Brightwave Logistics “too expensive” meant “my boss hasn't "
        "approved the budget line”. Ask what is behind an objection before answering "
        "it; the second answer is usually the real one.",
        ("objections", "listening", "call review"),
        TEAM,
        (6, 2, 15, 0),
        focus=DISCOVERY,
    ),
    LearningSpec(
        "grace.liu",
        LearningKind.LEARNING,
        "Three seconds of silence after the price",
        _from("grace-silence"),
        ("pricing", "negotiation", "listening"),
        ORG,
        (7, 4, 17, 30),
        experiment="grace-silence",
    ),
    LearningSpec(
        "kwame.asante",
        LearningKind.TEMPLATE,
        "Pricing call recap email",
        "Subject: Next step — {date}\n"
        "First line: the next step, who does it, by when.\n"
        "What you told us matters most: (their words).\n"
        "What we proposed and the price, in one line each.\n"
        "What we still need from you: (names, documents).\n"
        "Sent within an hour of the call.",
        ("pricing", "follow-up", "templates"),
        ORG,
        (9, 2, 14, 0),
    ),
    LearningSpec(
        "lena.fischer",
        LearningKind.CHECKLIST,
        "Escalation retrospective in 30 minutes",
        "Timeline first, five minutes, no opinions.\n"
        "Silent writing: what surprised you? Three minutes.\n"
        "One pattern, not a list of incidents.\n"
        "One owned experiment for the next escalation — not a blame list.\n"
        "Who tells the customer what we changed, and when.",
        ("retrospectives", "escalations", "checklists"),
        TEAM,
        (9, 3, 16, 0),
    ),
    LearningSpec(
        "daniel.mensah",
        LearningKind.CASE_STUDY,
        "One coaching moment in every forecast call",
        _from("daniel-forecast"),
        ("cadence", "forecast", "managers"),
        ORG,
        (9, 2, 9, 0),
        experiment="daniel-forecast",
    ),
    LearningSpec(
        "jonas.weber",
        LearningKind.TEMPLATE,
        "Mutual action plan for deals over 50k",
        "Their goal, in their words, and the date it matters by.\n"
        "Every step to a signature, with an owner on each side and a date.\n"
        "The economic buyer and when they see the business case.\n"
        "A second engaged contact and their role.\n"
        "Legal and procurement steps, with names.",
        ("multi-threading", "next steps", "templates"),
        ORG,
        (10, 1, 15, 0),
    ),
    LearningSpec(
        "jonas.weber",
        LearningKind.LEARNING,
        "Leading with the conclusion keeps the room (with finance)",
        _from("jonas-conclusion"),
        ("pricing", "proposals", "economic buyer"),
        ORG,
        (10, 4, 10, 0),
        experiment="jonas-conclusion",
    ),
    LearningSpec(
        "lena.fischer",
        LearningKind.CASE_STUDY,
        "Multi-threading Nordlys Energi: from one champion to the CFO",
        "Situation: one enthusiastic champion, who said “leave the CFO to me”. Three "
        "weeks without a meeting.\nWhat we tried: Jonas asked the champion what her CFO "
        "would need to see, and offered to draft the one-page business case together.\n"
        "What happened: she brought the draft to the CFO herself and invited Jonas to "
        "the second meeting. Two new contacts in a week.\nWhat to copy: ask what the "
        "boss needs, build it together, let the champion carry it.",
        ("multi-threading", "economic buyer", "case studies"),
        ORG,
        (11, 1, 11, 0),
    ),
    LearningSpec(
        "tom.becker",
        LearningKind.LEARNING,
        "Listening back at 1.5x: where my talk time goes",
        _from("tom-listen"),
        ("listening", "talk time", "discovery"),
        TEAM,
        (11, 4, 14, 0),
        focus=DISCOVERY,
        experiment="tom-listen",
    ),
    LearningSpec(
        "sofia.alvarez",
        LearningKind.CASE_STUDY,
        "Speaking last in the call review",
        _from("sofia-speak-last"),
        ("call review", "facilitation", "retrospectives"),
        ORG,
        (11, 4, 16, 0),
        experiment="sofia-speak-last",
    ),
    LearningSpec(
        "amara.nwosu",
        LearningKind.LEARNING,
        "Three questions that got me the economic buyer's name",
        "“What will your boss need to see to say yes?”\n“Who else was in the room the "
        "last time you bought something like this?”\n“If this goes well, who do you "
        "want to tell first?”\nTwo of the three got a name on the first try at Atlas "
        "Mobility and Fjord Analytics.",
        ("multi-threading", "questions", "economic buyer"),
        ORG,
        (12, 2, 15, 0),
        focus=MULTITHREADING,
    ),
    LearningSpec(
        "lena.fischer",
        LearningKind.CASE_STUDY,
        "How we kept our 1:1s through the escalation month",
        _from("lena-delegate"),
        ("escalations", "cadence", "delegation"),
        TEAM,
        (12, 4, 17, 0),
        experiment="lena-delegate",
    ),
)


# --- Diagnoses -----------------------------------------------------------------------------


# (author, coachee, (knows how, believes, framework, system), notes, (week, weekday, h, m))
DIAGNOSES = (
    (
        "sofia.alvarez",
        "tom.becker",
        (True, False, None, None),
        "Tom can run discovery when he wants to — his Beacon Hill call was textbook. He "
        "thinks the questions slow deals down. Show him his own calls: the ones where he "
        "asked three questions first against the rest.",
        (9, 0, 13, 0),
    ),
    (
        "marcus.chen",
        "owen.murphy",
        (False, None, None, None),
        "Owen has never seen a discovery call taken apart against the scorecard: he nods "
        "at “ask before you pitch” and then pitches. Role-play the first five minutes "
        "with him and score one call together.",
        (10, 1, 15, 0),
    ),
    (
        "lena.fischer",
        "pablo.ortega",
        (True, True, False, None),
        "Pablo prepares every 1:1 differently and scores himself against his own idea "
        "of a good call. Walk him through the stakeholder criterion and what a 3 looks "
        "like.",
        (11, 2, 10, 0),
    ),
    (
        "daniel.mensah",
        "marcus.chen",
        (True, True, True, False),
        "Marcus coaches well when the 1:1 happens. The forecast call sits on his 1:1 "
        "slots and half of his team's calls are not recorded. Move the forecast prep; "
        "turn recordings on for Mid-Market Central.",
        (12, 0, 16, 0),
    ),
    (
        "sofia.alvarez",
        "tom.becker",
        (True, True, True, True),
        "Revisited after he listened back to his own calls: he asks before pitching now "
        "and brought a clip to the call review. No gap — let him lead the next review.",
        (12, 3, 12, 0),
    ),
)


# --- Building ------------------------------------------------------------------------------


class _Builder:
    def __init__(self, people: dict[str, User], *, now: datetime, rng: random.Random):
        self.people = people
        self.now = now
        self.rng = rng
        self.areas = {
            a.name: a for a in FocusArea.objects.filter(name__in=[DISCOVERY, MULTITHREADING])
        }
        self.teams = {t.name: t for t in Team.objects.filter(name__in=TEAMS)}
        self.pairs: dict[str, PeerPair] = {}
        self.experiments: dict[str, Experiment] = {}

    # Times ----------------------------------------------------------------------------

    def at(self, tz: str, when: When) -> datetime:
        """A moment of the story (week 13 is this week) in a time zone, never later
        than a few minutes ago."""
        week, weekday, hour, minute = when
        monday = _monday(self.now.astimezone(ZoneInfo(tz)).date())
        day = monday + timedelta(weeks=week - 13, days=weekday)
        return min(_at(tz, day, hour, minute), self.now - timedelta(minutes=5))

    def of(self, key: str) -> User:
        return self.people[key]

    def session_at(self, spec: PairSpec, week: int) -> datetime:
        return self.at(
            spec.time_zone, (week, spec.weekday, spec.local_time.hour, spec.local_time.minute)
        )

    # Pairs ----------------------------------------------------------------------------

    def scores(self, spec: PairSpec, members: list[User], before: datetime) -> str:
        """The members' coaches'-and-peers' averages on the focus area's criteria from
        the scorecards submitted before the pair was formed (what the lead saw then) —
        quoted where each had been scored a few times, and for a complementary pair
        only where they differ."""
        area = self.areas[spec.focus or DISCOVERY]
        averages = []
        for person in members:
            scores = (
                Score.objects.filter(
                    scorecard__subject=person,
                    scorecard__submitted_at__lt=before,
                    criterion__criterion__in=area.criteria.all(),
                )
                .exclude(scorecard__context=RoundContext.CALIBRATION)
                .exclude(scorecard__rater_role=RaterRole.SUBJECT)
                .aggregate(average=Avg("rating"), cards=Count("scorecard", distinct=True))
            )
            if scores["cards"] < MIN_SCORECARDS_QUOTED:
                return ""
            averages.append((person, round(scores["average"], 1)))
        spread = max(a for _, a in averages) - min(a for _, a in averages)
        if spec.rationale == PairingRationale.COMPLEMENTARY and spread < 0.3:
            return ""
        what = "discovery" if area.name == DISCOVERY else "multi-threading"
        found = ", ".join(f"{p.get_short_name()} {a:.1f}" for p, a in averages)
        return f"Coaches' and peers' scores on {what} when they were paired: {found}."

    def formed_at(self, spec: PairSpec) -> datetime:
        lead = self.of(spec.formed_by)
        if spec.formed is None:
            return self.now - timedelta(days=3, hours=2)
        return self.at(lead.time_zone, spec.formed)

    def form_pair(self, spec: PairSpec) -> PeerPair:
        members = [self.of(k) for k in spec.members]
        formed = self.formed_at(spec)
        area = self.areas.get(spec.focus) if spec.focus else None
        note = spec.note.format(scores=self.scores(spec, members, formed)).strip()
        pair = pair_create(
            actor=self.of(spec.formed_by),
            members=members,
            rationale=spec.rationale,
            rationale_note=note,
            focus_area=area,
            weekday=spec.weekday,
            local_time=spec.local_time,
            time_zone=spec.time_zone,
            interval_weeks=spec.interval_weeks,
        )
        accepted = sorted(
            (formed + timedelta(hours=hours), person)
            for person, hours in zip(members, spec.accepts, strict=True)
            if hours is not None
        )
        for moment, person in accepted:
            pair_accept(pair=pair, actor=person)
            PairMember.objects.filter(pair=pair, person=person).update(accepted_at=moment)
        started = accepted[-1][0] if len(accepted) == len(members) else None
        PeerPair.objects.filter(pk=pair.pk).update(created_at=formed, started_at=started)
        pair.refresh_from_db()
        self.pairs[spec.key] = pair
        return pair

    def adhoc_sessions(self, spec: PairSpec) -> None:
        """The pair's meetings, booked ad hoc as the history's pairs did (through the
        services 13 weeks ahead, then moved back: see `devdata.demo.coaching`)."""
        a, b = (self.of(k) for k in spec.members)
        for week in spec.met:
            start = self.session_at(spec, week)
            session = peer_session_create(actor=a, peer=b, start=start + SERVICE_SHIFT)
            moved = {
                "scheduled_start": start,
                "scheduled_end": start + timedelta(minutes=session.duration_minutes),
                "original_start": start,
                "created_at": start - timedelta(days=9),
            }
            held_at = None
            if week in spec.cancelled:
                who, reason = spec.cancelled[week]
                session_cancel(session=session, actor=self.of(who), reason=reason)
                moved["cancelled_at"] = start - timedelta(hours=3)
            else:
                held_at = start + timedelta(minutes=31)
                notes = notes_save(
                    session=session,
                    actor=self.rng.choice([a, b]),
                    base_version=0,
                    changes={"notes": ADHOC_NOTES[spec.key][week]},
                )
                saved = held_at + timedelta(minutes=12)
                SharedNotes.objects.filter(pk=notes.pk).update(updated_at=saved)
                NotesRevision.objects.filter(notes=notes).update(saved_at=saved)
            CoachingSession.objects.filter(pk=session.pk).update(**moved)
            session.participants.update(scheduled_start=start)
            if held_at:  # once moved back: only a session that has started is logged held
                session_mark_held(session=session, actor=a, held_at=held_at)

    def partner_of(self, spec: PairSpec, owner: str, turn: int) -> User:
        others = [k for k in spec.members if k != owner]
        return self.of(others[turn % len(others)])

    def pair_life(self, spec: PairSpec, pair: PeerPair) -> None:
        """Notes, habits and the partner's check-ins after each session held."""
        for week, author, text in spec.notes:
            note = pair_note_add(pair=pair, actor=self.of(author), text=text)
            written = self.session_at(spec, week) + timedelta(
                hours=2, minutes=self.rng.randint(0, 50)
            )
            PairNote.objects.filter(pk=note.pk).update(created_at=max(written, pair.started_at))
        held = [w for w in spec.met if w not in spec.cancelled]
        retire = []
        for habit_spec in spec.habits:
            habit = habit_add(pair=pair, actor=self.of(habit_spec.owner), text=habit_spec.text)
            added = max(
                self.session_at(spec, habit_spec.week) + timedelta(minutes=50),
                pair.started_at + timedelta(minutes=20),
            )
            Habit.objects.filter(pk=habit.pk).update(created_at=added)
            weeks = [w for w in held if w > habit_spec.week]
            for n, (week, outcome) in enumerate(zip(weeks, habit_spec.outcomes, strict=False)):
                checker = self.partner_of(spec, habit_spec.owner, n)
                check_in = habit_check_in(
                    habit=habit,
                    actor=checker,
                    outcome=outcome,
                    note=habit_spec.notes.get(n, ""),
                )
                moment = self.session_at(spec, week) + timedelta(minutes=25)
                HabitCheckIn.objects.filter(pk=check_in.pk).update(
                    checked_on=moment.astimezone(checker.tzinfo).date(), created_at=moment
                )
            if habit_spec.retired_week is not None:
                retire.append((habit, habit_spec))
        for habit, habit_spec in retire:
            habit_retire(habit=habit, actor=self.of(habit_spec.owner))
            moment = self.session_at(spec, habit_spec.retired_week) + timedelta(minutes=40)
            Habit.objects.filter(pk=habit.pk).update(retired_at=moment)

    def pair_end(self, spec: PairSpec) -> None:
        pair = self.pairs[spec.key]
        lead = self.of(spec.formed_by)
        if spec.end[0] == "left":
            _, who, when, reason = spec.end
            person = self.of(who)
            moment = self.at(person.time_zone, when)
            pair_leave(pair=pair, actor=person, reason=reason)
            PairMember.objects.filter(pair=pair, person=person).update(left_at=moment)
        else:
            moment = self.at(lead.time_zone, spec.end[1])
            pair_end(pair=pair, actor=lead)
        PeerPair.objects.filter(pk=pair.pk).update(ended_at=moment)

    def build_pairs(self) -> None:
        for spec in PAIRS:
            pair = self.form_pair(spec)
            if spec.write_sessions:
                self.adhoc_sessions(spec)
            if pair.started_at is not None:
                self.pair_life(spec, pair)

    # Experiments ----------------------------------------------------------------------

    def _link(self, spec: ExperimentSpec) -> dict:
        """The owner's commitment or session the experiment links to (see `link`)."""
        if spec.link is None:
            return {}
        owner = self.of(spec.owner)
        kind, detail = spec.link
        if kind == "commitment":
            mine = Commitment.objects.filter(owner=owner).order_by("-created_at")
            if detail is None:
                return {"commitment": mine.filter(status=CommitmentStatus.OPEN).first()}
            return {"commitment": mine.filter(text__startswith=detail).first()}
        ones = CoachingSession.objects.filter(
            kind=SessionKind.ONE_ON_ONE, participants__person=owner
        )
        if kind == "next 1:1":
            ahead = ones.filter(status=SessionStatus.SCHEDULED, scheduled_start__gt=self.now)
            return {"session": ahead.order_by("scheduled_start").first()}
        before = self.at(owner.time_zone, (detail, 0, 8, 0))  # "1:1 held before week"
        held = ones.filter(status=SessionStatus.HELD, scheduled_start__lt=before)
        return {"session": held.order_by("-scheduled_start").first()}

    def experiment(self, spec: ExperimentSpec) -> Experiment:
        owner = self.of(spec.owner)
        tz = owner.time_zone
        experiment = experiment_create(
            owner=owner,
            hypothesis=spec.hypothesis,
            test=spec.test,
            evidence=spec.evidence,
            focus_area=self.areas.get(spec.focus) if spec.focus else None,
            pair=self.pairs[spec.pair] if spec.pair else None,
            **self._link(spec),
        )
        created = (
            self.now - timedelta(days=1, hours=3)
            if spec.created is None
            else self.at(tz, spec.created)
        )
        stamps = {"created_at": created}
        if spec.started:
            experiment_start(experiment=experiment, actor=owner)
            stamps["started_at"] = self.at(tz, spec.started)
        if spec.finished and spec.result:
            experiment_finish(
                experiment=experiment, actor=owner, result=spec.result, learning=spec.learning
            )
            stamps["finished_at"] = self.at(tz, spec.finished)
        elif spec.finished:
            experiment_drop(experiment=experiment, actor=owner)
            stamps["finished_at"] = self.at(tz, spec.finished)
        Experiment.objects.filter(pk=experiment.pk).update(**stamps)
        self.experiments[spec.key] = experiment
        return experiment

    # The library ----------------------------------------------------------------------

    def team_of(self, person: User) -> Team | None:
        """The team a learning comes from: the one they lead, or the one they are on."""
        led = Team.objects.filter(lead=person).order_by("name").first()
        if led is not None:
            return led
        membership = TeamMembership.objects.current().filter(person=person).first()
        return membership.team if membership else None

    def learning(self, spec: LearningSpec) -> Learning:
        author = self.of(spec.author)
        learning = learning_publish(
            author=author,
            kind=spec.kind,
            title=spec.title,
            body=spec.body,
            audience=spec.audience,
            tags=list(spec.tags),
            focus_area=self.areas.get(spec.focus) if spec.focus else None,
            team=self.team_of(author),
            experiment=self.experiments[spec.experiment] if spec.experiment else None,
        )
        published = self.at(author.time_zone, spec.published)
        Learning.objects.filter(pk=learning.pk).update(published_at=published, updated_at=published)
        return learning

    # Everything -----------------------------------------------------------------------

    def build(self) -> None:
        self.build_pairs()
        for spec in EXPERIMENTS:
            self.experiment(spec)
        # Pairs end after the experiments linked to them were written.
        for spec in PAIRS:
            if spec.end:
                self.pair_end(spec)
        for spec in LEARNINGS:
            self.learning(spec)
        for key, days_ago, area, note in PEER_REQUESTS:
            focus = FocusArea.objects.filter(name=area).first() if area else None
            asked = peer_request_set(person=self.of(key), note=note, focus_area=focus)
            moment = self.now - timedelta(days=days_ago, hours=3)
            PeerRequest.objects.filter(pk=asked.pk).update(created_at=moment, updated_at=moment)
        for author, coachee, answers, notes, when in DIAGNOSES:
            knows_how, believes, has_framework, has_system = answers
            diagnosis = diagnosis_record(
                author=self.of(author),
                coachee=self.of(coachee),
                knows_how=knows_how,
                believes=believes,
                has_framework=has_framework,
                has_system=has_system,
                notes=notes,
            )
            moment = self.at(self.of(author).time_zone, when)
            Diagnosis.objects.filter(pk=diagnosis.pk).update(created_at=moment)
        modules = list(PlaybookModule.objects.filter(name__in=PLAYBOOKS, is_active=True))
        for name, lead in TEAMS.items():
            team_playbooks_set(team=self.teams[name], actor=self.of(lead.key), modules=modules)


# --- Entry point -------------------------------------------------------------------------


def _count(rows, field_name: str) -> dict[str, int]:
    return dict(rows.order_by().values_list(field_name).annotate(n=Count("pk")))


def peers_summary(people: dict[str, User]) -> list[str]:
    pks = [u.pk for u in people.values()]
    pairs = PeerPair.objects.filter(created_by__in=pks)
    statuses = Counter(p.status for p in pairs)
    trios = pairs.annotate(n=Count("members")).filter(n=3).count()
    experiments = Experiment.objects.filter(owner__in=pks)
    by_status = _count(experiments, "status")
    learnings = Learning.objects.filter(author__in=pks)
    audiences = _count(learnings, "audience")
    tags = learnings.values("tags").exclude(tags=None).distinct().count()
    teams = Team.objects.filter(name__in=TEAMS, playbook_modules__isnull=False).distinct()
    return [
        f"  peer pairs: {pairs.count()} (active {statuses['active']}, forming "
        f"{statuses['forming']}, ended {statuses['ended']}; {trios} trio{'s' * (trios != 1)}), "
        f"{Habit.objects.filter(pair__in=pairs).count()} habits, "
        f"{HabitCheckIn.objects.filter(habit__pair__in=pairs).count()} check-ins, "
        f"{PairNote.objects.filter(pair__in=pairs).count()} private notes",
        f"  experiments: {experiments.count()} ("
        + ", ".join(f"{s.label.lower()} {by_status.get(s.value, 0)}" for s in ExperimentStatus)
        + ")",
        f"  library: {learnings.count()} learnings ({audiences.get(ORG, 0)} for everyone, "
        f"{audiences.get(TEAM, 0)} for a team), {tags} tags",
        f"  diagnoses: {Diagnosis.objects.filter(author__in=pks).count()}; playbook modules "
        f"picked by {teams.count()} teams; "
        f"{PeerRequest.objects.filter(person__in=pks).count()} people asking for a peer",
    ]


def seed_peers(people: dict[str, User] | None = None, *, rng_seed: int = 2026) -> list[str]:
    """Pairs, experiments, the library, diagnoses and playbook picks on top of the
    coaching history, unless a demo person already formed a pair. Returns the lines to
    print either way."""
    people = people or _demo_people()
    if PeerPair.objects.filter(created_by__in=people.values()).exists():
        return [
            "Peer pairs and the library already present — left as they are.",
            *peers_summary(people),
        ]
    if not FocusArea.objects.filter(name=DISCOVERY).exists():
        return ["No coaching history to build on — peer pairs and the library skipped."]
    seed_programme_content(django_apps)  # the agreement, prompts and playbooks (migration 0007)
    with transaction.atomic():
        _Builder(people, now=timezone.now(), rng=random.Random(rng_seed)).build()
    return [
        "Peer coaching written: pairs, experiments in every state, the learnings library.",
        *peers_summary(people),
    ]
