"""A quarter of coaching history for the demo organisation, so every page looks like a
programme that has been running for twelve weeks.

What it tells, relative to today:
- Sofia Alvarez's Enterprise East is healthy: nearly every weekly 1:1 held.
- Marcus Chen's Mid-Market Central is slipping: over the last four weeks the forecast
  call eats his 1:1s, a few are simply missed — Sam Carter's three weeks running — and
  open commitments go overdue.
- Lena Fischer's EMEA Growth had a rough month (weeks 5–8: customer escalations) and
  has been steady since, with a team-scoped multi-threading focus area.
- Team call reviews, monthly role-plays on the focus area, peer coaching pairs, and
  Daniel Mensah's monthly manager reviews with each of his managers, beside his weekly
  1:1 with each of them (their goal as a manager, their team's numbers as Reality).

Everything is written through `coaching.services`, as a person would, except what no
service can express for history:

- The services check against the wall clock — a session starts at most 60 days ago,
  a commitment is not due in the past — which is right for people and wrong for a
  quarter of history. So every session is created `SERVICE_SHIFT` (13 weeks) later
  than it really happened, run through the services in that frame (creation order
  and relative times are unchanged, so carried goals, "held but empty" and host
  rotation come out exactly as they would have), and then moved back to its real
  time with one `.update()`. Timestamps the services stamp with "now" (created,
  cancelled, closed, saved, prepared) are backdated the same way.
- `status=missed`/`missed_at` are set directly on the sessions the story has missed:
  the sweep (`cadence.engine.sweep_missed`) would mark every unlogged past session,
  including the ones the story leaves "still to log", and stamp them today.
- Focus areas are written as rows, backdated: programme admins make them in the
  admin site or through the API, both of which stamp "now".

Idempotent: if any session created by a demo manager exists, nothing is written.
Deterministic for a given `rng_seed` and day."""

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import Count, Q
from django.db.models.query import prefetch_related_objects
from django.utils import timezone

from coaching.models import (
    AgendaItem,
    CancelReason,
    CoachingSession,
    Commitment,
    CommitmentStatus,
    FocusArea,
    Goal,
    GoalStatus,
    NotesRevision,
    ParticipantRole,
    PrivateNote,
    SessionChange,
    SessionChangeKind,
    SessionKind,
    SessionParticipant,
    SessionStatus,
    SharedNotes,
)
from coaching.services import (
    agenda_item_add,
    commitment_close,
    commitment_create,
    goal_create,
    manager_review_create,
    next_host,
    notes_save,
    one_on_one_create,
    peer_session_create,
    private_note_save,
    role_play_create,
    session_cancel,
    session_mark_held,
    session_reschedule,
    team_call_review_create,
)
from devdata.demo.people import HEAD, REPS, TEAMS, _key, demo_email, demo_people
from people.models import Team, User
from scorecards.models import RecordedCall
from scorecards.services import recorded_call_create

# Sessions go through the services this much later than they happened (see above).
# Whole weeks, and more than the 12 weeks of history, so the oldest commitment's due
# date still lies ahead in the services' frame.
SERVICE_SHIFT = timedelta(weeks=13)
WEEKS = 12

EAST, CENTRAL, EMEA = "Enterprise East", "Mid-Market Central", "EMEA Growth"
HELD, EMPTY, MISSED = "held", "empty", "missed"
FORECAST = CancelReason.FORECAST_CALL.value

# --- Content ---------------------------------------------------------------------------

ACCOUNTS = {
    EAST: [
        "Northwind Traders",
        "Halcyon Health",
        "Pinecrest Insurance",
        "Kestrel Bank",
        "Alder & Finch",
        "Harbor Point Capital",
        "Summit Ridge Energy",
        "Beacon Hill Labs",
        "Tessellate Software",
        "Crescent Pharma",
    ],
    CENTRAL: [
        "Brightwave Logistics",
        "Corvid Analytics",
        "Lumen Retail",
        "Prairie Foods",
        "Meridian Freight",
        "Ironwood Manufacturing",
        "Lakeshore Dental Group",
        "Juniper Schools",
        "Redline Auto Parts",
        "Quarry Labs",
    ],
    EMEA: [
        "Hanse Logistik",
        "Maison Verte",
        "Nordlys Energi",
        "Castellana Seguros",
        "Atlas Mobility",
        "Rheinland Medtech",
        "Baltic Freight",
        "Milano Design Co",
        "Vistula Bank",
        "Fjord Analytics",
    ],
}


@dataclass(frozen=True)
class Theme:
    calls: tuple[str, ...]
    goals: tuple[str, ...]
    sideways: tuple[str, ...]
    happy: tuple[str, ...]
    options: tuple[str, ...]
    wills: tuple[str, ...]
    commitments: tuple[tuple[str, str], ...]


