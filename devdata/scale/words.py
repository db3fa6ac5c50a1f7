"""Names, places and short texts for the scale data: enough variety that pages look
like a real organisation, cheap enough to make a million of.

The coaching words (themes, accounts, cancel notes, remarks) are the demo's own, so a
1:1 in the scale data reads like one in the demo."""

from devdata.demo.coaching import (
    ACCOUNTS,
    CALL_MOMENTS,
    CANCEL_NOTES,
    COACH_AGENDA,
    COACH_PRIVATE_NOTES,
    COACH_SHARED_NOTES,
    DROP_REASONS,
    LEAD_REMARKS,
    PEER_REMARKS,
    ROLE_PLAYS,
    THEMES,
)
from devdata.demo.feedback import EVALUATIVE, OBSERVATIONS

__all__ = [
    "ACCOUNT_NAMES",
    "CALL_MOMENTS",
    "CANCEL_NOTES",
    "COACH_AGENDA",
    "COACH_PRIVATE_NOTES",
    "COACH_SHARED_NOTES",
    "DROP_REASONS",
    "EVALUATIVE",
    "LEAD_REMARKS",
    "OBSERVATIONS",
    "PEER_REMARKS",
    "ROLE_PLAYS",
    "THEMES",
]


def _names(text: str) -> tuple[str, ...]:
    return tuple(text.split())


ACCOUNT_NAMES = tuple(name for names in ACCOUNTS.values() for name in names) + (
    "Aurora Telecom",
    "Bluefin Robotics",
    "Cobalt Mining",
    "Driftwood Hotels",
    "Everstone Credit",
    "Foxglove Clinics",
    "Granite Payroll",
    "Heliotrope Media",
    "Indigo Airlines",
    "Jadeport Shipping",
    "Kingfisher Water",
    "Larkspur Realty",
    "Monsoon Textiles",
    "Nimbus Cloudworks",
    "Orchid Biotech",
    "Pelican Insurance",
    "Quokka Games",
    "Riverbend Utilities",
    "Saffron Foods",
    "Tamarind Travel",
    "Umber Architects",
    "Verdant Farms",
    "Wattle Energy",
    "Yarrow Legal",
    "Zephyr Wind",
)

FIRST_NAMES = _names(
    "Aaliyah Abdul Ada Adebayo Aditi Adrian Agnieszka Ahmed Aiko Aisha Alejandro Alessandro "
    "Alice Amara Amelia Amir Ana Anders Andrea Ange Anika Ankit Anna Antoine Arjun Astrid "
    "Aylin Beatriz Ben Bianca Bilal Bjorn Boris Bruno Camila Camille Carlos Carmen Chen "
    "Chiara Chidi Chloe Chris Clara Daan Dalia Daniel Dario Dev Diego Dimitri Divya Elena "
    "Elif Elijah Emeka Emil Emily Emma Erik Esther Eva Ewa Farah Fatima Felix Fernando "
    "Fiona Florian Freya Gabriel Giulia Grace Hana Hannah Hassan Heidi Hiroshi Hugo Ifeoma "
    "Ines Ingrid Isaac Isabel Ivan Jakub Jamal James Jana Javier Jia Joao Johanna Jonas "
    "Jorge Joseph Julia Kai Kaito Karim Katarzyna Kavya Kenji Kofi Lars Laura Layla Leila "
    "Lena Leo Liam Lina Lucas Lucia Luis Maja Malik Mariam Marco Maria Mateo Matteo Maya "
    "Mehmet Mei Mia Miguel Mikael Mina Mohammed Nadia Naomi Nikhil Nina Noah Nora Olga "
    "Oliver Olivia Omar Oscar Pablo Paula Pedro Priya Rafael Rahul Ravi Rosa Ruth Ryo "
    "Sakura Salma Samuel Sara Sebastian Sergei Shreya Siddharth Simone Sofia Sophie Stefan "
    "Sunil Tariq Thabo Theo Tomasz Valentina Victor Wei Xavier Yara Yasmin Yusuf Zainab Zoe"
)

