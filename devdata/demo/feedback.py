"""Feedback for the demo organisation: both streams in every direction, open and
answered requests (half the reps asked a peer and their manager earlier in the
quarter), acknowledgements with themes, items shared with a coach, and a wins feed
per team. Written through the services; only the moments are backdated so the history
spreads over the quarter (HR's feedback across the organisation reads it month by
month). Idempotent: skipped when any feedback exists."""

import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from coaching.models import Goal
from devdata.demo.coaching import last_held_end
from devdata.demo.people import HEAD, TEAMS, demo_email
from feedback import services
from feedback.models import Feedback, FeedbackRequest, RequestedResponder, Stream, Win
from people.models import Team, User

OBSERVATIONS = [
    (
        "On the Northwind call you asked three open questions before showing the product.",
        "Their CFO started describing the budget problem in her own words.",
        "Keep that order on the next first call and see if it happens again.",
    ),
    (
        "In Tuesday's review you summarised the customer's goal back before proposing anything.",
        "They corrected one detail, and the proposal landed on the real problem.",
        "Try it on the pricing step too.",
    ),
    (
        "You spoke for about 35 of the 45 minutes on the Hanse Logistics demo.",
        "The buyer asked no questions until the last five minutes.",
        "Pause after each section and ask what they would do with it.",
    ),
    (
        "When the price came up you offered a discount before they asked for one.",
        "The 10% became the starting point of the negotiation.",
        "State the price, then stay quiet for five seconds.",
    ),
    (
        "You shared your screen in the first two minutes of the Corvid discovery call.",
        "We never learned who else decides.",
        "Ask who else is involved before any demo.",
    ),
    (
        "In the team call review you went last and asked Pavel what he would change first.",
        "Three people spoke who usually stay quiet.",
        "Keep going last; it works.",
    ),
    (
        "You sent the recap email within the hour after the Lakeshore call.",
        "They replied the same day with two more stakeholders copied in.",
        "",
    ),
    (
        "In our 1:1 you let me name my own goal before suggesting one.",
        "I actually believe in the goal I picked.",
        "Do the same for the Options step — I had more ideas than I said.",
    ),
]

EVALUATIVE = [
    (
        "Quarter review: 11 of 12 discovery calls followed the agreed structure (recordings).",
        "Pipeline quality improved; two deals moved to proposal with a named economic buyer.",
        "Next quarter: multi-threading on every deal over 50k.",
    ),
    (
        "Quarter review: forecast accuracy within 8% for three months running.",
        "Leadership could plan hiring on your numbers.",
        "",
    ),
]

WINS = {
    "Enterprise East": [
        (
            "Call clip of the week: the five-second pause after the price",
            "https://calls.example.com/clips/pause",
        ),
        ("Northwind signed — first deal with a named economic buyer from discovery", ""),
    ],
    "Mid-Market Central": [
        (
            "Jordan turned a 'just send me pricing' into a discovery call",
            "https://calls.example.com/clips/turnaround",
        ),
    ],
    "EMEA Growth": [
        ("Castellana escalation closed with a renewal", ""),
        (
            "Call clip of the week: reaching the CFO through the champion",
            "https://calls.example.com/clips/cfo",
        ),
    ],
}


# Three reps' answers to their manager's anonymous question about the 1:1s.
ANONYMOUS_ANSWERS = [
    (
        "You sometimes answer your own question before I do.",
        "Leave a longer silence after asking.",
    ),
    (
        "When a deal slips we spend the whole 1:1 on the forecast, not on how I sell.",
        "Keep the pipeline review for the Monday call and the 1:1 for my goal.",
    ),
    (
        "The call clips you pick to review are the ones that went well.",
        "Pick one that went badly now and then, and let me choose the moment to look at.",
    ),
]


def _since_last_one_on_one(rep: User, coach: User, now):
    """A moment between the end of the last 1:1 `coach` held with `rep` and now (None
    without coaching history)."""
    last = last_held_end(rep, before=now, coach=coach)
    return None if last is None else last + (now - last) / 2