THEMES = {
    "discovery": Theme(
        calls=("discovery call", "first call"),
        goals=(
            "Ask before I pitch: three open questions before I show anything on a first call.",
            "Get customers talking more than me in discovery — under 40% talk time on my side.",
            "Find the business problem behind the feature request before I demo.",
        ),
        sideways=(
            "It went sideways at {ts} when they mentioned their current vendor and I went "
            "straight to our comparison slide. I never asked what wasn't working for them.",
            "At {ts} they said 'we just need better reporting' and I started the demo. I "
            "didn't ask who needs the reports or what they decide with them.",
            "I talked for most of the first fifteen minutes — listening back, my first real "
            "question was at {ts}.",
            "They gave me an opening at {ts} ('the team is drowning in spreadsheets') and I "
            "answered with a feature instead of asking what that costs them.",
        ),
        happy=(
            "Happy with the opening: I asked what prompted the call and then stayed quiet — "
            "they talked for four minutes.",
            "I did summarise their problem back in their words before the demo, and they "
            "corrected one detail, which was useful.",
            "I asked 'what happens if you do nothing this year?' and got the real deadline: "
            "their renewal in March.",
            "Good that I asked who else is involved; I have the ops lead's name now.",
        ),
        options=(
            "Write my three opening questions down before the call",
            "When they name a feature, ask 'what would that let you do?' before answering",
            "Hold the demo until I can say their problem back in one sentence",
            "Ask 'what have you tried already?' before anything about us",
            "Let the pause sit after a question — count to five",
            "Ask what happens if they do nothing this quarter",
        ),
        wills=(
            "Next two first calls: no screen share before I've asked three open questions. "
            "You'll see it in the recordings — first share after the ten-minute mark.",
            "On the {account} call I'll summarise their problem back before any demo, and "
            "I'll clip that moment for the team channel.",
            "Ask 'what would that let you do?' every time a feature comes up on my next two "
            "discovery calls.",
        ),
        commitments=(
            (
                "Ask three open questions before sharing my screen on my next two first calls",
                "Recordings show the first screen share after the third open question",
            ),
            (
                "Summarise the customer's problem in their words before any demo at {account}",
                "A clip of the summary moment posted in the team channel",
            ),
            (
                "Keep my talk time under 50% on the next {account} call",
                "Talk-time figure from the call recording",
            ),
            (
                "Ask 'what happens if you do nothing?' on every first call this week",
                "Timestamps of the question in two recordings",
            ),
        ),
    ),
    "multithreading": Theme(
        calls=("stakeholder call", "proposal review"),
        goals=(
            "Reach the economic buyer before the proposal stage on every deal over 50k.",
            "Have at least three engaged contacts on each of my top five deals.",
            "Stop relying on a single champion — a second thread on every late-stage deal.",
        ),
        sideways=(
            "At {ts} my champion said 'I'll take it to the CFO' and I just said great. I "
            "didn't ask what the CFO will care about or offer to help her present it.",
            "I realised at {ts} that everyone on the call reports to the same person and "
            "none of them signs.",
            "They mentioned the IT security review at {ts} and I didn't ask who runs it — "
            "that's the thread we lost the last deal on.",
            "When procurement joined at {ts} I went into defence mode instead of asking what "
            "their process looks like.",
        ),
        happy=(
            "I asked 'who else will be affected if this goes ahead?' and got two new names.",
            "Good that I asked my champion what she'd need to take this to her boss — she "
            "asked for a one-page business case.",
            "I mapped the buying group with them, out loud, and they corrected me on who signs.",
            "Happy that I proposed a separate 20 minutes with finance rather than waiting to "
            "be invited.",
        ),
        options=(
            "Ask my champion 'who would block this if they weren't consulted?'",
            "Offer to build the business case with the champion for the CFO",
            "Send the economic buyer a short note after the intro, not a deck",
            "Map the buying group with the customer on the call",
            "Ask for the finance contact as soon as timelines come up",
            "Bring my manager in to meet their VP, peer to peer",
        ),
        wills=(
            "On the {account} follow-up I'll ask my champion who signs and what they need to "
            "see. You'll know because the CRM will have the economic buyer named and a "
            "meeting requested.",
            "Next two late-stage deals: a second contact on the invite before the proposal "
            "goes out.",
            "I'll draft the one-page business case with my champion at {account} this week "
            "and ask her to walk it to the CFO with me.",
        ),
        commitments=(
            (
                "Get a meeting with the economic buyer at {account} before sending the proposal",
                "Meeting on the calendar with the economic buyer named in the CRM",
            ),
            (
                "Add a second engaged contact to each of my top three deals",
                "Three deals in the CRM with two or more contacts who replied this fortnight",
            ),
            (
                "Ask every champion 'who else needs to say yes?' on my next two calls",
                "The question at a timestamp in both recordings",
            ),
            (
                "Build the business case with the {account} champion",
                "Shared draft with her comments in it",
            ),
        ),
    ),
    "objections": Theme(
        calls=("follow-up call", "renewal call"),
        goals=(
            "Stay curious when I hear 'too expensive' — ask before I answer.",
            "Handle 'we already have a tool for that' without knocking the competitor.",
            "Answer objections with a question first, not a feature.",
        ),
        sideways=(
            "At {ts} they said 'this looks expensive' and I offered a discount in the same "
            "breath. I didn't ask expensive compared to what.",
            "'We're happy with what we have' came at {ts} and I went straight into our "
            "comparison — it felt like I was arguing with them.",
            "When they said the timing was bad at {ts} I accepted it and moved to next "
            "steps. I never found out what else is on their plate.",
            "I got defensive at {ts} when they raised last year's outage; I explained "
            "instead of acknowledging it.",
        ),
        happy=(
            "I did pause after the pushback and asked what was behind it — that got me the "
            "real concern, the migration effort.",
            "I acknowledged the concern before answering, which kept the tone calm.",
            "Good that I didn't discount — I asked what they were comparing us to.",
            "Happy with the recovery at the end: I summarised their two concerns and "
            "checked I had them right.",
        ),
        options=(
            "Ask 'compared to what?' when price comes up",
            "Acknowledge, then ask: 'That's fair — what's behind it?'",
            "Write a question for each of the three objections I hear most",
            "Let them finish the objection before I say anything",
            "Ask what would need to be true for the timing to work",
            "Answer with a customer story instead of a feature list",
        ),
        wills=(
            "Next two calls where price comes up: 'compared to what?' before any number "
            "moves. You'll hear it in the recordings.",
            "I'll practise acknowledge-then-ask in the role-play and use it on the {account} call.",
            "No discount on the {account} call — if they push, I'll ask what they're "
            "comparing us to.",
        ),
        commitments=(
            (
                "Ask 'compared to what?' before any discount conversation on my next two calls",
                "Two recordings with the question before price is discussed",
            ),
            (
                "Write a question for each of my three most common objections",
                "The list shared in our 1:1 notes",
            ),
            (
                "Hold price on the {account} renewal call",
                "Next step agreed without a discount on the opportunity",
            ),
            (
                "Acknowledge before answering every objection on the {account} follow-up",
                "Timestamps of two objections and how I responded",
            ),
        ),
    ),
    "pricing": Theme(
        calls=("pricing call", "commercial review"),
        goals=(
            "Anchor value before I show the number.",
            "Hold price through the first pushback — no discount on a first pricing call.",
            "Talk about price with confidence instead of apologising for it.",
        ),
        sideways=(
            "I showed the price at {ts} before we'd agreed what the problem costs them, so "
            "the number had nothing to stand next to.",
            "At {ts} I said 'I know it's a lot' — I apologised for the price before they'd "
            "said anything.",
            "They asked for a discount at {ts} and I said I'd check with my manager, which "
            "told them there was room.",
            "I rushed the pricing slide at {ts}; you can hear me speed up.",
        ),
        happy=(
            "Good that I recapped what the current process costs them before the pricing slide.",
            "I stayed quiet after saying the number and let them respond first.",
            "I traded instead of giving — longer term for a lower rate — and they took it "
            "seriously.",
            "Happy that I asked how they'd be judged on the project; the value part was easy "
            "after that.",
        ),
        options=(
            "Recap their cost of doing nothing right before the price",
            "Say the number and stop talking",
            "Prepare one trade (term, volume, case study) before the call",
            "Practise the pricing section out loud the day before",
            "Ask how they'll justify the spend internally",
            "Drop 'I know it's a lot' from my vocabulary",
        ),
        wills=(
            "On the {account} pricing call: recap their cost, say the number, then stop. "
            "You'll know because the recording has a silence after the price.",
            "Prepare one trade before every pricing call this week and write it at the top "
            "of my call notes.",
            "Run the pricing section out loud with a peer before the {account} call.",
        ),
        commitments=(
            (
                "Recap the customer's cost of the problem before showing price at {account}",
                "Recording shows the recap right before the pricing slide",
            ),
            (
                "Prepare one trade before each pricing call this week",
                "Trade written in the call notes of both calls",
            ),
            (
                "No discount offered on a first pricing call for two weeks",
                "Discount requests in the CRM for the period",
            ),
            (
                "Practise the pricing section out loud with a peer before the {account} call",
                "Peer session or role-play note",
            ),
        ),
    ),
    "next_steps": Theme(
        calls=("demo", "follow-up call"),
        goals=(
            "End every call with a dated next step the customer agreed to.",
            "Stop leaving calls on 'I'll send something over'.",
            "Get a mutual plan in place on every deal past the demo.",
        ),
        sideways=(
            "The call ended at {ts} with 'I'll send the deck over' — no date, no owner on "
            "their side.",
            "At {ts} they said 'let's reconnect in a couple of weeks' and I agreed instead of "
            "picking a date.",
            "I ran out of time — the last question was at {ts} and we never got to next steps.",
            "I proposed the next step at {ts} but didn't check it with the person who "
            "actually decides.",
        ),
        happy=(
            "I put the next meeting in their calendar before we hung up.",
            "Good that I left ten minutes for next steps this time.",
            "I asked 'what would you need to see to move forward?' and got a clear list.",
            "Happy that I summarised who does what by when at the end.",
        ),
        options=(
            "Leave the last ten minutes for next steps",
            "Book the next meeting while we're still on the call",
            "Ask 'what would you need to see to move forward?'",
            "Send a draft mutual plan within 24 hours",
            "Name an owner on their side for every step",
            "Ask what could get in the way of the date",
        ),
        wills=(
            "Every call this week ends with a date in their calendar. You'll see the invites "
            "go out during the calls.",
            "Send {account} a mutual plan within a day of the demo and ask their lead to "
            "correct it.",
            "Leave the last ten minutes of my next three calls for next steps.",
        ),
        commitments=(
            (
                "Book the next meeting before hanging up on every call this week",
                "Calendar invites sent during the call for each meeting",
            ),
            (
                "Send a mutual plan to {account} within 24 hours of the demo",
                "Plan shared and acknowledged by their lead",
            ),
            (
                "Leave the last ten minutes of my next three calls for next steps",
                "Recordings show next steps starting by minute 20",
            ),
            (
                "Name an owner on the customer's side for each next step at {account}",
                "Owners listed on the opportunity in the CRM",
            ),
        ),
    ),
    "listening": Theme(
        calls=("discovery call", "demo"),
        goals=(
            "Let silence sit after a hard question instead of filling it.",
            "Listen to understand, not to answer — summarise before I respond.",
            "Follow what they say instead of jumping to my next question.",
        ),
        sideways=(
            "At {ts} I asked a good question and then answered it myself before they could.",
            "I interrupted twice around {ts} just as they were getting to the real issue.",
            "They mentioned a re-org in their team at {ts} and I moved on to my next "
            "scripted question.",
            "Listening back, I filled every pause — the longest silence, around {ts}, was "
            "two seconds.",
        ),
        happy=(
            "I let a silence run after the budget question and they told me the real number.",
            "I summarised before answering and they said 'exactly'.",
            "I followed the thread about their re-org instead of my script, and it turned "
            "out to be the whole story.",
            "Happy that I took notes instead of preparing my answer.",
        ),
        options=(
            "Count to five after a question",
            "Summarise before answering",
            "Ask 'tell me more about that' once per call",
            "Mute myself while they answer on video calls",
            "Keep the script to three questions and follow the rest",
            "Write down their words, not my responses",
        ),
        wills=(
            "'Tell me more about that' at least once on each of my next three calls — "
            "you'll find it in the recordings.",
            "On the {account} call I'll summarise before I answer anything.",
            "Count to five after my key question on the next two calls.",
        ),
        commitments=(
            (
                "Ask 'tell me more about that' at least once on each of my next three calls",
                "Timestamps of the follow-up in the recordings",
            ),
            (
                "Summarise before responding on the {account} call",
                "Two summaries in the recording, before my answers",
            ),
            (
                "Let a five-second silence run after my key question on the next two calls",
                "The silence at a timestamp in both recordings",
            ),
            (
                "Keep my script to three questions on the {account} call",
                "Call notes with three prepared questions and the follow-ups I asked",
            ),
        ),
    ),
}

COACH_SHARED_NOTES = (
    "Replayed {ts} together. {first} tried the reframe on me twice; the second attempt "
    "felt natural.",
    "Practised the opening live: I played their ops director, {first} ran the first five "
    "minutes twice.",
    "Agreed to bring the {account} recording to the next team call review.",
    "{first} spotted the pattern before I said anything: third call in a row where price "
    "came up before the pain.",
    "We listened to two minutes from {ts} with the sound only — {first} heard the "
    "interruption straight away.",
)