LAST_NAMES = _names(
    "Abe Acheampong Adeyemi Ahmed Alvarez Andersen Araujo Bakker Banerjee Becker Bello "
    "Bernard Bianchi Brown Carter Castillo Chen Costa Cruz Dahl Das Dubois Eriksson Evans "
    "Fernandes Fischer Fontaine Garcia Gomez Gonzalez Gupta Hansen Hassan Hoffmann Horvat "
    "Hughes Ibrahim Ito Ivanova Jansen Jensen Johnson Kaur Khan Kim Kowalski Kumar Larsen "
    "Laurent Lee Lehmann Lindqvist Lopez Martin Martinez Mehta Mensah Meyer Moreau Mueller "
    "Murphy Nakamura Nguyen Nielsen Novak Nowak Nwosu Obi Okafor Okonkwo Olsen Ortega "
    "Osei Park Patel Pereira Petrov Popescu Reddy Reyes Richter Rossi Sato Schmidt "
    "Schneider Scott Silva Singh Smith Sousa Suzuki Tanaka Taylor Thomas Tran Visser "
    "Vasquez Wagner Walker Wang Weber Williams Wilson Wong Yamamoto Yilmaz Zhang Zielinski"
)


# Regions: a VP each. Time zones weighted by where people sit.
REGIONS = (
    (
        "North America East",
        "NA East",
        (
            ("America/New_York", 55),
            ("America/Toronto", 18),
            ("America/Detroit", 6),
            ("America/Indiana/Indianapolis", 4),
            ("America/Halifax", 3),
        ),
    ),
    (
        "North America West",
        "NA West",
        (
            ("America/Chicago", 32),
            ("America/Los_Angeles", 34),
            ("America/Denver", 14),
            ("America/Phoenix", 6),
            ("America/Vancouver", 6),
        ),
    ),
    (
        "EMEA",
        "EMEA",
        (
            ("Europe/London", 28),
            ("Europe/Berlin", 14),
            ("Europe/Paris", 11),
            ("Europe/Amsterdam", 7),
            ("Europe/Madrid", 6),
            ("Europe/Dublin", 5),
            ("Europe/Stockholm", 5),
            ("Europe/Warsaw", 5),
            ("Europe/Rome", 5),
            ("Asia/Dubai", 4),
            ("Africa/Johannesburg", 4),
            ("Africa/Lagos", 2),
        ),
    ),
    (
        "APAC",
        "APAC",
        (
            ("Australia/Sydney", 28),
            ("Asia/Singapore", 24),
            ("Asia/Tokyo", 14),
            ("Asia/Kolkata", 16),
            ("Australia/Melbourne", 8),
            ("Pacific/Auckland", 5),
            ("Asia/Hong_Kong", 5),
        ),
    ),
    (
        "Latin America",
        "LatAm",
        (
            ("America/Sao_Paulo", 45),
            ("America/Mexico_City", 30),
            ("America/Bogota", 14),
            ("America/Argentina/Buenos_Aires", 11),
        ),
    ),
)

SEGMENTS = (
    "Enterprise",
    "Mid-Market",
    "Commercial",
    "Strategic Accounts",
    "Growth",
    "Public Sector",
    "Financial Services",
    "Healthcare",
    "Retail",
    "SMB",
    "Partners",
    "Expansion",
)

# Focus areas across the two years, one quarter each, the last ones still running:
# (name, [(template, criterion title)], behaviours).
FOCUS_AREAS = (
    (
        "Questions before the pitch",
        [
            ("Discovery call", "Open questions before the pitch"),
            ("Discovery call", "Listening and summarising"),
        ],
        "Three open questions before any screen share\nSummarise their words back before answering",
    ),
    (
        "Find the cost of inaction",
        [("Discovery call", "Business problem and cost of inaction")],
        "Ask what happens if nothing changes\nName the deadline and who feels the problem",
    ),
    (
        "Curiosity under pushback",
        [
            ("Objection handling", "Acknowledge before answering"),
            ("Objection handling", "Ask what's behind it"),
        ],
        "Acknowledge the concern out loud\nAsk 'compared to what?' before any answer",
    ),
    (
        "Demo to their problem",
        [
            ("Product demo", "Recap before the demo"),
            ("Product demo", "Tailored to their problem"),
            ("Product demo", "Checks in as it goes"),
        ],
        "Recap their problem before the first click\nShow only what solves it\nCheck in "
        "every few minutes",
    ),
    (
        "Earn the first conversation",
        [
            ("Cold-call opener", "Permission-based opener"),
            ("Cold-call opener", "Question, not pitch"),
            ("Cold-call opener", "Handles the brush-off"),
        ],
        "Ask for thirty seconds, then give a reason\nA question, not a pitch\nStay curious "
        "after the first brush-off",
    ),
    (
        "Hold value on price",
        [
            ("Objection handling", "Hold value: trade, don't give"),
            ("Objection handling", "Answer with evidence"),
        ],
        "Trade, never give\nAnswer price with a customer story and a number",
    ),
    (
        "Let the customer talk",
        [
            ("Product demo", "Customer talk time"),
            ("Discovery call", "Listening and summarising"),
        ],
        "Customers talk more than half the call\nLet silences run",
    ),
    (
        "Multi-threading",
        [
            ("Discovery call", "Stakeholders and next step"),
            ("Product demo", "Agreed next step"),
        ],
        "A second engaged contact on every late-stage deal\nEvery call ends with a dated "
        "next step and an owner on their side",
    ),
)

