"""The starter library: five scorecard templates a new programme can use on day one
(and edit: a programme admin's first edit of an unused version is made in place).

Each criterion is an observable behaviour — something a recording shows — on a 1–4
scale with an anchor for every level, the criterion that matters most weighted
higher. Idempotent by name: a template someone already made under one of these names
is left alone. Written by migration 0003, which passes its historical models."""

SCALE = 4

# name → (description, [(title, behaviour, weight, {level: anchor}), ...])
LIBRARY = {
    "Discovery call": (
        "A first conversation that finds the customer's problem before proposing anything.",
        [
            (
                "Open questions before the pitch",
                "Asks at least three open questions (what, how, tell me about…) before "
                "sharing a screen or describing the product.",
                "2",
                {
                    1: "Shares the screen or pitches within the first five minutes; the "
                    "questions asked are closed or leading.",
                    2: "Asks one or two open questions, then moves to the product before "
                    "the answers are explored.",
                    3: "Asks three or more open questions before any product talk and "
                    "follows up on at least one answer.",
                    4: "Each question builds on the customer's own words; the product "
                    "appears only after they have described the problem and its impact.",
                },
            ),
            (
                "Listening and summarising",
                "Lets the customer finish, leaves a pause after each question, and "
                "summarises the customer's words back before responding.",
                "1",
                {
                    1: "Interrupts, or answers their own question; every pause is filled.",
                    2: "Lets the customer finish but goes to the next scripted question "
                    "without following up.",
                    3: "Summarises the customer's point back at least once, and the "
                    "customer confirms or corrects it.",
                    4: "Summarises in the customer's words, lets silences run, and follows "
                    "the thread the customer opens rather than the script.",
                },
            ),
            (
                "Business problem and cost of inaction",
                "Names the business problem behind the request and asks what happens if "
                "nothing changes: the cost, the deadline, who is affected.",
                "1.5",
                {
                    1: "Takes the feature request at face value; no problem or impact is "
                    "discussed.",
                    2: "A problem is named, but not its cost, its owner or a deadline.",
                    3: "States the problem back with at least one measure of its cost or a "
                    "deadline the customer named.",
                    4: "The customer describes the problem, its cost, who feels it and what "
                    "happens if they do nothing, and agrees with the summary.",
                },
            ),
            (
                "Stakeholders and next step",
                "Asks who else is involved in the decision and ends with a dated next step "
                "the customer agreed to, with an owner on their side.",
                "1",
                {
                    1: "The call ends on “I'll send something over”; nobody else is named.",
                    2: "A next step is proposed but has no date, or only the person on the "
                    "call is named.",
                    3: "A dated next step is agreed on the call, and at least one other "
                    "stakeholder is named.",
                    4: "The next meeting is booked before hanging up, with the economic "
                    "buyer or a second stakeholder invited and an owner on their side.",
                },
            ),
        ],
    ),
    "Objection handling": (
        "Meeting pushback on price, timing or the incumbent with curiosity before answers.",
        [
            (
                "Acknowledge before answering",
                "Acknowledges the concern out loud (“That's fair”, restating it) before "
                "giving any answer.",
                "1",
                {
                    1: "Answers or argues immediately; the concern is never acknowledged.",
                    2: "A quick “sure, but…” before the answer.",
                    3: "Restates the concern in the customer's words before answering.",
                    4: "Restates the concern, checks it is the real one, and the customer "
                    "agrees before any answer.",
                },
            ),
            (
                "Ask what's behind it",
                "Asks at least one question about the objection (“Compared to what?”, "
                "“What's behind that?”) before responding to it.",
                "2",
                {
                    1: "No question: goes straight to a rebuttal or a discount.",
                    2: "Asks a closed question (“Is it the price?”) and answers it.",
                    3: "Asks an open question and lets the customer explain before responding.",
                    4: "Follows up until the underlying concern is named, and answers that "
                    "rather than the first objection.",
                },
            ),
            (
                "Answer with evidence",
                "Responds with a specific customer story, number or proof point tied to "
                "the concern, not a list of features.",
                "1",
                {
                    1: "Repeats the pitch or lists features.",
                    2: "Gives a generic claim (“customers love it”) without specifics.",
                    3: "Gives one specific story or number that matches the concern.",
                    4: "Offers a comparable customer's story with a number and offers to "
                    "connect them.",
                },
            ),
            (
                "Hold value: trade, don't give",
                "Offers no discount unprompted; when a concession comes up, asks for "
                "something in return (term, volume, a reference).",
                "1",
                {
                    1: "Offers a discount before the customer asks for one.",
                    2: "Concedes on the first ask, or says “let me check with my manager”.",
                    3: "Holds the price through the first pushback.",
                    4: "Holds the price and, when a concession is made, trades it for "
                    "something named.",
                },
            ),
            (
                "Check it landed",
                "Asks whether the answer resolved the concern (“Does that address it?”) "
                "before moving on.",
                "1",
                {
                    1: "Moves on without checking.",
                    2: "“Makes sense?” without waiting for the answer.",
                    3: "Asks whether the concern is resolved and waits for the answer.",
                    4: "Checks, and when it is not resolved, agrees a next step for the "
                    "concern (a call with a reference, a trial).",
                },
            ),
        ],
    ),
    "Product demo": (
        "Showing the product against the problems found in discovery, not a feature tour.",
        [
            (
                "Recap before the demo",
                "Opens by recapping the customer's problems in their words and agreeing "
                "what the demo will cover before sharing the screen.",
                "1.5",
                {
                    1: "Starts the demo with no recap or agenda.",
                    2: "Recaps from the rep's notes without checking with the customer.",
                    3: "Recaps the problems and the customer confirms or adds to them.",
                    4: "Recaps, the customer confirms, and the demo order is agreed around "
                    "their top problem.",
                },
            ),
            (
                "Tailored to their problem",
                "Shows only the workflows tied to the problems the customer named, with "
                "their terms, data or examples.",
                "1",
                {
                    1: "The standard tour, every feature in menu order.",
                    2: "Mostly the standard tour, with one part linked to their problem.",
                    3: "Every section is introduced by the problem it solves for them.",
                    4: "Uses the customer's own example or data and skips what does not "
                    "apply, saying so.",
                },
            ),
            (
                "Checks in as it goes",
                "Pauses after each section and asks how it would work in their team.",
                "1",
                {
                    1: "No pauses; questions are left for the end.",
                    2: "“Any questions?” once or twice.",
                    3: "Asks an open question after each section.",
                    4: "Questions after each section change what is shown next.",
                },
            ),
            (
                "Customer talk time",
                "Stops talking to let the customer speak: they talk for at least a third "
                "of the demo.",
                "1",
                {
                    1: "The customer speaks for less than 10% of the demo.",
                    2: "The customer speaks for 10–25%.",
                    3: "The customer speaks for about a third.",
                    4: "The customer speaks for 40% or more and drives part of the demo.",
                },
            ),
            (
                "Agreed next step",
                "Ends with a dated next step the customer agreed to, with an owner on their side.",
                "1",
                {
                    1: "Ends on “I'll send the deck over”.",
                    2: "A next step without a date or an owner.",
                    3: "A dated next step agreed on the call.",
                    4: "The next meeting is in the calendar before hanging up, with the "
                    "people who decide invited.",
                },
            ),
        ],
    ),
    "Cold-call opener": (
        "The first minute of an outbound call: earn the next two.",
        [
            (
                "Permission-based opener",
                "Gives name and company, the reason for the call in one sentence, and "
                "asks for a moment of the prospect's time.",
                "1",
                {
                    1: "Launches into a pitch without introducing the call.",
                    2: "Introduces themselves but the reason is vague or takes a minute.",
                    3: "Name, company and a one-sentence reason, then asks for 30 seconds.",
                    4: "A one-sentence reason specific to the prospect, then asks for time "
                    "and waits for the answer.",
                },
            ),
            (
                "Relevant reason for calling",
                "Names a specific trigger or problem for the prospect's role or company "
                "(a hire, news, a peer's example) within the first 30 seconds.",
                "2",
                {
                    1: "No reason beyond selling the product.",
                    2: "A generic problem for their industry.",
                    3: "A trigger specific to their company or role.",
                    4: "A trigger specific to them, tied to a result a peer company got.",
                },
            ),
            (
                "Question, not pitch",
                "Asks an open question about the prospect's situation within the first "
                "minute instead of describing the product.",
                "1",
                {
                    1: "Describes the product for the whole first minute.",
                    2: "Asks a closed question (“Do you use spreadsheets?”).",
                    3: "Asks an open question within the first minute.",
                    4: "Asks an open question and follows up on the answer.",
                },
            ),
            (
                "Handles the brush-off",
                "When the prospect says “not interested” or “send me an email”, "
                "acknowledges it and asks one question before accepting.",
                "1",
                {
                    1: "Hangs up or argues.",
                    2: "Agrees to send an email, nothing more.",
                    3: "Acknowledges and asks one question before accepting.",
                    4: "Acknowledges, asks one question, and turns the answer into a "
                    "reason to meet.",
                },
            ),
            (
                "Clear ask",
                "Ends with a specific request: a meeting with a date and time, or the name "
                "of the right person.",
                "1",
                {
                    1: "No ask.",
                    2: "“Can I follow up sometime?”",
                    3: "Asks for a meeting with two concrete time slots.",
                    4: "A meeting in the calendar before hanging up, or a named referral "
                    "with permission to use their name.",
                },
            ),
        ],
    ),
    "Project retrospective facilitation": (
        "Running a retrospective where the team learns from what happened, not whom to blame.",
        [
            (
                "Sets the frame",
                "Opens by stating the goal, the timebox and the ground rules (blameless, "
                "what is said stays in the room) before discussion starts.",
                "1",
                {
                    1: "Starts with “so, what went wrong?”.",
                    2: "States the goal but not the ground rules or the timebox.",
                    3: "Goal, timebox and ground rules stated before discussion.",
                    4: "Frame stated and agreed; the facilitator points back to it when the "
                    "conversation drifts.",
                },
            ),
            (
                "Facts before opinions",
                "Builds a shared timeline of what happened, with dates and evidence, before "
                "asking for interpretations.",
                "1",
                {
                    1: "Goes straight to opinions about what went wrong.",
                    2: "A timeline from the facilitator's memory, not checked with the team.",
                    3: "The team builds the timeline together before discussing causes.",
                    4: "Timeline with evidence (tickets, messages, dates); disagreements "
                    "about facts settled before causes.",
                },
            ),
            (
                "Everyone contributes",
                "Invites every participant to contribute (silent writing, a round) and "
                "draws in people who have not spoken.",
                "1",
                {
                    1: "Two or three voices fill the meeting.",
                    2: "Asks “anyone else?” without drawing anyone in.",
                    3: "Uses silent writing or a round so everyone contributes once.",
                    4: "Everyone contributes, and the quietest people are asked by name "
                    "about their part.",
                },
            ),
            (
                "Causes in the system, not people",
                "Asks what made the problem possible (process, tooling, information) and "
                "redirects when someone names a person as the cause.",
                "1",
                {
                    1: "A person is named as the cause and nobody redirects.",
                    2: "Blame is redirected but no system cause is found.",
                    3: "At least one cause in the process or tooling is named.",
                    4: "Causes traced to the conditions that made the mistake easy, and "
                    "the team agrees on them.",
                },
            ),
            (
                "Actions with owners",
                "Ends with at most three actions, each with one owner and a date, written "
                "where the team can see them.",
                "2",
                {
                    1: "No actions, or “we should be more careful”.",
                    2: "Actions without owners or dates.",
                    3: "Up to three actions, each with an owner and a date.",
                    4: "Owned, dated actions, and the last retro's actions reviewed first.",
                },
            ),
        ],
    ),
}