COACH_PRIVATE_NOTES = (
    "Seems stretched after the reorg — ask about workload first.",
    "Third week running the {account} deal comes up. Name the pattern, don't solve it for {first}.",
    "{first} self-assesses harder than I would. Start with what went well next time.",
    "Asked twice for 'the pricing deck'. Practise it live instead of sending slides.",
    "Quiet today. Check in on how the move is going before we get to the call.",
    "Don't bring up the promotion round unless {first} does.",
    "I talked too much in this one. Next time: ask, then wait.",
    "{first} wants more stretch — consider handing over the {account} expansion.",
    "Mentioned the commute twice. Ask whether this slot still works.",
    "Good energy. Ask {first} to present at the next call review.",
    "Commitments land when they're about one call, not 'every call'. Keep them small.",
    "Worried about the quarter. Keep the 1:1 developmental — forecast questions belong "
    "in the pipeline review.",
    "{first} brought the recording without being asked. Say so next time.",
    "Felt like a status update. Bring it back to one call.",
)

COACH_AGENDA = (
    "How is the territory split landing?",
    "Career conversation: where do you want to be in a year?",
    "Bring a call you're proud of this time",
)

DROP_REASONS = (
    "Deal went closed-lost before the next call — nothing to practise it on.",
    "Customer moved the meeting into next quarter.",
    "Replaced by a smaller commitment: one call, not every call.",
    "The account moved to another rep in the territory split.",
    "Wrong experiment — the blocker turned out to be legal, not the champion.",
)

CANCEL_NOTES = {
    FORECAST: (
        "Forecast call with Daniel moved into this slot.",
        "Quarter-end commit call.",
        "Pipeline review ran over.",
        "",
    ),
    CancelReason.CUSTOMER_ESCALATION.value: ("{account} escalation call.", ""),
    CancelReason.TRAVEL.value: ("On site at {account}.", "Flying back from the customer."),
    CancelReason.OUT_OF_OFFICE.value: ("", "Public holiday."),
    CancelReason.SICK.value: ("",),
    CancelReason.CLASHING_MEETING.value: ("QBR prep with marketing.", "Hiring panel."),
}

CALL_MOMENTS = (
    "first open question",
    "customer describes the current process",
    "budget comes up",
    "pricing question — pitch starts",
    "competitor mentioned",
    "silence after the price",
    "champion names the CFO",
    "next steps",
)

PEER_REMARKS = (
    "would have asked what the current process costs them before the demo.",
    "noticed the first open question only came at {ts}.",
    "liked the recap at the end and wants to steal the wording.",
    "would have stopped at the budget comment and asked who owns it.",
    "spotted that their ops lead went quiet after the pricing slide.",
    "would have booked the next meeting before hanging up.",
    "thought the opening was strong: one question, then silence.",
)

LEAD_REMARKS = (
    "the pattern across the last three reviews is that we demo before we know the pain.",
    "great self-assessment — try the pause on your next two first calls.",
    "we keep hearing 'I'll send something over'; let's make that next week's theme.",
    "nothing to add; the peers said it.",
)


@dataclass(frozen=True)
class RolePlay:
    scenario: str
    drills: str
    notes: str


ROLE_PLAYS = {
    "discovery": (
        RolePlay(
            scenario="A first call with the operations director at {account}. She asked for "
            "'a quick demo of the reporting'. Don't share your screen until you know what's "
            "behind the request: who needs the reports, what they decide with them, and "
            "what happens if nothing changes.",
            drills="Three open questions before any product talk — five minutes each, swap roles\n"
            "'Can you just show me the product?' — redirect with a question, not a refusal\n"
            "Summarise the pain back in their words; the buyer scores it 1–5",
            notes="Round one: most of us reached for the product by minute four. Round two "
            "was much better — {a} held out for nine minutes and got the renewal date. "
            "The redirect drill was the hardest; {b}'s 'Happy to — so I show you the right "
            "part, what made you ask?' is the line to steal. Everyone brings one first-call "
            "recording to their 1:1 this month.",
        ),
        RolePlay(
            scenario="An inbound lead from {account} opens with 'What does it cost?' before "
            "you've said hello. Give a range honestly, then earn the right to ask about "
            "their situation.",
            drills="Answer the price question in one sentence, then ask one open question\n"
            "Find the cost of doing nothing in under five minutes\n"
            "Buyer goes quiet — let the silence run",
            notes="{a} gave the range and asked 'what's prompting the question now?' in one "
            "breath — best answer of the day. The silence drill made everyone laugh and "
            "then it worked. {b} wants to run the cost-of-doing-nothing drill again next "
            "month.",
        ),
    ),
    "multithreading": (
        RolePlay(
            scenario="Your champion at {account} loves the product but says 'leave the CFO to "
            "me'. Get a meeting with the economic buyer without going around her.",
            drills="Ask the champion what the CFO will need to see\n"
            "Offer to build the business case together\n"
            "Handle 'he doesn't take vendor meetings'",
            notes="The first instinct was to push for the meeting; the better runs asked the "
            "champion what a win looks like for her boss. {a} offered to draft the one-page "
            "business case together and got the intro. {b} will try it on a live deal this "
            "week.",
        ),
    ),
}

PEER_NOTES = (
    "Experiment this week: {a_first} runs the first five minutes of every discovery call "
    "without slides. What we're testing: whether customers open up sooner. Evidence: "
    "minute of the first screen share in three recordings.",
    "Reflection on last week's experiment: pausing after the price worked twice out of "
    "three. The third time the buyer filled the silence with a new objection — worth "
    "bringing to the call review.",
    "We swapped one recording each and wrote down observations only, no advice. Hardest "
    "part: not saying 'you should'.",
    "Next small experiment: ask 'who else needs to say yes?' on every call this week and "
    "count how many new names it brings.",
)

