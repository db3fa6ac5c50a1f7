"""What a new programme starts with for peer coaching and the learning loop: the pair
agreement, the experiment prompt menu, and the playbook modules (a core and one per
department). Programme admins edit all of it afterwards.

Written by migration 0007 (with its historical models) and idempotent: what is there
already is left alone, so the demo and tests can call it again after a flush."""

AGREEMENT = """\
Confidentiality: what we say in our sessions stays between us. Neither of us repeats \
it to a manager, a colleague or HR unless we both agree.
Candour: we say what we saw, kindly and directly. "That sounded rushed" helps more \
than "that was fine".
Respect: we keep the time, come prepared, and ask before we advise.
Progress without shaming: we report what we tried and what happened — kept, partly, \
not yet — and we are after progress, not perfection. A missed habit is information, \
not a failure.
Leaving: either of us can end the pair at any time, without giving a reason."""

EXPERIMENT_PROMPTS = [
    "What would a small experiment look like this week?",
    "What data would prove this hypothesis?",
    "What assumptions are you testing?",
    "What evidence would change your mind?",
    "How many times can you try it before you decide?",
    "What is the smallest version of this you could try tomorrow?",
    "Who will notice if it works, and how?",
]

# name → (department, summary, goals, prompts, cadence, experiments); one item a line.
PLAYBOOK = {
    "Core coaching playbook": (
        "core",
        "The habits every coach and coachee share: GROW conversations, feedback as fuel, "
        "a protected weekly rhythm.",
        [
            "Every person has a 30-minute 1:1 every week, built around one piece of real work.",
            "The coachee names their own goal; the coach asks before telling.",
            "Every 1:1 ends with a commitment and how both will know it happened.",
            "Feedback is sought unprompted, in every direction.",
        ],
        [
            "What's the one thing you most want to get better at this quarter?",
            "Where did it go sideways, and where were you happy with it?",
            "What would you do differently if you did it again tomorrow?",
            "Which one will you actually try, and how will I know you did?",
            "What's one thing I could do differently to be more effective?",
        ],
        "Weekly 1:1 (30 min) · monthly manager-of-managers review · peer pairs every "
        "two weeks, with reflection in between.",
        [
            "Ask before telling in every 1:1 this week; count how often you managed it.",
            "End every meeting you run with a named owner and a date for the next step.",
            "Ask two people for feedback on one thing this week and log what you hear.",
        ],
    ),
    "Sales: calls and deals": (
        "sales",
        "Call reviews against the shared scorecard, role-plays on the hard moments, and "
        "multi-threaded deals.",
        [
            "Discovery before demo: three open questions before anything is shown.",
            "Objections are acknowledged and explored before they are answered.",
            "Every deal over 50k has a named economic buyer and a second contact.",
        ],
        [
            "Let's pull up the call. What's one thing you'd have done differently?",
            "What did the customer say that told you that?",
            "Who else needs to say yes, and when did you last speak to them?",
        ],
        "Weekly team call review (45 min, peer-led, manager last) · monthly skill "
        "role-play · one call clip of the week shared as a win.",
        [
            "Lead with a question instead of the agenda on your next three first calls.",
            "Stay silent for three seconds after every price you say this week.",
            "Ask every champion this week who else will be in the decision.",
        ],
    ),
    "Engineering: reviews and incidents": (
        "engineering",
        "Coaching through the work engineers already do: code review, design review and "
        "incident retrospectives.",
        [
            "Review comments describe what the code does and why it matters, not who wrote it.",
            "Every incident retrospective ends with one owned experiment, not a blame list.",
            "Design decisions are written down before they are argued about.",
        ],
        [
            "What did you expect this change to do, and what did it do?",
            "What would you try first if this broke again at 3 a.m.?",
            "What assumption in this design are you least sure of?",
        ],
        "Weekly 1:1 around one pull request or design · monthly retrospective "
        "facilitation practice · pairs across teams every two weeks.",
        [
            "Phrase every review comment this week as a question and note the replies.",
            "Write the rollback plan before the change on your next two deploys.",
            "Facilitate one retrospective with a timed silent-writing round.",
        ],
    ),
    "Customer support: conversations": (
        "support",
        "Coaching on real tickets and calls: empathy you can hear, resolution the "
        "customer agrees to.",
        [
            "Restate the customer's problem in their words before solving it.",
            "Every conversation ends with what happens next and when.",
            "Escalations carry the evidence, so nobody asks the customer twice.",
        ],
        [
            "Let's read the ticket back. Where did the customer start to relax?",
            "What did you promise, and did the customer agree to it?",
            "What would have let you solve it in the first reply?",
        ],
        "Weekly 1:1 around one ticket or call · fortnightly ticket review in the team · "
        "peer pairs mixing new and experienced agents.",
        [
            "Open your next ten replies by restating the problem; watch the reopen rate.",
            "Offer a callback time instead of 'we'll be in touch' for a week.",
            "Write one saved reply with a colleague and both use it for a week.",
        ],
    ),
}


def seed_programme_content(apps, *, peers: str = "peers", learning: str = "learning") -> None:
    """`apps`: the migration's historical registry, or the live one. `peers` and
    `learning`: the apps holding the agreement template and the playbook modules
    (coaching's own, in migration 0007, before they moved)."""
    AgreementTemplate = apps.get_model(peers, "AgreementTemplate")
    Prompt = apps.get_model("coaching", "Prompt")
    PlaybookModule = apps.get_model(learning, "PlaybookModule")
    if not AgreementTemplate.objects.exists():
        AgreementTemplate.objects.create(text=AGREEMENT)
    if not Prompt.objects.filter(step="experiment").exists():
        Prompt.objects.bulk_create(
            Prompt(step="experiment", kind="", text=text, position=n)
            for n, text in enumerate(EXPERIMENT_PROMPTS)
        )
    for position, (name, (department, summary, goals, prompts, cadence, experiments)) in enumerate(
        PLAYBOOK.items()
    ):
        if PlaybookModule.objects.filter(name=name).exists():
            continue
        PlaybookModule.objects.create(
            name=name,
            department=department,
            summary=summary,
            goals="\n".join(goals),
            prompts="\n".join(prompts),
            cadence=cadence,
            experiments="\n".join(experiments),
            position=position,
        )