def seed_starter_library(apps) -> None:
    """Write the starter templates that are missing (by name). `apps`: the historical
    registry in the migration, the live one elsewhere (the demo, tests)."""
    Template = apps.get_model("scorecards", "Template")
    TemplateVersion = apps.get_model("scorecards", "TemplateVersion")
    Criterion = apps.get_model("scorecards", "Criterion")
    CriterionVersion = apps.get_model("scorecards", "CriterionVersion")
    Anchor = apps.get_model("scorecards", "Anchor")
    for name, (description, criteria) in LIBRARY.items():
        if Template.objects.filter(name__iexact=name).exists():
            continue  # already there (a re-run, or an admin's own template)
        template = Template.objects.create(name=name, description=description)
        version = TemplateVersion.objects.create(template=template, number=1)
        anchors = []
        for position, (title, behaviour, weight, levels) in enumerate(criteria, start=1):
            row = CriterionVersion.objects.create(
                version=version,
                criterion=Criterion.objects.create(template=template),
                position=position,
                title=title,
                behaviour=behaviour,
                scale_max=SCALE,
                weight=weight,
            )
            anchors += [
                Anchor(criterion=row, level=level, description=text)
                for level, text in sorted(levels.items())
            ]
        Anchor.objects.bulk_create(anchors)