# Status of each rep's 1:1 per stretch of weeks, as exact counts per team so the story
# holds on any day: (first week, last week) -> {outcome: count}. Weeks run 1..12, 12
# being the most recent. An outcome is held, held-but-empty, missed or a cancel reason.
OUTCOME_POOLS = {
    EAST: [
        (
            (1, 12),
            {
                HELD: 89,
                EMPTY: 2,
                "out_of_office": 1,
                "travel": 1,
                "sick": 1,
                "customer_escalation": 1,
                MISSED: 1,
            },
        ),
    ],
    CENTRAL: [
        (
            (1, 8),
            {
                HELD: 56,
                EMPTY: 2,
                FORECAST: 2,
                "out_of_office": 1,
                "sick": 1,
                "clashing_meeting": 1,
                MISSED: 1,
            },
        ),
        ((9, 9), {HELD: 5, FORECAST: 2, MISSED: 1}),
        ((10, 10), {HELD: 3, EMPTY: 1, FORECAST: 3, MISSED: 1}),
        ((11, 11), {HELD: 2, EMPTY: 1, FORECAST: 3, "customer_escalation": 1, MISSED: 1}),
        ((12, 12), {HELD: 1, EMPTY: 1, FORECAST: 3, "clashing_meeting": 1, "travel": 1, MISSED: 1}),
    ],
    EMEA: [
        ((1, 4), {HELD: 29, EMPTY: 1, "travel": 1, MISSED: 1}),
        (
            (5, 8),
            {
                HELD: 14,
                EMPTY: 3,
                "customer_escalation": 5,
                FORECAST: 3,
                "clashing_meeting": 2,
                MISSED: 5,
            },
        ),
        ((9, 12), {HELD: 30, EMPTY: 1, "out_of_office": 1}),
    ],
}
FIRST_THEMES = ["objections", "pricing", "next_steps", "listening", "discovery"]
# Share of held 1:1s the coachee prepared for; coachees ready for next week's 1:1.
PREP_RATE = {EAST: 0.65, CENTRAL: 0.45, EMEA: 0.55}
PREPARED_NEXT = {EAST: 6, CENTRAL: 2, EMEA: 5}
# What becomes of a commitment (done, dropped, left open), by team: a healthy team
# closes its loops; a slipping one leaves them open past their due date.
COMMITMENT_FATES = {EAST: (80, 12, 8), CENTRAL: (62, 10, 28), EMEA: (70, 14, 16)}
# The option a presenter picks after their call is dissected, by kind of call.
CALL_KIND_THEME = {
    "Discovery": "discovery",
    "Pricing": "pricing",
    "Demo": "next_steps",
    "Stakeholder call": "multithreading",
}
# Weekly 1:1 slots (weekday, hour, minute) in the manager's time zone, one per rep.
SLOTS = [(0, 10, 0), (0, 14, 30), (1, 9, 30), (1, 11, 0), (2, 10, 0), (2, 15, 0), (3, 9, 30)]
SLOTS.append((3, 13, 30))
# Sam Carter's Tuesday 1:1 with Marcus, missed every week from week 10 on.
STUCK_SLOT, STUCK_FROM_WEEK = 2, 10
# Team-level sessions: (weekday, hour, minute) in the lead's time zone, and weeks.
CALL_REVIEW_SLOT = {EAST: (3, 16, 0), CENTRAL: (3, 15, 0), EMEA: (3, 14, 0)}
CALL_REVIEW_WEEKS = (2, 5, 8, 11)
CALL_REVIEWS_CANCELLED = {(CENTRAL, 11): FORECAST, (EMEA, 5): "customer_escalation"}
ROLE_PLAY_SLOT = (2, 15, 30)
ROLE_PLAY_WEEKS = (6, 10)
# Daniel's monthly reviews, Mondays in his time zone (Lena's is her afternoon).
MANAGER_REVIEW_SLOT = {EAST: (14, 0), CENTRAL: (15, 30), EMEA: (9, 30)}
MANAGER_REVIEW_WEEKS = (4, 8, 12)
NEXT_MANAGER_REVIEW_WEEK = 16
# Which of the three reviews ends with a commitment for the manager.
MANAGER_COMMITMENT_REVIEW = {EAST: 1, CENTRAL: 2, EMEA: 1}
MANAGER_COMMITMENTS = {
    EAST: (
        "Let a rep host the next two call reviews and speak last",
        "Hosts named on the next two reviews; my first comment after every peer",
    ),
    CENTRAL: (
        "Move forecast prep so it never overlaps a 1:1 slot",
        "No 1:1 cancelled for the forecast call in the next four weeks",
    ),
    EMEA: (
        "Delegate the escalation stand-up to Oliver so the 1:1 slots stay free",
        "Every 1:1 held until month end",
    ),
}
# Daniel's weekly 1:1 with each of his managers (weekday, hour, minute in his time zone:
# Tuesdays, clear of their own reps' slots), which weeks went, and what they talk about:
# their own goal as a manager, their team's numbers as Reality.
HEAD_ONE_ON_ONE_SLOT = {EAST: (1, 16, 0), CENTRAL: (1, 17, 0), EMEA: (1, 10, 0)}
HEAD_ONE_ON_ONES_CANCELLED = {(EAST, 6): "travel", (CENTRAL, 11): FORECAST}
HEAD_PREP_RATE = {EAST: 0.7, CENTRAL: 0.3, EMEA: 0.6}
HEAD_GOALS = {  # (from week, the manager's goal)
    EAST: (
        (1, "Hand the team call review over to the reps"),
        (7, "Be ready to coach a new manager next quarter"),
    ),
    CENTRAL: (
        (1, "Wait for the rep's second idea before offering mine"),
        (8, "Keep every 1:1 through the forecast crunch"),
    ),
    EMEA: (
        (1, "Keep the 1:1s going through the escalations"),
        (8, "Make multi-threading a habit: every rep names the economic buyer"),
    ),
}
HEAD_REALITIES = {
    EAST: (
        "Kwame hosted Thursday's call review; I still spoke second.",
        "Two reps brought recordings to their 1:1 without being asked.",
        "Listened back to my 1:1 with Aisha: I asked before telling until the last five "
        "minutes, then gave her the answer.",
        "The reps score each other's calls within a point of my scores now.",
        "Diego asked to lead a role-play. I said yes before thinking about who coaches him.",
    ),
    CENTRAL: (
        "The forecast prep landed on Thursday afternoon again and ate two 1:1 slots.",
        "In Sam's 1:1 I had the fix out before he finished describing the call.",
        "Tried counting to five after asking for options; Nina came up with a second one.",
        "Three reps haven't prepared their Reality this month; the 1:1s start cold.",
        "Piloted the scorecard in Thursday's call review; the reps argued about criterion "
        "two, which was the point.",
    ),
    EMEA: (
        "Castellana escalated again on Monday; I was on calls with their legal team all week.",
        "Oliver ran the escalation stand-up on his own for the first time.",
        "Jonas named the economic buyer on Hanse without being asked.",
        "The 1:1s held all week; two reps brought the same stalled deal.",
        "Camille asked for a role-play on getting past the champion.",
    ),
}
HEAD_OPTIONS = {
    EAST: (
        "Let a rep host and speak last myself",
        "Ask the presenter for their own one thing before anyone else speaks",
        "Pair Diego with Kwame to prepare the role-play",
        "Listen back to one of my 1:1s a week",
        "Write down the question I asked before every answer I gave",
    ),
    CENTRAL: (
        "Move the forecast prep to Monday morning",
        "Ask 'what else?' twice before offering anything",
        "Start the 1:1 with the rep's Reality, not mine",
        "Put the scorecard on the screen during call reviews",
        "Block the 1:1 slots as busy in the forecast calendar",
    ),
    EMEA: (
        "Hand the escalation stand-up to Oliver for good",
        "Keep the 1:1 slots even on escalation days, shorter if needed",
        "Ask every rep who else needs to say yes, on one deal each 1:1",
        "Run next month's role-play on reaching the economic buyer",
        "Share one good multi-threading call clip a week",
    ),
}
HEAD_WILLS = {
    EAST: (
        "Sofia lets a rep host Thursday's review and speaks last.",
        "Sofia listens back to one 1:1 this week and counts her questions.",
        "Sofia asks Diego and Kwame to prepare the role-play together.",
    ),
    CENTRAL: (
        "Marcus moves the forecast prep to Monday morning and keeps Thursday's 1:1s.",
        "Marcus asks 'what else?' twice in every 1:1 this week before giving an idea.",
        "Marcus asks each rep to write their Reality before the 1:1.",
    ),
    EMEA: (
        "Lena leaves the escalation stand-up to Oliver this week.",
        "Lena asks 'who else needs to say yes?' in every 1:1 this week.",
        "Lena picks a multi-threading call for Thursday's review.",
    ),
}
PEER_PAIRS = [
    ("aisha.bello", "kwame.asante", "America/New_York", (4, 12, 0), (2, 4, 6, 8, 10, 12)),
    ("jonas.weber", "camille.dubois", "Europe/Berlin", (4, 11, 0), (7, 9, 11)),
    ("grace.liu", "nina.petrova", "America/Chicago", (4, 13, 0), (5, 8, 11)),
]
PEER_CANCELLED = {("jonas.weber", 9): "clashing_meeting"}


# --- Building ---------------------------------------------------------------------------


@dataclass
class Pending:
    commitment: Commitment
    fate: str  # open, done, dropped
    due_on: date


@dataclass
class RepState:
    person: User
    coach: User
    team: str
    themes: list[tuple[int, str, str]]  # (from week, theme, goal text)
    goal_written: str = ""
    pending: list[Pending] = field(default_factory=list)

    def theme_for(self, week: int) -> tuple[str, str]:
        current = self.themes[0]
        for item in self.themes:
            if item[0] <= week:
                current = item
        return current[1], current[2]


@dataclass
class Plan1on1:
    rep: RepState
    week: int  # 1..12 history, 13 the next one
    start: datetime
    outcome: str  # HELD, EMPTY, MISSED, a cancel reason, or "scheduled"


@dataclass
class SeedResult:
    created: bool
    sessions_by_status: dict[str, int]
    sessions_by_kind: dict[str, int]
    commitments_by_status: dict[str, int]
    overdue_commitments: int
    private_notes: int

    def lines(self) -> list[str]:
        total = sum(self.sessions_by_status.values())
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(self.sessions_by_status.items()))
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.sessions_by_kind.items()))
        made = sum(self.commitments_by_status.values())
        states = ", ".join(f"{k} {v}" for k, v in sorted(self.commitments_by_status.items()))
        return [
            f"  sessions: {total} ({statuses})",
            f"  by kind: {kinds}",
            f"  commitments: {made} ({states}; {self.overdue_commitments} overdue)",
            f"  private notes: {self.private_notes}",
        ]


def _at(tz: str, day: date, hour: int, minute: int) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=ZoneInfo(tz))


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-").replace("--", "-")


def last_held_end(coachee: User, *, before: datetime, coach: User | None = None):
    """When the coachee's last held 1:1 (with `coach`, or anyone) that ended before
    `before` ended; None if there is none (the feedback demo asks too)."""
    held = CoachingSession.objects.filter(
        kind=SessionKind.ONE_ON_ONE,
        status=SessionStatus.HELD,
        scheduled_end__lt=before,
        participants__person=coachee,
        participants__role=ParticipantRole.COACHEE,
    )
    if coach is not None:
        held = held.filter(participants__person=coach, participants__role=ParticipantRole.COACH)
    return held.order_by("-scheduled_start").values_list("scheduled_end", flat=True).first()