@transaction.atomic
def seed_feedback(*, rng_seed: int = 2026) -> str:
    if Feedback.objects.exists():
        return "Feedback already present — left as it is."
    rng = random.Random(rng_seed)  # noqa: S311 - demo data
    now = timezone.now()
    managers = {team: User.objects.get(email=demo_email(spec.key)) for team, spec in TEAMS.items()}
    head = User.objects.get(email=demo_email(HEAD.key))
    made = 0

    def backdate(item, days):
        Feedback.objects.filter(pk=item.pk).update(created_at=now - timedelta(days=days))

    def asked_earlier(requester, responders, days, topic):
        """A request made `days` ago, answered by every responder within a week."""
        request = services.feedback_request_create(
            requester=requester,
            responders=responders,
            due_on=timezone.localdate() + timedelta(days=1),
            topic=topic,
        )
        FeedbackRequest.objects.filter(pk=request.pk).update(
            created_at=now - timedelta(days=days), due_on=(now - timedelta(days=days - 10)).date()
        )
        for n, responder in enumerate(responders):
            text = OBSERVATIONS[(days + n) % len(OBSERVATIONS)]
            answer = services.feedback_request_answer(
                request=request,
                responder=responder,
                observation=text[0],
                impact=text[1],
                suggestion=text[2],
            )
            answered = now - timedelta(days=days - 2 - n)
            Feedback.objects.filter(pk=answer.pk).update(created_at=answered)
            RequestedResponder.objects.filter(request=request, responder=responder).update(
                answered_at=answered
            )
        return len(responders)

    for team_name, manager in managers.items():
        team = Team.objects.get(name=team_name)
        reps = list(User.objects.filter(reports_to=manager).order_by("display_name"))
        for i, rep in enumerate(reps):
            peer = reps[(i + 1) % len(reps)]
            text = OBSERVATIONS[i % len(OBSERVATIONS)]
            # peer → rep, developmental
            item = services.feedback_give(
                author=peer,
                recipient=rep,
                stream=Stream.DEVELOPMENTAL,
                observation=text[0],
                impact=text[1],
                suggestion=text[2],
            )
            days = rng.randint(3, 80)
            if i == 0 and (since := _since_last_one_on_one(rep, manager, now)):
                # Shared with the manager below: news beside their next 1:1.
                Feedback.objects.filter(pk=item.pk).update(created_at=since)
            else:
                backdate(item, days)
            made += 1
            # manager → rep, developmental; some acknowledged with themes, some shared
            down = OBSERVATIONS[(i + 3) % len(OBSERVATIONS)]
            item = services.feedback_give(
                author=manager,
                recipient=rep,
                stream=Stream.DEVELOPMENTAL,
                observation=down[0],
                impact=down[1],
                suggestion=down[2],
            )
            backdate(item, rng.randint(3, 80))
            made += 1
            goal = Goal.objects.active().filter(owner=rep).first()
            if i % 2 == 0:
                services.feedback_acknowledge(
                    feedback=item,
                    actor=rep,
                    reflection="Fair. I rush when I'm nervous about the price.",
                    themes=["discovery", "listening"] if i % 4 == 0 else ["pricing"],
                    goal=goal if i % 4 == 0 else None,
                )
            if i % 3 == 0:
                peer_item = Feedback.objects.filter(author=peer, recipient=rep).first()
                services.feedback_share(feedback=peer_item, actor=rep, person=manager)
            if i % 2 == 1:  # asked a peer and the manager, weeks ago
                days = 20 + (i * 17 + len(team_name)) % 60
                made += asked_earlier(rep, [peer, manager], days, "My last few discovery calls")
        # one evaluative review per team for the first two reps
        for rep, text in zip(reps[:2], EVALUATIVE, strict=False):
            item = services.feedback_give(
                author=manager,
                recipient=rep,
                stream=Stream.EVALUATIVE,
                observation=text[0],
                impact=text[1],
                suggestion=text[2],
            )
            backdate(item, rng.randint(10, 40))
            made += 1
        # upward: a rep to the manager
        up = OBSERVATIONS[7]
        services.feedback_give(
            author=reps[-1],
            recipient=manager,
            stream=Stream.DEVELOPMENTAL,
            observation=up[0],
            impact=up[1],
            suggestion=up[2],
        )
        made += 1
        # an anonymous upward request with three answers that closed two days ago, so
        # its answers are out (released together once over), and an open request
        anonymous = services.feedback_request_create(
            requester=manager,
            responders=reps[:4],
            due_on=timezone.localdate() + timedelta(days=10),
            question="What's one thing I could do differently in our 1:1s?",
            anonymous=True,
        )
        FeedbackRequest.objects.filter(pk=anonymous.pk).update(created_at=now - timedelta(days=12))
        anonymous.refresh_from_db()
        for rep, (observation, suggestion) in zip(reps[:3], ANONYMOUS_ANSWERS, strict=False):
            services.feedback_request_answer(
                request=anonymous, responder=rep, observation=observation, suggestion=suggestion
            )
        FeedbackRequest.objects.filter(pk=anonymous.pk).update(
            due_on=timezone.localdate() - timedelta(days=2)
        )
        asker = reps[0]
        services.feedback_request_create(
            requester=asker,
            responders=[reps[1], reps[2], manager],
            due_on=timezone.localdate() + timedelta(days=5),
            topic="My next two discovery calls",
            goal=Goal.objects.active().filter(owner=asker).first(),
        )
        for n, (title, link) in enumerate(WINS[team_name]):
            win = services.win_share(author=rng.choice(reps), team=team, title=title, link=link)
            Win.objects.filter(pk=win.pk).update(created_at=now - timedelta(days=3 + 30 * n))
    # the head asks his managers for feedback too
    services.feedback_request_create(
        requester=head,
        responders=list(managers.values()),
        due_on=timezone.localdate() + timedelta(days=14),
        question="What's one thing I could do differently to make our manager reviews more useful?",
    )
    return (
        f"Feedback written: {made} items, {FeedbackRequest.objects.count()} requests, "
        f"{Win.objects.count()} wins."
    )