FEEDBACK_THEMES = (
    "discovery",
    "listening",
    "pricing",
    "objections",
    "next steps",
    "multi-threading",
    "preparation",
    "follow-up",
    "talk time",
    "confidence",
    "forecasting",
    "product knowledge",
    "negotiation",
    "presence",
    "coaching",
    "meetings",
)

REFLECTIONS = (
    "Fair. I rush when I'm nervous about the price.",
    "I hadn't noticed — I'll listen back to the recording.",
    "Useful. Trying it on my next two calls.",
    "I see it differently, but I'll ask the customer next time.",
    "This is the third time I've heard it. Putting it on my goal.",
    "Thanks — I'll bring this to my next 1:1.",
    "Good catch. I'll write the questions down before the call.",
)

# Feedback wording: (observation, impact, suggestion), with {account} and {first}.
PEER_FEEDBACK = (
    (
        "On the {account} call you let the silence run after the price.",
        "They filled it with their real concern, the migration effort.",
        "Do it again on the next pricing call.",
    ),
    (
        "In the call review you asked {first} what they would change before giving advice.",
        "The whole team started answering with questions.",
        "",
    ),
    (
        "You shared the {account} recap in the team channel within the hour.",
        "Three of us reused your template the same week.",
        "Add the next step's owner on their side.",
    ),
    (
        "On our joint {account} call you jumped in when the buyer hesitated.",
        "The buyer stopped talking and we never heard the objection.",
        "Count to five before answering for me next time.",
    ),
    (
        "Your discovery questions on the {account} call followed their words, not a script.",
        "The customer named the budget holder without being asked.",
        "Write up the questions for the team playbook.",
    ),
    (
        "You booked the next meeting before hanging up with {account}.",
        "The deal moved a week faster than the last three like it.",
        "",
    ),
)

UPWARD_FEEDBACK = (
    (
        "In our last 1:1 you answered your own question before I could.",
        "I stopped thinking and waited for the answer.",
        "Leave a longer silence after asking.",
    ),
    (
        "You moved our 1:1 three weeks running for the forecast call.",
        "It felt like coaching comes last when the quarter is tight.",
        "Keep the slot, even if it is fifteen minutes.",
    ),
    (
        "In the call review you went last and asked what we would do differently.",
        "People who usually stay quiet spoke.",
        "Keep going last; it works.",
    ),
    (
        "You listened to the whole {account} recording before our 1:1.",
        "We spent the time on the one moment that mattered.",
        "",
    ),
    (
        "In the team meeting you shared the quarter's numbers before the wins.",
        "The room went quiet and nobody shared their clip.",
        "Start with one win next time.",
    ),
)

EVALUATIVE_FEEDBACK = (
    (
        "Quarter review: {n} of {m} discovery calls followed the agreed structure (recordings).",
        "Pipeline quality improved; deals moved to proposal with a named economic buyer.",
        "Next quarter: multi-threading on every deal over 50k.",
    ),
    (
        "Quarter review: forecast accuracy within {n}% for three months running.",
        "Leadership could plan hiring on your numbers.",
        "",
    ),
    (
        "Quarter review: {n} new opportunities from your own prospecting, against {m} planned.",
        "The territory depends less on inbound leads.",
        "Keep one prospecting block a day.",
    ),
    (
        "Quarter review: the {account} renewal closed without a discount.",
        "Margin on the territory held above plan.",
        "",
    ),
)

MANAGER_REVIEW_NOTES = (
    "Adherence {a}% over the month, coverage {c}%. The forecast call keeps landing on "
    "Tuesday 1:1s — agreed to move it.",
    "Two of {first}'s reps went three weeks without a 1:1. Plan: protect Thursdays.",
    "Listened to one of {first}'s 1:1s together: strong Reality, weak Will. Practise "
    "commitments that name one call.",
    "Call reviews every week this month; the team presents in turn. Next: score one "
    "call together before the review.",
    "Held-but-empty is creeping up. Agreed: no 1:1 logged without one commitment.",
)