class _Builder:
    def __init__(self, people: dict[str, User], *, story_now: datetime, rng: random.Random):
        self.people = people
        self.rng = rng
        self.now = story_now
        # Service frame = story + shift. `offset` alone moves the story's "now" onto the
        # wall clock (zero unless a different `today` was asked for).
        self.offset = timezone.now() - story_now
        self.shift = self.offset + SERVICE_SHIFT
        self.head = people[HEAD.key]
        self.teams = {name: Team.objects.get(name__iexact=name) for name in TEAMS}
        self.leads = {name: people[spec.key] for name, spec in TEAMS.items()}
        self.reps: dict[str, list[RepState]] = {}
        self.plans: list[Plan1on1] = []

    # Times ----------------------------------------------------------------------------

    def svc(self, moment: datetime) -> datetime:
        return moment + self.shift

    def team_week_day(self, tz: str, week: int, weekday: int) -> date:
        """Week 12 is last week, 13 this week, 14 next week."""
        this_monday = _monday(self.now.astimezone(ZoneInfo(tz)).date())
        return this_monday + timedelta(weeks=week - 13, days=weekday)

    def ts(self, low: int = 2, high: int = 34) -> str:
        return f"{self.rng.randint(low, high):02d}:{self.rng.randrange(0, 60, 5):02d}"

    def before(self, moment: datetime, low_minutes: int, high_minutes: int) -> datetime:
        return moment - timedelta(minutes=self.rng.randint(low_minutes, high_minutes))

    def workday_before(self, moment: datetime, low: int, high: int) -> date:
        day = moment.date() - timedelta(days=self.rng.randint(low, high))
        while day.weekday() >= 5:
            day -= timedelta(days=1)
        return day

    def prepared_at(self, start: datetime, tz: str) -> datetime:
        """When a coachee writes up before a 1:1: the afternoon of the working day
        before, or early on the day if the 1:1 is late enough."""
        local = start.astimezone(ZoneInfo(tz))
        if local.hour >= 11 and self.rng.random() < 0.4:
            return local.replace(hour=8, minute=self.rng.randrange(0, 60, 5))
        day = self.workday_before(local, 1, 1)
        return _at(tz, day, self.rng.randint(15, 17), self.rng.randrange(0, 60, 5))

    def history_and_next(self, moments: list[datetime]) -> list[datetime]:
        """Of a weekly slot's moments, the last WEEKS that are over and the next one
        (perhaps under way: within 45 minutes of its start)."""
        past = [m for m in moments if m + timedelta(minutes=45) <= self.now]
        future = [m for m in moments if m + timedelta(minutes=45) > self.now]
        return past[-WEEKS:] + future[:1]

    def capped(self, moment: datetime) -> datetime:
        return min(moment, self.now - timedelta(minutes=5))

    # Fixing up what the services stamped with "now" -------------------------------------

    def backdate_notes(self, notes: SharedNotes, at: datetime, prepared: bool = False) -> None:
        extra = {"coachee_prepared_at": at} if prepared else {}
        SharedNotes.objects.filter(pk=notes.pk).update(updated_at=at, **extra)
        NotesRevision.objects.filter(notes=notes, version=notes.version).update(saved_at=at)

    def backdate_session(self, session, start, *, original=None, created_at=None, **fields):
        CoachingSession.objects.filter(pk=session.pk).update(
            scheduled_start=start,
            scheduled_end=start + timedelta(minutes=session.duration_minutes),
            original_start=original or start,
            created_at=self.capped(created_at or start - timedelta(days=7)),
            **fields,
        )
        session.participants.update(scheduled_start=start)

    def hold(self, session, actor, start, held_at, **backdate) -> None:
        """Move a session back to when it happened, then log it held: the services log
        only a session that has started, and the services' frame is 13 weeks ahead."""
        self.backdate_session(session, start, **backdate)
        session_mark_held(session=session, actor=actor, held_at=held_at + self.offset)
        if self.offset:
            CoachingSession.objects.filter(pk=session.pk).update(held_at=held_at)

    # Planning -------------------------------------------------------------------------

    def focus_areas(self) -> None:
        lead_tz = self.head.time_zone
        discovery_from = self.team_week_day(lead_tz, 2, 0)
        self.objections = FocusArea.objects.create(
            name="Objection handling",
            behaviours="Acknowledge the concern before answering it\n"
            "Ask what is behind the objection before responding\n"
            "Answer with a customer story, not a feature list",
            starts_on=discovery_from - timedelta(weeks=13),
            ends_on=discovery_from - timedelta(days=1),
            created_at=_at(lead_tz, discovery_from - timedelta(weeks=14), 9, 0),
        )
        self.discovery = FocusArea.objects.create(
            name="Discovery: ask before you pitch",
            behaviours="Ask at least three open questions before showing the product\n"
            "Summarise the customer's problem in their words before proposing anything\n"
            "Find out what happens if they do nothing",
            starts_on=discovery_from,
            created_at=_at(lead_tz, discovery_from - timedelta(days=4), 11, 0),
        )
        multithreading_from = self.team_week_day(self.leads[EMEA].time_zone, 8, 0)
        self.multithreading = FocusArea.objects.create(
            name="Multi-threading: reach the economic buyer",
            behaviours="Name the economic buyer on every deal over 50k\n"
            "Ask the champion who else needs to say yes\n"
            "Get a second engaged contact before the proposal goes out",
            starts_on=multithreading_from,
            created_at=_at(
                self.leads[EMEA].time_zone, multithreading_from - timedelta(days=3), 10, 0
            ),
        )
        self.multithreading.teams.set([self.teams[EMEA]])

    def focus_for(self, theme: str, team: str, day: date) -> FocusArea | None:
        area = {
            "discovery": self.discovery,
            "objections": self.objections,
            "multithreading": self.multithreading if team == EMEA else None,
        }.get(theme)
        if area is None or day < area.starts_on or (area.ends_on and day > area.ends_on):
            return None
        return area

    def plan_reps(self) -> None:
        rng = self.rng
        for team, lead_spec in TEAMS.items():
            coach = self.people[lead_spec.key]
            states = []
            for name, _tz in REPS[team]:
                first = rng.choice(FIRST_THEMES)
                second = (
                    "discovery" if first != "discovery" else rng.choice(["listening", "next_steps"])
                )
                themes = [(1, first), (rng.choice([3, 4, 5, 6]), second)]
                if team == EMEA and rng.random() < 0.7:
                    themes.append((rng.choice([8, 9, 10]), "multithreading"))
                elif rng.random() < 0.3:
                    themes.append((rng.choice([9, 10]), rng.choice(["pricing", "next_steps"])))
                states.append(
                    RepState(
                        person=self.people[_key(name)],
                        coach=coach,
                        team=team,
                        themes=[(w, t, rng.choice(THEMES[t].goals)) for w, t in themes],
                    )
                )
            self.reps[team] = states

            # Each rep's slot, the last 12 occurrences in the past and the next one.
            tz = coach.time_zone
            this_monday = _monday(self.now.astimezone(ZoneInfo(tz)).date())
            starts: dict[int, list[datetime]] = {}
            for index, (weekday, hour, minute) in enumerate(SLOTS):
                days = [this_monday + timedelta(weeks=k, days=weekday) for k in range(-14, 2)]
                starts[index] = self.history_and_next([_at(tz, day, hour, minute) for day in days])

            outcomes: dict[tuple[int, int], str] = {}
            for (first_week, last_week), counts in OUTCOME_POOLS[team]:
                pool = [outcome for outcome, n in counts.items() for _ in range(n)]
                rng.shuffle(pool)
                slots = [(i, w) for w in range(first_week, last_week + 1) for i in range(8)]
                assert len(pool) == len(slots), (team, first_week)
                if team == CENTRAL and first_week >= 9:
                    # The forecast call lands late in Marcus's week: it eats those slots.
                    slots.sort(key=lambda s: (-SLOTS[s[0]][0], rng.random()))
                    pool.sort(key=lambda o: o != FORECAST)
                if team == CENTRAL and first_week >= STUCK_FROM_WEEK:
                    # One rep's 1:1 is simply missed, week after week: a run of misses
                    # that escalates and shows in "Needs attention".
                    missed, stuck = pool.index(MISSED), slots.index((STUCK_SLOT, first_week))
                    pool[missed], pool[stuck] = pool[stuck], pool[missed]
                outcomes.update(zip(slots, pool, strict=True))

            for index, state in enumerate(states):
                for week, start in enumerate(starts[index], start=1):
                    outcome = outcomes.get((index, week), "scheduled")
                    self.plans.append(Plan1on1(state, week, start, outcome))

    # 1:1s ------------------------------------------------------------------------------

    def _load(self, session: CoachingSession) -> CoachingSession:
        prefetch_related_objects([session], "participants")
        return session

    def run_one_on_one(self, plan: Plan1on1) -> None:
        rng, rep = self.rng, plan.rep
        coach, coachee = rep.coach, rep.person
        theme_key, goal = rep.theme_for(plan.week)
        theme = THEMES[theme_key]
        account = rng.choice(ACCOUNTS[rep.team])
        start = plan.start
        session = self._load(
            one_on_one_create(
                coach=coach,
                coachee=coachee,
                start=self.svc(start),
                focus_area=self.focus_for(theme_key, rep.team, start.date()),
            )
        )
        version = 0
        original = None
        if plan.outcome in (HELD, EMPTY) and rng.random() < 0.05:
            moved = start + timedelta(days=1)
            if moved + timedelta(hours=1) < self.now:
                session_reschedule(session=session, actor=coach, start=self.svc(moved))
                original, start = start, moved

        if plan.outcome == "scheduled":
            self.prepare_next(plan, session, theme, goal, account)
            self.backdate_session(session, start)
            return

        call = rng.choice(theme.calls)
        call_day = self.workday_before(start, 1, 4).strftime("%A")
        reality = (
            f"Pulled up the {account} {call} from {call_day}. "
            f"{rng.choice(theme.sideways).format(ts=self.ts())} {rng.choice(theme.happy)}"
        )
        evidence_url = (
            f"https://calls.example.com/{_slug(coachee.display_name)}/"
            f"{_slug(account)}-{start:%Y%m%d}"
        )
        goal_changes = {"goal": goal} if goal != rep.goal_written else {}
        prepared = plan.outcome != EMPTY and rng.random() < PREP_RATE[rep.team]
        if plan.outcome == MISSED and rng.random() < 0.5:
            prepared = True  # ready and waiting, and nobody logged it
        if prepared:
            at = self.prepared_at(start, coachee.time_zone)
            notes = notes_save(
                session=session,
                actor=coachee,
                base_version=version,
                changes={**goal_changes, "reality": reality, "reality_evidence_url": evidence_url},
            )
            version = notes.version
            self.backdate_notes(notes, at, prepared=True)
            if goal_changes:
                rep.goal_written = goal
                goal_changes = {}
            if rng.random() < 0.3:
                item = agenda_item_add(
                    session=session,
                    actor=coachee,
                    text=f"Walk through the {account} call at {self.ts()}",
                )
                AgendaItem.objects.filter(pk=item.pk).update(created_at=at)

        if plan.outcome == MISSED:
            missed_at = start + timedelta(hours=rng.randint(2, 20))
            self.backdate_session(
                session,
                start,
                status=SessionStatus.MISSED,
                missed_at=self.capped(missed_at),
            )
            return
        if plan.outcome not in (HELD, EMPTY):
            if rep.team == EMEA and plan.outcome == "customer_escalation":
                account = rng.choice(["Castellana Seguros", "Hanse Logistik"])
            note = rng.choice(CANCEL_NOTES.get(plan.outcome, ("",))).format(account=account)
            session_cancel(session=session, actor=coach, reason=plan.outcome, note=note)
            if plan.outcome in ("travel", "out_of_office"):
                cancelled_at = start - timedelta(days=rng.randint(1, 3), minutes=rng.randint(0, 90))
            else:  # short notice: the forecast call, an escalation, a cold
                cancelled_at = start - timedelta(minutes=rng.randrange(30, 180, 5))
            self.backdate_session(session, start, cancelled_at=cancelled_at, cancelled_by=coach)
            return

        held_at = start + timedelta(minutes=rng.randint(28, 34))
        written_at = self.capped(held_at + timedelta(minutes=rng.randint(2, 90)))
        if plan.outcome == HELD:
            self.close_carried(rep, session, start)
            options = rng.sample(theme.options, rng.choice([2, 3]))
            changes = {
                **goal_changes,
                "options": "\n".join(f"- {o}" for o in options),
                "will": rng.choice(theme.wills).format(account=account),
            }
            if not prepared:
                changes |= {"reality": reality, "reality_evidence_url": evidence_url}
            if rng.random() < 0.35:
                changes["notes"] = rng.choice(COACH_SHARED_NOTES).format(
                    ts=self.ts(), first=coachee.get_short_name(), account=account
                )
            notes = notes_save(session=session, actor=coach, base_version=version, changes=changes)
            self.backdate_notes(notes, written_at)
            if goal_changes:
                rep.goal_written = goal
            # Nobody writes down again what they already carry forward open.
            carried = {item.commitment.text for item in rep.pending}
            for text, evidence in rng.sample(
                theme.commitments, rng.choices([0, 1, 2], weights=[2, 5, 3])[0]
            ):
                if text.format(account=account) not in carried:
                    self.make_commitment(rep, session, start, text, evidence, account, written_at)
            if rng.random() < 0.12:
                self.private_note(session, coach, coachee, account, written_at)
        self.hold(session, coach, start, held_at, original=original)

    def make_commitment(self, rep, session, start, text, evidence, account, at) -> None:
        local = start.astimezone(rep.coach.tzinfo).date()
        due_on = local + timedelta(days=self.rng.choice([6, 7, 13, 14]))
        commitment = commitment_create(
            session=session,
            actor=rep.coach,
            text=text.format(account=account),
            evidence=evidence.format(account=account),
            due_on=due_on + timedelta(days=self.shift.days),
        )
        Commitment.objects.filter(pk=commitment.pk).update(due_on=due_on, created_at=at)
        fate = self.rng.choices(["done", "dropped", "open"], COMMITMENT_FATES[rep.team])[0]
        rep.pending.append(Pending(commitment, fate, due_on))

    def close_carried(self, rep: RepState, session, start: datetime) -> None:
        """In a held 1:1, close what is due: done ones once their day has come (some
        already ticked off by the coachee on the day), dropped ones a week on."""
        day = start.astimezone(rep.coach.tzinfo).date()
        still = []
        for item in rep.pending:
            ready = (item.fate == "done" and item.due_on <= day + timedelta(days=2)) or (
                item.fate == "dropped" and day >= item.due_on - timedelta(days=7)
            )
            if not ready:
                still.append(item)
                continue
            by_owner = item.fate == "done" and self.rng.random() < 0.2 and item.due_on < day
            if by_owner:
                commitment_close(
                    commitment=item.commitment, actor=rep.person, status=CommitmentStatus.DONE
                )
                closed_at = _at(rep.person.time_zone, item.due_on, 17, self.rng.randrange(0, 60))
            else:
                commitment_close(
                    commitment=item.commitment,
                    actor=rep.coach,
                    status=item.fate,
                    reason=self.rng.choice(DROP_REASONS) if item.fate == "dropped" else "",
                    session=session,
                )
                closed_at = start + timedelta(minutes=self.rng.randint(3, 15))
            Commitment.objects.filter(pk=item.commitment.pk).update(closed_at=closed_at)
        rep.pending = still

    def private_note(self, session, author, coachee, account, at) -> None:
        note = private_note_save(
            session=session,
            author=author,
            text=self.rng.choice(COACH_PRIVATE_NOTES).format(
                first=coachee.get_short_name(), account=account
            ),
            base_version=0,
        )
        PrivateNote.objects.filter(pk=note.pk).update(updated_at=at)

    @staticmethod
    def recorded_before(
        person, at, call: str, account: str, moment: str, *, since: datetime | None
    ) -> RecordedCall:
        """The call a coachee brings to their next 1:1: recorded the day before they
        prepared, or on the day of their last 1:1 if that was later, so "Since the last
        1:1" lists the call their Reality names."""
        local = person.tzinfo
        day = at.astimezone(local).date() - timedelta(days=1)
        if since is not None:
            day = max(day, since.astimezone(local).date())
        recording = recorded_call_create(
            actor=person,
            person=person,
            title=f"{call[0].upper()}{call[1:]} — {account}",
            call_date=day,
            url=f"https://calls.example.com/{_slug(person.display_name)}/{_slug(account)}-"
            f"{_slug(call)}-{day:%Y%m%d}",
            timestamps=f"{moment} where it went sideways",
        )
        RecordedCall.objects.filter(pk=recording.pk).update(created_at=at - timedelta(hours=20))
        return recording

    def prepare_next(self, plan, session, theme: Theme, goal: str, account: str) -> None:
        """Next week's 1:1: some coachees have already written what they want to look at."""
        rep = plan.rep
        prepared = [r.person.pk for r in self.reps[rep.team][: PREPARED_NEXT[rep.team]]]
        if rep.person.pk not in prepared:
            if self.rng.random() < 0.3:
                item = agenda_item_add(
                    session=session, actor=rep.coach, text=self.rng.choice(COACH_AGENDA)
                )
                AgendaItem.objects.filter(pk=item.pk).update(
                    created_at=self.capped(self.before(plan.start, 24 * 60, 72 * 60))
                )
            return
        at = self.prepared_at(plan.start, rep.person.time_zone)
        if at > self.now:  # the 1:1 is days away: they wrote it up earlier today or yesterday
            at = self.now - timedelta(hours=self.rng.randint(2, 30))
        last = last_held_end(rep.person, before=plan.start)
        if last is not None and at <= last:  # not before the 1:1 they prepare after
            at = last + (self.now - last) / 2
        call = self.rng.choice(theme.calls)
        moment = self.ts()
        recording = self.recorded_before(rep.person, at, call, account, moment, since=last)
        changes = {
            "reality": f"Want to look at the {account} {call} from this week. "
            + self.rng.choice(theme.sideways).format(ts=moment),
            "reality_evidence_url": recording.url,
        }
        if goal != rep.goal_written:
            changes["goal"] = goal
        notes = notes_save(session=session, actor=rep.person, base_version=0, changes=changes)
        self.backdate_notes(notes, at, prepared=True)
        texts = [
            f"The {account} call at {self.ts()} — where I lost them",
            "Commitments from last week",
        ]
        for text in texts[: self.rng.choice([1, 2])]:
            item = agenda_item_add(session=session, actor=rep.person, text=text)
            AgendaItem.objects.filter(pk=item.pk).update(created_at=at)

    # Team call reviews ------------------------------------------------------------------

    def run_call_review(self, team_name: str, start: datetime, week: int, used: set) -> None:
        rng, team, lead = self.rng, self.teams[team_name], self.leads[team_name]
        host = next_host(team=team)
        candidates = [s.person for s in self.reps[team_name] if s.person.pk != host.pk]
        fresh = [p for p in candidates if p.pk not in used] or candidates
        presenter = rng.choice(fresh)
        used.add(presenter.pk)
        account = rng.choice(ACCOUNTS[team_name])
        kind = rng.choice(["Discovery", "Pricing", "Demo", "Stakeholder call"])
        if team_name == EMEA and week >= 8:
            kind = "Stakeholder call"
        call_date = min(self.workday_before(start, 2, 6), self.workday_before(self.now, 1, 1))
        moments = sorted(rng.sample(range(2 * 60, 40 * 60, 5), 4))
        labels = sorted(rng.sample(CALL_MOMENTS, 4), key=CALL_MOMENTS.index)
        timestamps = "\n".join(
            f"{m // 60:02d}:{m % 60:02d} {label}" for m, label in zip(moments, labels, strict=True)
        )
        session = self._load(
            team_call_review_create(
                actor=lead,
                team=team,
                start=self.svc(start),
                presenter=presenter,
                call_url=f"https://calls.example.com/{_slug(presenter.display_name)}/"
                f"{_slug(account)}-{call_date:%Y%m%d}",
                call_title=f"{kind} — {account}",
                call_date=call_date,
                call_timestamps=timestamps,
                host=host,
                focus_area=self.focus_for(
                    "multithreading" if kind == "Stakeholder call" else "discovery",
                    team_name,
                    start.date(),
                ),
            )
        )
        RecordedCall.objects.filter(pk=session.presented_call_id).update(
            created_at=self.capped(_at(presenter.time_zone, call_date, 17, 30))
        )
        created_at = start - timedelta(days=7)
        if start > self.now:
            self.backdate_session(session, start, created_at=created_at)
            return
        reason = CALL_REVIEWS_CANCELLED.get((team_name, week))
        if reason:
            session_cancel(session=session, actor=lead, reason=reason)
            self.backdate_session(
                session,
                start,
                created_at=created_at,
                cancelled_at=start - timedelta(hours=rng.randint(2, 20)),
                cancelled_by=lead,
            )
            return
        peers = rng.sample([p for p in candidates if p.pk != presenter.pk], 3)
        lines = [
            f"{presenter.get_short_name()} narrated the first ten minutes and stopped at "
            f"{moments[1] // 60:02d}:{moments[1] % 60:02d}."
        ]
        for peer, remark in zip(peers, rng.sample(PEER_REMARKS, 3), strict=True):
            lines.append(f"{peer.get_short_name()} {remark.format(ts=self.ts(2, 12))}")
        lines.append(
            f"{presenter.get_short_name()} on what they'd change: "
            f"{rng.choice(THEMES[CALL_KIND_THEME[kind]].options).lower()}."
        )
        lines.append(f"{lead.get_short_name()} (last): {rng.choice(LEAD_REMARKS)}")
        held_at = start + timedelta(minutes=46)
        notes = notes_save(
            session=session, actor=host, base_version=0, changes={"notes": "\n".join(lines)}
        )
        self.backdate_notes(notes, held_at + timedelta(minutes=rng.randint(5, 60)))
        self.hold(session, lead, start, held_at, created_at=created_at)

    # Role-plays ------------------------------------------------------------------------

    def run_role_play(self, team_name: str, start: datetime, number: int) -> None:
        rng, lead = self.rng, self.leads[team_name]
        reps = [s.person for s in self.reps[team_name]]
        if team_name == EMEA and number == 1:
            area, script = self.multithreading, ROLE_PLAYS["multithreading"][0]
        else:
            area, script = self.discovery, ROLE_PLAYS["discovery"][number]
        account = rng.choice(ACCOUNTS[team_name])
        session = self._load(
            role_play_create(
                coach=lead,
                participants=reps,
                focus_area=area,
                start=self.svc(start),
                scenario=script.scenario.format(account=account),
                drills=script.drills,
                team=self.teams[team_name],
            )
        )
        a, b = rng.sample(reps, 2)
        held_at = start + timedelta(minutes=61)
        notes = notes_save(
            session=session,
            actor=lead,
            base_version=0,
            changes={"notes": script.notes.format(a=a.get_short_name(), b=b.get_short_name())},
        )
        self.backdate_notes(notes, held_at + timedelta(minutes=rng.randint(5, 45)))
        self.hold(session, lead, start, held_at, created_at=start - timedelta(days=14))

    # Manager reviews -------------------------------------------------------------------

    def cadence_numbers(self, team: str, until: datetime) -> dict[str, int]:
        since = until - timedelta(days=28)
        window = [
            p
            for p in self.plans
            if p.rep.team == team and since <= p.start < until and p.outcome != "scheduled"
        ]
        count = Counter(p.outcome for p in window)
        return {
            "whole_window": int(min(p.start for p in self.plans) <= since),
            "due": len(window),
            "held": count[HELD] + count[EMPTY],
            "empty": count[EMPTY],
            "missed": count[MISSED],
            "forecast": count[FORECAST],
            "cancelled": len(window) - count[HELD] - count[EMPTY] - count[MISSED],
        }

    def manager_review_notes(self, team: str, number: int, n: dict[str, int]) -> str:
        lead = self.leads[team].get_short_name()
        period = "Last four weeks" if n["whole_window"] else "Since the quarter started"
        numbers = (
            f"{period}: {n['held']} of {n['due']} 1:1s held, {n['cancelled']} "
            f"cancelled ({n['forecast']} for the forecast call), {n['missed']} missed, "
            f"{n['empty']} logged with nothing written."
        )
        story = {
            EAST: (
                "We listened to ten minutes of one of her 1:1s together: she asked before "
                "telling all the way through, and the rep named the fix herself.",
                "The cadence is solid. Next stretch for Sofia: let peers lead the call review "
                "— she still speaks second.",
                "Peers are hosting now. We talked about which of her reps could coach a "
                "peer in Mid-Market.",
            ),
            CENTRAL: (
                "Good start to the quarter. Marcus tends to give the answer in the Options "
                "step; we practised waiting for the rep's second idea.",
                "Steady. He wants a scorecard for call reviews; agreed to pilot one with the "
                "team in the next review.",
                "The forecast call is eating the 1:1s. Marcus says the number comes first "
                "this month. We talked about what cancelling for the forecast teaches the "
                "team, and which slot can move instead of the 1:1s.",
            ),
            EMEA: (
                "Lena's 1:1s are consistent; the reps bring recordings without being asked.",
                "Rough month: the Castellana and Hanse escalations pulled Lena out of her "
                "1:1s. Agreed the cadence is what to protect during an escalation, not what "
                "to drop first.",
                "The first two weeks of this window were still the escalations; since they "
                "closed, the 1:1s have held week after week. The multi-threading focus is "
                "landing: reps are naming economic buyers in their own Reality notes.",
            ),
        }[team][number]
        return f"{numbers}\n{story}\nAsked {lead}: which 1:1 last month moved someone forward?"

    def run_manager_review(self, team: str, start: datetime, number: int | None) -> None:
        rng, manager = self.rng, self.leads[team]
        session = self._load(
            manager_review_create(coach=self.head, manager=manager, start=self.svc(start))
        )
        if number is None:  # next month's, still ahead
            item = agenda_item_add(
                session=session,
                actor=manager,
                text="Bring one recorded 1:1 where I told instead of asked",
            )
            at = self.capped(start - timedelta(days=2))
            AgendaItem.objects.filter(pk=item.pk).update(created_at=at)
            self.backdate_session(session, start, created_at=start - timedelta(days=28))
            return
        held_at = start + timedelta(minutes=44)
        numbers = self.cadence_numbers(team, start)
        notes = notes_save(
            session=session,
            actor=self.head,
            base_version=0,
            changes={
                "goal": "Coach with questions, not corrections — and protect the cadence.",
                "notes": self.manager_review_notes(team, number, numbers),
            },
        )
        written_at = held_at + timedelta(minutes=rng.randint(5, 40))
        self.backdate_notes(notes, written_at)
        if number == MANAGER_COMMITMENT_REVIEW[team]:
            text, evidence = MANAGER_COMMITMENTS[team]
            day = start.astimezone(self.head.tzinfo).date()
            due_on = day + timedelta(days=28)
            commitment = commitment_create(
                session=session,
                actor=self.head,
                text=text,
                evidence=evidence,
                due_on=due_on + timedelta(days=self.shift.days),
            )
            Commitment.objects.filter(pk=commitment.pk).update(due_on=due_on, created_at=written_at)
            if due_on < self.now.date() and team != CENTRAL:
                commitment_close(commitment=commitment, actor=manager, status=CommitmentStatus.DONE)
                Commitment.objects.filter(pk=commitment.pk).update(
                    closed_at=_at(manager.time_zone, due_on, 16, 0)
                )
        if (team == CENTRAL and number == 2) or rng.random() < 0.35:
            private = {
                CENTRAL: "Marcus gets defensive about the cancellations — lead with the data, "
                "not the judgement.",
                EAST: "Ask Sofia whether she'd coach a new manager next quarter.",
                EMEA: "Lena blames herself for the escalation weeks. Point at the recovery.",
            }[team]
            note = private_note_save(
                session=session, author=self.head, text=private, base_version=0
            )
            PrivateNote.objects.filter(pk=note.pk).update(updated_at=written_at)
        self.hold(session, self.head, start, held_at, created_at=start - timedelta(days=21))

    # Daniel's 1:1s with his managers ---------------------------------------------------

    def head_one_on_one_starts(self, team: str) -> list[tuple[int, datetime]]:
        """The last twelve Tuesdays' slots that are over (weeks 1–12), and the next one
        (week 13, perhaps under way), like a rep's."""
        weekday, hour, minute = HEAD_ONE_ON_ONE_SLOT[team]
        tz = self.head.time_zone
        moments = [
            _at(tz, self.team_week_day(tz, week, weekday), hour, minute) for week in range(-1, 15)
        ]
        return list(enumerate(self.history_and_next(moments), start=1))

    def run_head_one_on_one(self, team: str, start: datetime, week: int) -> None:
        """Daniel coaching one of his managers on their own goal as a manager, with their
        team's last four weeks of 1:1s as the Reality; written up by him, prepared by
        them most weeks."""
        rng, manager = self.rng, self.leads[team]
        session = self._load(
            one_on_one_create(coach=self.head, coachee=manager, start=self.svc(start))
        )
        if week > WEEKS:  # the next one: still ahead, or under way now
            self.backdate_session(session, start, created_at=start - timedelta(days=21))
            return
        reason = HEAD_ONE_ON_ONES_CANCELLED.get((team, week))
        if reason:
            session_cancel(session=session, actor=self.head, reason=reason)
            cancelled_at = start - timedelta(days=2 if reason == "travel" else 0, hours=2)
            self.backdate_session(
                session,
                start,
                created_at=start - timedelta(days=21),
                cancelled_at=cancelled_at,
                cancelled_by=self.head,
            )
            return
        goal = next(g for w, g in reversed(HEAD_GOALS[team]) if w <= week)
        n = self.cadence_numbers(team, start)
        period = "Last four weeks" if n["whole_window"] else "Since the quarter started"
        reality = (
            f"{period}: my team held {n['held']} of its {n['due']} 1:1s, "
            f"{n['cancelled']} cancelled, {n['missed']} missed. "
            f"{rng.choice(HEAD_REALITIES[team])}"
        )
        version = 0
        if rng.random() < HEAD_PREP_RATE[team]:
            notes = notes_save(
                session=session,
                actor=manager,
                base_version=0,
                changes={"goal": goal, "reality": reality},
            )
            version = notes.version
            self.backdate_notes(notes, self.prepared_at(start, manager.time_zone), prepared=True)
        held_at = start + timedelta(minutes=rng.randint(28, 33))
        options = rng.sample(HEAD_OPTIONS[team], 3)
        changes = {
            "goal": goal,
            "reality": reality,
            "options": "\n".join(f"- {o}" for o in options),
            "will": rng.choice(HEAD_WILLS[team]),
        }
        notes = notes_save(session=session, actor=self.head, base_version=version, changes=changes)
        self.backdate_notes(notes, self.capped(held_at + timedelta(minutes=rng.randint(5, 60))))
        self.hold(session, self.head, start, held_at, created_at=start - timedelta(days=21))

    # Peer coaching ---------------------------------------------------------------------

    def run_peer(self, a: User, b: User, start: datetime, week: int | None) -> None:
        session = self._load(peer_session_create(actor=a, peer=b, start=self.svc(start)))
        if start > self.now:
            self.backdate_session(session, start, created_at=start - timedelta(days=14))
            return
        reason = PEER_CANCELLED.get((_key(a.display_name), week))
        if reason:
            session_cancel(session=session, actor=b, reason=reason)
            self.backdate_session(
                session,
                start,
                created_at=start - timedelta(days=14),
                cancelled_at=start - timedelta(hours=3),
                cancelled_by=b,
            )
            return
        held_at = start + timedelta(minutes=31)
        writer = self.rng.choice([a, b])
        notes = notes_save(
            session=session,
            actor=writer,
            base_version=0,
            changes={"notes": self.rng.choice(PEER_NOTES).format(a_first=a.get_short_name())},
        )
        self.backdate_notes(notes, held_at + timedelta(minutes=10))
        self.hold(session, a, start, held_at, created_at=start - timedelta(days=14))

    # Everything, in the order it happened ----------------------------------------------

    def build(self) -> None:
        begun = timezone.now()
        self.focus_areas()
        self.plan_reps()
        events: list[tuple[datetime, int, object]] = []

        def add(start, fn, *args):
            events.append((start, len(events), lambda: fn(*args)))

        for plan in self.plans:
            add(plan.start, self.run_one_on_one, plan)
        for team, lead in self.leads.items():
            weekday, hour, minute = CALL_REVIEW_SLOT[team]
            used: set[int] = set()
            for week in (*CALL_REVIEW_WEEKS, 14):
                day = self.team_week_day(lead.time_zone, week, weekday)
                start = _at(lead.time_zone, day, hour, minute)
                if week == 14 and start - timedelta(weeks=1) > self.now:
                    start -= timedelta(weeks=1)  # the next one is still this week
                add(start, self.run_call_review, team, start, week, used)
            for number, week in enumerate(ROLE_PLAY_WEEKS):
                day = self.team_week_day(lead.time_zone, week, ROLE_PLAY_SLOT[0])
                start = _at(lead.time_zone, day, *ROLE_PLAY_SLOT[1:])
                add(start, self.run_role_play, team, start, number)
            hour, minute = MANAGER_REVIEW_SLOT[team]
            head_tz = self.head.time_zone
            for number, week in enumerate((*MANAGER_REVIEW_WEEKS, NEXT_MANAGER_REVIEW_WEEK)):
                start = _at(head_tz, self.team_week_day(head_tz, week, 0), hour, minute)
                next_one = week == NEXT_MANAGER_REVIEW_WEEK
                add(start, self.run_manager_review, team, start, None if next_one else number)
            for week, start in self.head_one_on_one_starts(team):
                add(start, self.run_head_one_on_one, team, start, week)
        for a_key, b_key, tz, (weekday, hour, minute), weeks in PEER_PAIRS:
            a, b = self.people[a_key], self.people[b_key]
            for week in (*weeks, 14) if a_key == "aisha.bello" else weeks:
                start = _at(tz, self.team_week_day(tz, week, weekday), hour, minute)
                add(start, self.run_peer, a, b, start, week)

        for _start, _order, run in sorted(events, key=lambda e: (e[0], e[1])):
            run()
        self.development_goals()
        self.backdate_changes(since=begun)

    def backdate_changes(self, *, since: datetime) -> None:
        """The history's moves and cancellations went through the services, in their
        frame (`svc`) and stamped now: say when they happened and from when to when,
        as their sessions do once backdated (a move the day before its first time)."""
        changes = SessionChange.objects.filter(at__gte=since).select_related("session")
        for change in changes:
            session = change.session
            if change.kind == SessionChangeKind.CANCELLED:
                at = session.cancelled_at or change.at
                was = to = session.scheduled_start
            else:
                at = self.capped(session.original_start - timedelta(days=1))
                was, to = session.original_start, session.scheduled_start
            SessionChange.objects.filter(pk=change.pk).update(at=at, from_start=was, to_start=to)

    def development_goals(self) -> None:
        """Each rep's goals in their own words, following their themes: the earlier
        ones achieved when the next came up (every fourth rep dropped their first
        instead), the latest still active and tied to its focus area while it runs."""
        today = self.now.date()
        for team, states in self.reps.items():
            for number, state in enumerate(states):
                tz = state.person.time_zone
                for i, (week, theme, text) in enumerate(state.themes):
                    goal = goal_create(owner=state.person, actor=state.person, title=text[:200])
                    fields = {
                        "created_at": _at(tz, self.team_week_day(tz, week, 0), 8, 40),
                        "focus_area": self.focus_for(theme, team, today),
                    }
                    if i < len(state.themes) - 1:
                        dropped = number % 4 == 3 and i == 0
                        next_week = state.themes[i + 1][0]
                        fields.update(
                            status=GoalStatus.DROPPED if dropped else GoalStatus.ACHIEVED,
                            closed_at=_at(tz, self.team_week_day(tz, next_week, 0), 8, 30),
                            focus_area=None,
                        )
                    Goal.objects.filter(pk=goal.pk).update(**fields)


# --- Entry points ---------------------------------------------------------------------


def _demo_people() -> dict[str, User]:
    keys = {demo_email(spec.key): spec.key for spec in demo_people()}
    return {keys[u.email]: u for u in User.objects.filter(email__in=keys)}


def _demo_coaches(people: dict[str, User]) -> list[User]:
    return [people[HEAD.key], *(people[spec.key] for spec in TEAMS.values())]


def coaching_summary(people: dict[str, User] | None = None) -> SeedResult:
    people = people or _demo_people()
    pks = [u.pk for u in people.values()]
    sessions = CoachingSession.objects.filter(
        pk__in=SessionParticipant.objects.filter(person__in=pks).values("session")
    )
    by_status = dict(sessions.order_by().values_list("status").annotate(n=Count("pk")))
    by_kind = dict(sessions.order_by().values_list("kind").annotate(n=Count("pk")))
    commitments = Commitment.objects.filter(owner__in=pks)
    return SeedResult(
        created=False,
        sessions_by_status=by_status,
        sessions_by_kind=by_kind,
        commitments_by_status=dict(
            commitments.values_list("status").annotate(n=Count("pk")).order_by()
        ),
        overdue_commitments=commitments.filter(
            Q(status=CommitmentStatus.OPEN) & Q(due_on__lt=timezone.localdate())
        ).count(),
        private_notes=PrivateNote.objects.filter(session__in=sessions).count(),
    )


def seed_coaching(
    people: dict[str, User] | None = None, *, today: date | None = None, rng_seed: int = 2026
) -> SeedResult:
    """Write twelve weeks of coaching history ending `today` (default: today), unless
    the demo managers already have sessions. Returns counts either way."""
    people = people or _demo_people()
    if CoachingSession.objects.filter(created_by__in=_demo_coaches(people)).exists():
        return coaching_summary(people)
    now = timezone.now()
    story_now = now if today is None else now + timedelta(days=(today - now.date()).days)
    with transaction.atomic():
        _Builder(people, story_now=story_now, rng=random.Random(rng_seed)).build()
    result = coaching_summary(people)
    result.created = True
    return result