GOAL_LIKE_MANAGER = (
    "Coach, don't fix: ask before I suggest in every 1:1.",
    "Protect the 1:1 slot through quarter end.",
    "Run a call review every week, with the team presenting in turn.",
    "Make commitments about one call, not every call.",
)

CALIBRATION_TITLES = (
    "{quarter} discovery calibration",
    "{quarter} objection handling calibration",
    "{quarter} demo calibration",
)


# --- The learning loop (devdata.scale.practice) ------------------------------------------

# (hypothesis, the small test, what would change my mind, what happened, what I learned)
EXPERIMENTS = (
    (
        "Three open questions before the first screen share get the buyer talking about "
        "the real problem",
        "On my next four first calls, no screen share before three open questions.",
        "Buyers still asking to see the product before minute ten on half the calls.",
        "Four calls; the first screen share came at minutes 11, 14, 9 and 16. Two buyers "
        "named the deadline behind the project without being asked.",
        "“What do you hope to see?” turns an early demo request into discovery.",
    ),
    (
        "Leading with the conclusion keeps the room",
        "Open the next three internal updates with the decision I need, then the why.",
        "If the first question is still “so what do you want from us?”",
        "Three updates; decisions in two of them inside ten minutes, one pushed to email.",
        "The conclusion first works when the ask is one sentence; two asks lose the room.",
    ),
    (
        "Naming the price before the buyer asks stops the discount spiral",
        "Say the number in the proposal walkthrough on my next three deals, then pause.",
        "A discount request in the same call on two of the three.",
        "One discount request, on the deal where I filled the pause myself.",
        "The pause after the number does the work; filling it invites the counter-offer.",
    ),
    (
        "Asking what happens if they do nothing surfaces the real deadline",
        "Ask it on every second call this week and write down the answer word for word.",
        "If nobody names a date or a cost.",
        "Five of seven buyers named a date; two named a cost in money.",
        "Ask it after the pain is named, not before: too early it sounds like pressure.",
    ),
    (
        "Saying the problem back in one sentence cuts the “that's not quite it” moments",
        "Next three demos: a one-sentence summary before the first slide, then a check.",
        "Corrections as often as before, about one call in two.",
        "One correction in three demos, and it changed what I showed.",
        "The check question matters more than the summary: it invites the correction early.",
    ),
    (
        "A second contact before the proposal keeps deals from stalling",
        "On every deal past discovery this fortnight, ask who else will weigh in and meet them.",
        "If the new contacts add nothing the champion had not said.",
        "Four deals, three new contacts met; one raised a security review nobody mentioned.",
        "Ask for the second contact as help for the champion, not as going around them.",
    ),
    (
        "Letting silence run after an objection gets the real reason",
        "Count to five after each objection on my next five calls before answering.",
        "If the buyer just repeats the objection.",
        "Three times the buyer filled the silence with the actual concern (budget timing).",
        "Five seconds feels long on a video call; nodding keeps it from feeling cold.",
    ),
    (
        "Ending each call with a dated next step shortens the cycle",
        "No call ends this week without a next step in the calendar, sent before I hang up.",
        "More than one buyer declining to put a date in.",
        "Nine calls, eight dated next steps; the ninth buyer asked for a week to think.",
        "Sending the invite while still on the call is the step; promising to send it is not.",
    ),
)
EXPERIMENT_DROP_NOTES = (
    "",
    "Quarter end took the week; will try again next month.",
    "The calls this week were renewals, not first calls: no chance to test it.",
)

# (kind, title, body, tags) — published for the team or the whole organisation.
LEARNINGS = (
    (
        "checklist",
        "Before you share your screen: a discovery checklist",
        "I asked at least three open questions.\nI can say their problem back in one "
        "sentence, in their words.\nI know what happens if they do nothing this quarter.\n"
        "I know who else needs to say yes.",
        ("discovery", "questions", "checklists"),
    ),
    (
        "template",
        "First peer session: a 30-minute agenda",
        "0–5 Check in: one win, one stuck moment.\n5–15 One recording each: observations "
        "only.\n15–25 A small experiment for the next two weeks.\n25–30 Habits: one each, "
        "checked in next time.",
        ("peer coaching", "agendas", "templates"),
    ),
    (
        "case_study",
        "How a stalled renewal came back: two contacts instead of one",
        "The champion went quiet four weeks before the renewal. We asked her who else "
        "would feel it if the tool went away; the operations lead did, and carried the "
        "renewal through procurement in nine days.",
        ("multithreading", "renewals", "case studies"),
    ),
    (
        "learning",
        "The pause after the price does the work",
        "Say the number, then stop. Every time we filled the silence we were the first to "
        "offer a discount.",
        ("pricing", "objections"),
    ),
    (
        "checklist",
        "Call review: what to listen for in the first ten minutes",
        "Who spoke first after the agenda?\nHow many open questions before any product?\n"
        "Did we say the problem back?\nIs there a dated next step at the end?",
        ("call review", "scorecards", "checklists"),
    ),
    (
        "template",
        "A one-line recap email that gets answered",
        "“You said {the problem}; we agreed {the next step} on {the date}. Anything I "
        "missed?” — sent within the hour.",
        ("next steps", "templates", "follow-up"),
    ),
)
LEARNING_TAGS = tuple(sorted({tag for _, _, _, tags in LEARNINGS for tag in tags}))

# Diagnose before you coach: what the coach wrote, by the gap they landed on.
DIAGNOSIS_NOTES = {
    "skill": (
        "Knows the questions, loses them under pressure; role-play the first five minutes.",
        "Has not seen a good discovery call yet: listen to two recordings together.",
    ),
    "will": (
        "Thinks discovery slows the deal; show the win rates of calls with and without it.",
        "Does it when I am on the call, skips it otherwise.",
    ),
    "knowledge": (
        "Nobody told them the scorecard changed last quarter.",
        "Unclear what a 3 looks like on next steps: go through the anchors together.",
    ),
    "system": (
        "Back-to-back calls all afternoon: no time to prepare or review.",
        "Recordings are off on their calls, so there is nothing to review.",
    ),
    "none": ("Doing it; keep it going and ask them to show the team.",),
}

PEER_REQUEST_NOTES = (
    "",
    "Discovery questions: I want someone to listen to my first ten minutes.",
    "Handling price pushback without discounting.",
    "Next steps: my calls end without a date too often.",
    "Anything: I am new and would like a peer outside my team.",
)

# What a member of a peer pair commits to (small, observable), what the partner notes
# when checking it in, and what the pair writes between sessions.
HABITS = (
    "Three open questions before I share my screen on a first call",
    "Say the price, then stay quiet for three seconds",
    "Say the customer's problem back in one sentence before any demo",
    "Ask “who else needs to say yes?” on every discovery call",
    "Send the recap within an hour of every customer call",
    "Name a second engaged contact before the proposal goes out",
    "End every call with a date in the calendar, not “let's touch base”",
    "Write down the buyer's exact words for their problem",
    "Ask my champion what their boss will need to see, on deals over 50k",
    "Listen back to one of my own calls every Friday",
    "Open proposal calls with the recommendation and the price",
    "Ask for the next step before the last five minutes",
)
CHECK_IN_NOTES = (
    "Two of three calls; the third ran long and I skipped it.",
    "Did it every time this week.",
    "Filled the silence with a discount once.",
    "It's automatic now: time to retire it.",
    "Forgot on the renewal call, remembered on the new ones.",
    "Tried it on the hardest account first: it held.",
)
PAIR_NOTES = (
    "Swapped two recordings each: observations only, no “you should”.",
    "Bring to the call review: the call where the champion went quiet when we named the CFO.",
    "Same opener on two deals each; three of four champions answered with a name.",
    "Next experiment: name the economic buyer before the demo, on every new deal.",
    "The pause after the price worked: the buyer asked about scope, not a discount.",
    "Reading for next time: the objection library's pricing section.",
    "Agreed to listen to each other's first ten minutes before the next session.",
    "Conclusion first lost operations in the room; ask who is coming before choosing.",
)

# A team's own focus area, on top of the organisation's (name, criteria by template
# and title, behaviours one per line).
TEAM_FOCUS_AREAS = (
    (
        "Renewals: lead with the value delivered",
        [("Discovery call", "Business problem and cost of inaction")],
        "Open with the numbers they got last year\nAsk what changed before talking price",
    ),
    (
        "New logos: earn the second meeting",
        [
            ("Cold-call opener", "Permission-based opener"),
            ("Cold-call opener", "Question, not pitch"),
        ],
        "Ask for thirty seconds, then give a reason\nEnd with a date for the second meeting",
    ),
    (
        "Late-stage deals: no single threads",
        [
            ("Discovery call", "Stakeholders and next step"),
            ("Product demo", "Agreed next step"),
        ],
        "Name the economic buyer before the proposal\nA second engaged contact on every "
        "deal in the last stage",
    ),
    (
        "Demos that stop to listen",
        [("Product demo", "Checks in as it goes"), ("Product demo", "Customer talk time")],
        "Stop after every screen and ask what they saw\nCustomers talk more than half the call",
    ),
)
