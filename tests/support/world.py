"""The feedback firewall, walked: every page and endpoint of the project — the apps,
the API, the admin site, allauth, the schema, calendar feeds, exports — requested
as HR, as a programme admin and as a skip-level manager (and the admin site as a
superuser) in a world full of developmental feedback in every direction, and not one
developmental word in any response body, header, email or notification; nor a
server error. The same walk as the recipient finds every word they may read.

Words are planted as markers: `DV…` in every developmental field (observation,
impact, suggestion) and in the recipient's private reflection and themes; `RQ…` in
the question and topic of developmental requests; `EP…` in the recipient's
reflection and themes on evaluative items; `PN…` in a coach's private note, a
diagnosis's notes, what a peer pair writes (notes, habits, check-ins; a leave
reason is the admins') and a coachee's comment rating a session (its rater's only:
not even the coach reads one rating); `SN…` in shared 1:1 notes, agenda and commitments (HR and
admins see counts only); `EV…` in evaluative words, which HR and the chain may read
— the positive control that the walk reaches content. Each marker knows who may
read it; any other reader seeing it fails the walk, naming the URL.

Routes come from the resolver (tests/support/urlwalk.py); a new route with parameters must
be filled in FILLS or skipped in SKIP with a reason, or
`test_every_route_is_walked_or_skipped_on_purpose` fails."""

import logging
import re
import time
from dataclasses import dataclass
from datetime import date, timedelta
from datetime import time as clock

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from allauth.account.utils import user_pk_to_url_str
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.socialaccount.models import SocialAccount, SocialApp, SocialToken
from django.core import mail
from django.template.base import Template
from django.utils import timezone
from django_celery_beat.models import (
    ClockedSchedule,
    CrontabSchedule,
    IntervalSchedule,
    PeriodicTask,
    SolarSchedule,
)

from cadence.calendar_services import calendar_feed_create_or_rotate
from cadence.models import (
    CadencePlan,
    CadencePolicy,
    CalendarFeed,
    Closure,
    PolicyAssignment,
    PolicyItem,
    Rollout,
)
from cadence.services import plan_create
from cadence.services_rollout import rollout_start, rollout_tick
from coaching.models import (
    AgendaItem,
    CoachingSession,
    Commitment,
    Diagnosis,
    FocusArea,
    Goal,
    Prompt,
)
from coaching.services import (
    agenda_item_add,
    commitment_create,
    goal_close,
    goal_create,
    manager_review_create,
    notes_save,
    private_note_save,
    session_mark_held,
    session_rating_save,
)
from coaching.services_diagnosis import diagnosis_record
from dashboards.exports import ORGANISATION_TABLES, TEAM_TABLES
from feedback import notifications as feedback_reminders
from feedback.models import Feedback, FeedbackRequest, InterpretiveTerm, Stream, Win
from feedback.services import (
    ANONYMITY_THRESHOLD,
    feedback_acknowledge,
    feedback_give,
    feedback_request_answer,
    feedback_request_create,
    feedback_request_decline,
    feedback_share,
    feedback_share_revoke,
    win_share,
)
from learning.models import Experiment, Learning, PlaybookModule
from notifications import outbox
from notifications.models import Notification, NotificationKind, NotificationStatus, TeamChannel
from peers.models import Habit, PeerPair
from people.import_worker import import_run
from people.models import PeopleImport, Team, User
from people.selectors import management_chain
from people.services import api_token_rotate, team_create, team_member_add
from people.services_imports import import_upload
from scorecards import services as scorecard_services
from scorecards.models import RecordedCall, Scorecard, ScoringRound
from scorecards.models import Template as ScorecardTemplate
from tests.support.factories import (
    FocusAreaFactory,
    InterpretiveTermFactory,
    PromptFactory,
    UserFactory,
    one_on_one,
)
from tests.support.urlwalk import concrete_paths, routes

# --- Markers --------------------------------------------------------------------------

# Eight letters and a three-digit number, matched case-insensitively and also when
# cut short after the letters: a random token (CSRF, session, calendar feed) spells
# the letters by chance about once in 10^12 positions.
MARKER = re.compile(r"(?i)(DV|RQ|EP|PN|SN|SC|EV)ZQMARK[0-9]{0,3}")
# What a reader must never see unless the marker names them. EV (evaluative words)
# is not checked: HR and the chain may read them; it is the positive control.
CHECKED = {"DV", "RQ", "EP", "PN", "SN", "SC"}
DEVELOPMENTAL = {"DV", "RQ", "EP"}  # the firewall proper: feedback and its private side
READERS = ["hr", "admin", "head"]


@dataclass(frozen=True)
class Plant:
    marker: str
    what: str  # e.g. "developmental upward rep→manager, reflection"
    readers: frozenset[str]  # who may see it (names as on `org`)

    @property
    def kind(self) -> str:
        return self.marker[:2]


class Garden:
    """Hands out unique markers and remembers who may read each."""

    def __init__(self):
        self.plants: dict[str, Plant] = {}

    def plant(self, kind: str, what: str, readers) -> str:
        marker = f"{kind}ZQMARK{len(self.plants):03d}"
        self.plants[marker] = Plant(marker, what, frozenset(readers))
        return marker

    def found_in(self, text: str) -> set[str]:
        """The markers in `text`, whole, or cut short (then as far as they go)."""
        return {match.group(0).upper() for match in MARKER.finditer(text)}

    def forbidden_for(self, reader: str, text: str, kinds=CHECKED) -> list[Plant]:
        """What `reader` may not see of what is in `text`. A cut-off marker counts
        when any marker it could be the start of is forbidden."""
        forbidden = []
        for seen in self.found_in(text):
            could_be = [p for m, p in self.plants.items() if m.startswith(seen)]
            could_be = could_be or [Plant(seen, "a marker planted nowhere", frozenset())]
            forbidden += [p for p in could_be if p.kind in kinds and reader not in p.readers]
        return forbidden


# --- The world ------------------------------------------------------------------------


@dataclass
class World:
    org: type
    garden: Garden
    names: dict[int, str]  # user pk → name on `org` (and r3, r4)
    people: dict[str, User]
    team: object = None


@pytest.fixture
def world(org, settings):
    settings.SITE_URL = "https://tandem.example"
    people = {
        name: getattr(org, name)
        for name in ("head", "manager", "other_manager", "rep", "peer", "other_rep", "hr", "admin")
    }
    # Two more reports of the manager, so an anonymous upward request can be asked.
    people["r3"] = UserFactory(
        display_name="Rami Three", email="r3@example.com", manager=org.manager
    )
    people["r4"] = UserFactory(
        display_name="Rosa Four", email="r4@example.com", manager=org.manager
    )
    # Whoever runs the installation: every permission on the admin site.
    people["root"] = UserFactory(
        display_name="Sam Superuser", email="root@example.com", is_staff=True, is_superuser=True
    )
    names = {user.pk: name for name, user in people.items()}
    garden = Garden()
    w = World(org, garden, names, people)
    p = people

    def chain(user) -> set[str]:
        return {names[m.pk] for m in management_chain(person=user) if m.pk in names}

    def give(author, recipient, stream, label, *, request=None, shares=(), revoked=()):
        """One item with a marker in every field, acknowledged by its recipient with a
        marked reflection and theme; shared with `shares` (and `revoked`, then taken
        back)."""
        a, r = names[author.pk], names[recipient.pk]
        what = f"{stream} {label} {a}→{r}"
        if stream == Stream.DEVELOPMENTAL:
            words = {a, r, *shares}
            kind = "DV"
        else:
            words = {a, r, *chain(recipient), "hr"}
            kind = "EV"
        if request is not None and request.anonymous:
            # Held back from everyone but its author until enough answers arrived;
            # the requester sees it after that (without the author's name).
            words = {a} if label.endswith("(held back)") else {a, r}
        text = {
            f: f"{garden.plant(kind, f'{what}, {f}', words)} {sentence}"
            for f, sentence in (
                ("observation", "you let the buyer finish before answering"),
                ("impact", "they told you the real budget"),
                ("suggestion", "try it on the next renewal call"),
            )
        }
        if request is not None:
            item = feedback_request_answer(request=request, responder=author, **text)
        else:
            item = feedback_give(author=author, recipient=recipient, stream=stream, **text)
        if label.endswith("(held back)"):
            return item  # its recipient cannot see it yet, so cannot acknowledge it
        private = "DV" if stream == Stream.DEVELOPMENTAL else "EP"
        feedback_acknowledge(
            feedback=item,
            actor=recipient,
            reflection=f"{garden.plant(private, f'{what}, reflection', {r})} I rush at the price",
            themes=[garden.plant(private, f"{what}, theme", {r})],
        )
        for person in (*shares, *revoked):
            feedback_share(feedback=item, actor=recipient, person=p[person])
        for person in revoked:
            feedback_share_revoke(feedback=item, actor=recipient, person=p[person])
        return item

    def ask(requester, responders, stream=Stream.DEVELOPMENTAL, **kw):
        who = {names[requester.pk], *(names[x.pk] for x in responders)}
        kind = "RQ" if stream == Stream.DEVELOPMENTAL else "EV"
        label = f"{stream} request by {names[requester.pk]}"
        return feedback_request_create(
            requester=requester,
            responders=responders,
            due_on=timezone.localdate() + timedelta(days=1),  # due tomorrow: reminders too
            stream=stream,
            question=f"{garden.plant(kind, f'{label}, question', who)} What could I do better?",
            topic=f"{garden.plant(kind, f'{label}, topic', who)} discovery calls",
            **kw,
        )

    dev, ev = Stream.DEVELOPMENTAL, Stream.EVALUATIVE
    # Developmental, in every direction.
    give(p["manager"], p["rep"], dev, "downward")
    give(p["rep"], p["manager"], dev, "upward")
    give(p["peer"], p["rep"], dev, "peer, shared with the manager", shares=["manager"])
    give(p["rep"], p["rep"], dev, "self, shared with the manager", shares=["manager"])
    give(p["other_rep"], p["rep"], dev, "across teams, share revoked", revoked=["manager"])
    give(p["rep"], p["peer"], dev, "peer")
    give(p["other_manager"], p["other_rep"], dev, "downward, other team")
    asked = ask(p["rep"], [p["peer"], p["manager"], p["other_manager"]])
    give(p["peer"], p["rep"], dev, "answer to a request", request=asked)
    feedback_request_decline(request=asked, responder=p["other_manager"])
    # Anonymous upward: one request with enough answers to show, one still below.
    reports = [p["rep"], p["peer"], p["r3"], p["r4"]]
    shown = ask(p["manager"], reports[:ANONYMITY_THRESHOLD], anonymous=True)
    for author in reports[:ANONYMITY_THRESHOLD]:
        give(author, p["manager"], dev, "anonymous answer", request=shown)
    held = ask(p["manager"], reports, anonymous=True)
    give(p["rep"], p["manager"], dev, "anonymous answer (held back)", request=held)
    # Evaluative, whose words HR and the chain may read (their private side not).
    give(p["manager"], p["rep"], ev, "downward")
    give(p["head"], p["rep"], ev, "skip-level")
    give(p["peer"], p["rep"], ev, "peer")
    give(p["manager"], p["peer"], ev, "downward")
    review = ask(p["rep"], [p["peer"]], stream=ev)
    give(p["peer"], p["rep"], ev, "answer to a request", request=review)
    assert Feedback.objects.filter(stream=dev).count() == 12

    # Coaching around the same people: sessions, notes, agenda, commitments, plans.
    focus = FocusAreaFactory(name="Discovery")
    PromptFactory(text="What would good look like?")
    InterpretiveTermFactory(phrase="always")
    coaching_text = {"manager", "rep", "head"}  # coach, coachee, the coachee's chain
    # Development goals: the owner and their chain read them, and whoever is asked for
    # feedback on one reads its title. The rep links feedback they received to theirs
    # (a private link: the item's readers do not learn it).
    goal = goal_create(
        owner=p["rep"],
        actor=p["rep"],
        title=f"{garden.plant('SN', 'goal, title', coaching_text | {'peer'})} discovery",
        success=f"{garden.plant('SN', 'goal, success', coaching_text)} two questions a call",
        focus_area=focus,
    )
    dropped = goal_create(
        owner=p["rep"],
        actor=p["manager"],
        title=f"{garden.plant('SN', 'dropped goal', coaching_text)} cold calls",
    )
    goal_close(goal=dropped, actor=p["rep"], status="dropped")
    goal_create(
        owner=p["manager"],
        actor=p["manager"],
        title=f"{garden.plant('SN', 'manager goal', {'manager', 'head'})} ask first",
    )
    for item in Feedback.objects.filter(recipient=p["rep"], acknowledged_at__isnull=False):
        feedback_acknowledge(feedback=item, actor=p["rep"], reflection=item.reflection, goal=goal)
    ask(p["rep"], [p["peer"]], goal=goal, focus_area=focus)
    start = timezone.now() + timedelta(days=1)
    # Taken place an hour ago, so it can be logged held (and then rated) below.
    held_session = one_on_one(
        p["manager"], p["rep"], start=timezone.now() - timedelta(hours=1), focus_area=focus
    )
    upcoming = one_on_one(p["manager"], p["rep"], start=start + timedelta(days=7))
    one_on_one(p["manager"], p["peer"], start=start + timedelta(hours=2))
    one_on_one(p["other_manager"], p["other_rep"], start=start + timedelta(hours=3))
    review_session = manager_review_create(
        coach=p["head"], manager=p["manager"], start=timezone.now() - timedelta(hours=2)
    )
    for session, readers in ((held_session, coaching_text), (upcoming, coaching_text)):
        notes_save(
            session=session,
            actor=p["manager"],
            base_version=0,
            changes={
                "goal": f"{garden.plant('SN', 'shared notes, goal', readers)} close two deals",
                "reality": f"{garden.plant('SN', 'shared notes, reality', readers)} one so far",
            },
        )
        private_note_save(
            session=session,
            author=p["manager"],
            base_version=0,
            text=f"{garden.plant('PN', 'coach private note', {'manager'})} seems tired",
        )
        agenda_item_add(
            session=session,
            actor=p["rep"],
            text=f"{garden.plant('SN', 'agenda item', readers)} the Acme pricing call",
        )
        commitment_create(
            session=session,
            actor=p["manager"],
            text=f"{garden.plant('SN', 'commitment', readers)} ask two open questions",
            evidence="Two recorded calls",
            due_on=timezone.localdate() + timedelta(days=7),
        )
    private_note_save(
        session=review_session,
        author=p["head"],
        base_version=0,
        text=f"{garden.plant('PN', 'skip-level private note', {'head'})} coaching is rushed",
    )
    session_mark_held(session=held_session, actor=p["manager"])
    # Session usefulness: a rating's comment is its rater's alone — the coach reads
    # comments only inside a summary over five ratings from three people (never
    # reached here), their managers the numbers only, HR and admins nothing. The
    # manager rates the head's review too, so the head walks as a rated coach.
    session_rating_save(
        session=held_session,
        rater=p["rep"],
        score=2,
        comment=f"{garden.plant('PN', 'rating comment on a 1:1', {'rep'})} felt rushed",
    )
    session_mark_held(session=review_session, actor=p["head"])
    session_rating_save(
        session=review_session,
        rater=p["manager"],
        score=4,
        comment=f"{garden.plant('PN', 'rating comment on a review', {'manager'})} useful",
    )
    _scorecards(garden, p, focus)
    _peer_pairs(garden, p, focus)
    plan = plan_create(
        kind="one_on_one",
        coach=p["manager"],
        coachee=p["rep"],
        weekday=1,
        local_time=clock(10, 0),
        generate=False,
    )
    plan_create(
        kind="manager_review",
        coach=p["head"],
        coachee=p["manager"],
        weekday=2,
        local_time=clock(11, 0),
        generate=False,
    )
    team = team_create(name="Mia's team", lead=p["manager"])
    for person in ("rep", "peer", "r3", "r4"):
        team_member_add(team=team, person=p[person])
    win_share(author=p["rep"], team=team, title="Pricing pause of the week")
    w.team = team
    _learning_loop(garden, p, team, held_session)
    # An install plan (no one's words in it: the walk proves its pages serve everyone
    # who may see them without an error).
    rollout = rollout_start(team=team, actor=p["manager"], starts_on=timezone.localdate())
    rollout_tick(rollout=rollout, actor=p["manager"], item="recordings_on")
    # A people import, checked and ready to apply (names and emails only, no one's words).
    people_file = (
        "email,name,manager_email,team,time_zone,role\n"
        f"nina.new@example.com,Nina New,{p['manager'].email},,Europe/Berlin,\n"
    )
    job = import_upload(actor=p["admin"], file_name="new-starters.csv", raw=people_file.encode())
    import_run(job.pk)
    # Diagnoses: the coach's working hypothesis, read by its author and the people
    # above the author — never the coachee, HR or a programme admin.
    diagnosed = [("manager", "rep"), ("head", "manager"), ("other_manager", "other_rep")]
    for author, coachee in diagnosed:
        readers = {author} | chain(p[author])
        diagnosis_record(
            author=p[author],
            coachee=p[coachee],
            knows_how=True,
            believes=False,
            has_framework=None,
            has_system=None,
            notes=f"{garden.plant('PN', f'diagnosis of {coachee}, notes', readers)} it is admin",
        )
    for person in ("rep", "manager", "head", "hr", "admin"):
        calendar_feed_create_or_rotate(person=p[person])
    api_token_rotate(person=p["rep"])
    _admin_rows(people)

    # Notifications: reminders, a miss escalated to the head, digests; then send.
    for person in ("manager", "rep"):
        Notification.objects.create(
            kind=NotificationKind.UPCOMING, recipient=p[person], session=upcoming
        )
    Notification.objects.create(kind=NotificationKind.ESCALATION, recipient=p["head"], plan=plan)
    for person in ("manager", "head"):
        Notification.objects.create(
            kind=NotificationKind.DIGEST, recipient=p[person], period="2026-W10"
        )
    feedback_reminders.due_queue()
    outbox.drain()
    return w


def _scorecards(garden, p, focus):
    """Scorecards are developmental: their words (evidence, keep, try) stay with the
    people in the round and the subject's managers. A coach round both scored, a
    self-assessment, and a closed calibration among the managers."""
    template = scorecard_services.template_create(
        actor=p["admin"],
        name="Walk discovery call",
        criteria=[
            scorecard_services.CriterionSpec("Open questions", "Asks before pitching."),
            scorecard_services.CriterionSpec("Next step", "Ends with a dated next step."),
        ],
    )
    focus.criteria.set(template.criteria.all())
    call = scorecard_services.recorded_call_create(
        actor=p["manager"],
        person=p["rep"],
        title="Northwind discovery",
        call_date=timezone.localdate(),
        url="https://calls.example.com/1",
    )

    def score(person, scoring, readers, what):
        criteria = list(scoring.version.criteria.order_by("position"))
        scores = [
            scorecard_services.ScoreInput(
                criterion=c.pk,
                rating=2 + i,
                evidence_at="04:10",
                evidence=f"{garden.plant('SC', f'{what}, evidence', readers)} asked why",
            )
            for i, c in enumerate(criteria)
        ]
        scorecard_services.scorecard_save(
            actor=person,
            scoring=scoring,
            scores=scores,
            keep=f"{garden.plant('SC', f'{what}, keep', readers)} the pause",
            try_next=f"{garden.plant('SC', f'{what}, try', readers)} a second question",
            submit=True,
        )

    coached = scorecard_services.coach_scoring_open(
        actor=p["manager"], work=call, template=template
    )
    around_rep = {"rep", "manager", "head"}
    score(p["manager"], coached, around_rep, "coach's scorecard")
    score(p["rep"], coached, around_rep, "rep's self-assessment")
    alone = scorecard_services.self_assessment_open(actor=p["rep"], work=call, template=template)
    score(p["rep"], alone, around_rep, "rep's self-only scorecard")
    calibration = scorecard_services.calibration_open(
        actor=p["head"],
        work=call,
        template=template,
        raters=[p["manager"], p["other_manager"]],
        title="Walk calibration",
    )
    raters = {"manager", "other_manager", "head"}
    score(p["manager"], calibration, raters, "calibration, manager")
    score(p["other_manager"], calibration, raters, "calibration, other manager")
    scorecard_services.round_close(actor=p["head"], scoring=calibration)


def _peer_pairs(garden, p, focus):
    """Peer pairs: what a pair writes (notes, habits, check-ins) is read by its members
    only — not whoever formed it (a manager, the programme admin), not the skip-level,
    not HR. A reason given for leaving is read by programme admins only. A pair formed
    by the manager with its sessions planned, one formed by the admin, and a trio one
    member left with a reason."""
    from cadence.engine import occurrences_generate
    from peers import services as pairs

    def formed(actor, *members, **extra):
        pair = pairs.pair_create(
            actor=actor,
            members=list(members),
            rationale="complementary",
            weekday=3,
            local_time=clock(15, 0),
            focus_area=focus,
            **extra,
        )
        for person in members:
            pairs.pair_accept(pair=pair, actor=person)
        return pair

    def words(pair, *members):
        names = {n for n, u in p.items() if u in members}
        for author in members:
            pairs.pair_note_add(
                pair=pair,
                actor=author,
                text=f"{garden.plant('PN', 'pair note', names)} I freeze at the price",
            )
        habit = pairs.habit_add(
            pair=pair,
            actor=members[0],
            text=f"{garden.plant('PN', 'pair habit', names)} pause after the number",
        )
        return habit, names

    mine = formed(p["manager"], p["rep"], p["peer"])
    occurrences_generate(plan_ids=list(mine.plans.values_list("pk", flat=True)))
    habit, names = words(mine, p["rep"], p["peer"])
    session = CoachingSession.objects.filter(occurrence__plan__pair=mine).earliest(
        "scheduled_start"
    )
    pairs.habit_check_in(
        habit=habit,
        actor=p["peer"],
        outcome="partly",
        note=f"{garden.plant('PN', 'pair check-in', names)} once of twice",
        session=session,
    )
    admins = formed(p["admin"], p["rep"], p["other_rep"])
    words(admins, p["rep"], p["other_rep"])
    trio = formed(p["admin"], p["peer"], p["r3"], p["r4"])
    words(trio, p["peer"], p["r3"], p["r4"])
    pairs.pair_leave(
        pair=trio,
        actor=p["r4"],
        reason=f"{garden.plant('PN', 'pair leave reason', {'admin', 'root'})} my manager",
    )
    forming = pairs.pair_create(
        actor=p["head"],
        members=[p["manager"], p["other_manager"]],
        rationale="similar",
        weekday=0,
        local_time=clock(9, 0),
    )
    pairs.pair_decline(
        pair=forming,
        actor=p["other_manager"],
        reason=f"{garden.plant('PN', 'pair decline reason', {'admin', 'root'})} no time",
    )


def _learning_loop(garden, p, team, session):
    """Experiments are read by their owner, the owner's chain and their current
    partners in the pair they are linked to; a team's learnings by its current
    members, its lead and the author — not HR, admins or the skip-level (the head is
    above the lead, not on the team). Organisation learnings are everyone's."""
    from learning import selectors as selectors_learning
    from learning import services as services_learning

    pairs = selectors_learning.pairs_to_link(owner=p["rep"])
    pair = pairs.filter(members__person=p["peer"]).first()  # formed by the manager
    shared = {"rep", "manager", "head"} | ({"peer"} if pair else set())
    others = {"other_rep", "other_manager", "head"}
    for owner, readers, linked in (("rep", shared, pair), ("other_rep", others, None)):
        experiment = services_learning.experiment_create(
            owner=p[owner],
            hypothesis=f"{garden.plant('SN', f'{owner} experiment, hypothesis', readers)} pause",
            test=f"{garden.plant('SN', f'{owner} experiment, test', readers)} three calls",
            evidence=f"{garden.plant('SN', f'{owner} experiment, evidence', readers)} walks",
            pair=linked,
        )
        services_learning.experiment_finish(
            experiment=experiment,
            actor=p[owner],
            result=f"{garden.plant('SN', f'{owner} experiment, result', readers)} held twice",
            learning=f"{garden.plant('SN', f'{owner} experiment, learning', readers)} silence",
        )
        # Published to everyone in words of its own: the experiment stays private.
        services_learning.learning_publish(
            author=p[owner],
            kind="learning",
            title="Silence after the price",
            body="Three seconds after the number.",
            audience="organisation",
            tags="pricing",
            experiment=experiment,
        )
    services_learning.experiment_create(
        owner=p["manager"],
        hypothesis=f"{garden.plant('SN', 'manager experiment', {'manager', 'head'})} ask first",
        test="Ask before telling in every 1:1",
    )
    team_only = {"rep", "peer", "r3", "r4", "manager"}  # members and the lead
    services_learning.learning_publish(
        author=p["rep"],
        kind="checklist",
        title=f"{garden.plant('SN', 'team learning, title', team_only)} renewal checklist",
        body=f"{garden.plant('SN', 'team learning, body', team_only)} ask the champion",
        audience="team",
        team=team,
        tags="renewals, team",
        session=session,
    )
    team.playbook_modules.set(PlaybookModule.objects.filter(department__in=["core", "sales"]))


def _admin_rows(people):
    """At least one row of every model on the admin site, so every change, history
    and delete page is opened (the rest of the world fills the others)."""
    for person in people.values():
        EmailAddress.objects.create(user=person, email=person.email, primary=True, verified=True)
    RecoveryCodes.activate(people["rep"])
    app = SocialApp.objects.create(
        provider="openid_connect",
        provider_id="sso",
        name="Single sign-on",
        client_id="tandem",
        secret="not-a-secret",
        settings={"server_url": "https://id.example.com"},
    )
    account = SocialAccount.objects.create(user=people["rep"], provider="sso", uid="rita")
    SocialToken.objects.create(app=app, account=account, token="not-a-token")
    every_minute = IntervalSchedule.objects.create(every=1, period=IntervalSchedule.MINUTES)
    CrontabSchedule.objects.create(minute="0", hour="7")
    SolarSchedule.objects.create(event="sunrise", latitude=52.5, longitude=13.4)
    ClockedSchedule.objects.create(clocked_time=timezone.now() + timedelta(days=1))
    PeriodicTask.objects.create(name="walk", task="cadence.tasks.sweep", interval=every_minute)
    other_team = team_create(name="Omar's team", lead=people["other_manager"])
    policy = CadencePolicy.objects.create(name="Weekly rhythm")
    PolicyItem.objects.create(policy=policy, kind="one_on_one", local_time=clock(10))
    PolicyAssignment.objects.create(policy=policy, team=other_team)
    TeamChannel.objects.create(
        team=other_team, webhook_url="https://hooks.example.com/x", is_active=False
    )
    Closure.objects.create(
        name="Winter break", first_day=date(2099, 12, 24), last_day=date(2100, 1, 1)
    )


# --- Filling every route -----------------------------------------------------------------


def _pks(model, first=None):
    def fill():
        pks = model._default_manager.order_by("pk").values_list("pk", flat=True)
        return [{"pk": pk} for pk in pks[:first]]

    return fill


def _feedback_refs():
    """Every item by the address pages and the API use (`Feedback.ref`: an anonymous
    answer's random id), and every anonymous answer by its number too, which must
    reach nothing."""
    items = list(Feedback.objects.order_by("pk"))
    return [{"pk": item.ref} for item in items] + [
        {"pk": item.pk} for item in items if item.anonymous
    ]


def _feed_tokens():
    tokens = list(CalendarFeed.objects.order_by("pk").values_list("token", flat=True))
    return [{"token": t} for t in [*tokens, "no-such-token"]]


def _email_keys():
    return [{"key": EmailConfirmationHMAC(a).key} for a in EmailAddress.objects.order_by("pk")]


def _reset_keys():
    rows = []
    for user in User.objects.order_by("pk"):
        uid = user_pk_to_url_str(user)
        rows += [{"uidb36": uid, "key": default_token_generator.make_token(user)}]
    return [*rows, {"uidb36": rows[0]["uidb36"], "key": "set-password"}]


# Route name (or pattern, if unnamed) → values. Every object of each kind, so a page
# that shows one thing is opened for everything in the world.
FILLS_BY_MODEL = {
    Feedback: [
        "feedback_detail",
        "feedback_acknowledge",
        "feedback_share",
        "feedback_unshare",
        "api:feedback-detail",
        "api:feedback-acknowledge",
        "api:feedback-share",
        "api:feedback-unshare",
    ],
    FeedbackRequest: [
        "feedback_request_detail",
        "feedback_request_answer",
        "feedback_request_decline",
        "api:feedback-request-detail",
        "api:feedback-request-answer",
        "api:feedback-request-decline",
    ],
    CoachingSession: [
        "session_detail",
        "session_prepare",
        "session_notes_save",
        "session_notes_live",
        "private_note_save",
        "agenda_add",
        "commitment_add",
        "session_held",
        "session_rating",
        "session_cancel",
        "session_reschedule",
        "session_calendar",
        "call_review_scoring",
        "api:session-detail",
        "api:session-cancel",
        "api:session-held",
        "api:session-notes",
        "api:session-private-note",
        "api:session-rating",
        "api:session-reschedule",
        "api:session-since-last",
    ],
    AgendaItem: ["agenda_toggle", "agenda_delete", "api:agenda-item-detail"],
    Commitment: [
        "commitment_close",
        "commitment_reopen",
        "api:commitment-detail",
        "api:commitment-close",
        "api:commitment-reopen",
    ],
    CadencePlan: [
        "plan_edit",
        "plan_pause",
        "plan_end",
        "plan_restart",
        "programme_plan",
        "api:plan-detail",
        "api:plan-end",
        "api:plan-restart",
    ],
    CadencePolicy: ["policy_edit", "api:cadence-policy-detail"],
    TeamChannel: [
        "channel_change",
        "channel_switch",
        "channel_test",
        "channel_remove",
        "api:team-channel-detail",
        "api:team-channel-test",
    ],
    Closure: ["closure_remove", "api:closed-day-detail"],
    FocusArea: ["api:focus-area-detail", "focus_area_edit", "focus_area_end"],
    RecordedCall: ["call_detail", "call_score", "api:recorded-call-detail"],
    ScoringRound: [
        "round_detail",
        "round_scorecard_save",
        "round_decline",
        "round_close",
        "api:scoring-round-detail",
        "api:scoring-round-scorecard",
        "api:scoring-round-decline",
        "api:scoring-round-close",
    ],
    Scorecard: ["api:scorecard-detail"],
    ScorecardTemplate: [
        "template_detail",
        "template_edit",
        "template_retire",
        "api:scorecard-template-detail",
        "api:scorecard-template-retire",
        "api:scorecard-template-restore",
    ],
    Team: [
        "hr_team",
        "api:health-team",
        "team_skills",
        "team_rollout",
        "team_policy_apply",
        "team_policy_end",
        "api:team-cadence-detail",
        "api:team-cadence-preview",
        "rollout_tick",
        "rollout_untick",
        "team_playbooks",
        "api:team-playbook-detail",
        "api:team-detail",
        "api:team-members",
        "team_detail",
        "team_member_add",
    ],
    Rollout: ["api:rollout-detail", "api:rollout-tick", "api:rollout-untick"],
    PeopleImport: [
        "people_import_detail",
        "people_import_apply",
        "people_import_discard",
        "api:people-import-detail",
        "api:people-import-apply",
        "api:people-import-discard",
    ],
    Diagnosis: ["api:diagnosis-detail"],
    Goal: [
        "goal_edit",
        "goal_close",
        "goal_reopen",
        "api:goal-detail",
        "api:goal-close",
        "api:goal-reopen",
    ],
    Prompt: ["api:prompt-detail", "prompt_edit", "prompt_retire", "prompt_restore"],
    PeerPair: [
        "pair_detail",
        "pair_accept",
        "pair_decline",
        "pair_leave",
        "pair_end",
        "pair_agreement",
        "pair_note_add",
        "pair_habit_add",
        "api:peer-pair-detail",
        "api:peer-pair-accept",
        "api:peer-pair-decline",
        "api:peer-pair-leave",
        "api:peer-pair-end",
        "api:peer-pair-notes",
        "api:peer-pair-habits",
    ],
    Habit: [
        "habit_retire",
        "habit_check_in",
        "api:pair-habit-detail",
        "api:pair-habit-retire",
        "api:pair-habit-check-ins",
    ],
    Experiment: [
        "experiment_detail",
        "experiment_start",
        "experiment_finish",
        "experiment_drop",
        "api:experiment-detail",
        "api:experiment-start",
        "api:experiment-finish",
        "api:experiment-drop",
    ],
    Learning: [
        "learning_detail",
        "learning_edit",
        "learning_unpublish",
        "api:learning-detail",
    ],
    PlaybookModule: ["api:playbook-module-detail"],
    Win: ["api:win-detail"],
    InterpretiveTerm: ["api:interpretive-term-detail"],
}
# Programme configuration seeded by migrations (dozens of prompts and terms), which
# holds nobody's words: the first few of each are enough.
SEEDED = {Prompt, InterpretiveTerm}
FILLS = {
    **{
        key: _pks(model, first=3 if model in SEEDED else None)
        for model, keys in FILLS_BY_MODEL.items()
        for key in keys
    },
    **{key: _feedback_refs for key in FILLS_BY_MODEL[Feedback]},
    "person_detail": _pks(User),
    "person_goal_add": _pks(User),
    "person_skills": _pks(User),
    "team_manager": _pks(User),
    "api:dashboards-team-manager": lambda: [{"manager_id": f["pk"]} for f in _pks(User)()],
    "diagnosis_new": _pks(User),
    **{
        key: _pks(User)
        for key in (
            "programme_person",
            "programme_person_manager",
            "programme_person_appointments",
            "programme_person_deactivate",
            "programme_person_reactivate",
            "programme_person_welcome",
            "api:person-detail",
            "api:person-appointments",
            "api:person-deactivate",
            "api:person-reactivate",
            "api:person-welcome",
        )
    },
    # Without ?name=&id= a 400; the search itself is walked in tests/people/test_pickers.py.
    "people_pick": lambda: [
        {"source": name}
        for name in (
            "colleagues",
            "below",
            "managers-below",
            "me-and-below",
            "reviewable",
            "share",
            "pairable",
            "team-leads",
            "team-joiners",
            "managers",
            "teams",
            "unconnected-teams",
        )
    ],
    "calendar_feed": _feed_tokens,
    # The world's digests (Mia's and Hana's): counts and names, read by each walker.
    "digest_detail": lambda: [{"period": "2026-W10"}],
    "hr_export": lambda: [{"table": table} for table in ORGANISATION_TABLES],
    "hr_team_export": lambda: [
        {"pk": team["pk"], "table": table} for team in _pks(Team)() for table in TEAM_TABLES
    ],
    # Every team with each person ever on it (the route only deletes: a GET shows nothing).
    "api:team-member": lambda: [
        {"pk": team, "person_id": person}
        for team, person in Team.objects.order_by("pk", "memberships__pk").values_list(
            "pk", "memberships__person_id"
        )
        if person is not None
    ],
    # The page route only takes POST: walked like the API's (a GET is 405, shows nothing).
    "team_member_remove": lambda: [
        {"pk": team, "person_pk": person}
        for team, person in Team.objects.order_by("pk", "memberships__pk").values_list(
            "pk", "memberships__person_id"
        )
        if person is not None
    ],
    "account_confirm_email": _email_keys,
    "account_reset_password_from_key": _reset_keys,
    # The SocialApp made in the world (an SSO provider configured in the database).
    "openid_connect_login": lambda: [{"provider_id": "sso"}],
    "openid_connect_callback": lambda: [{"provider_id": "sso"}],
}


def _ours(model, page) -> bool:
    """The admin opens every object of the project's own models (they hold people's
    data); of seeded configuration and third-party ones (schedules, SSO apps,
    groups) the first."""
    ours = {"people", "coaching", "cadence", "feedback", "scorecards"}
    return model._meta.app_label in ours and model not in SEEDED


def _deletes_of_ours(model, page) -> bool:
    """The superuser's walk: the programme admin's walk has read every object's change
    page; what only a superuser opens is every delete page (what would go with a
    person), and the first of everything."""
    return page == "delete" and _ours(model, page)


# Routes the walk does not request, each with the reason. Keep this short.
SKIP: dict[str, str] = {}


# Query strings tried on every page and endpoint without parameters (outside the
# admin site and allauth): the stream switch, exports, and the filters pages and the
# API read, several at once — each view reads its own and ignores the others.
def _queries(world) -> list[str]:
    rep, team = world.people["rep"].pk, world.team.pk
    person = "&".join(f"{name}={rep}" for name in ("person", "owner", "recipient", "with"))
    return [
        f"stream=developmental&{person}&team={team}&received=1&all=1",
        # `to` is a person on /feedback/give/ and a date elsewhere (a 400 there).
        f"stream=evaluative&given=1&to={rep}",
        "format=csv",
    ]


# Routes whose output depends on no one's data get one variant, not all (the
# OpenAPI schema takes a quarter of a second to build).
FEW_VARIANTS = {"api_schema": ["format=json"], "api_docs": []}


# A first answer that says "nothing for you here" whatever the headers or filters:
# redirects (to sign-in, or to another page that is walked itself), not found or
# not allowed for this reader, no GET at all.
NOTHING_HERE = {301, 302, 403, 404, 405}


@dataclass(frozen=True)
class Plan:
    """One path of the walk: the request to make, and the variants to try after it
    unless that first answer says there is nothing here for this reader."""

    path: str
    headers: dict
    variants: list[tuple[str, dict]]


def _plan(world, visits) -> list[Plan]:
    """API endpoints as JSON and through the browsable API (which renders forms from
    the data); pages and endpoints without parameters (outside the admin site and
    allauth) also as htmx fragments and with the query strings."""
    queries = _queries(world)
    plans = []
    for visit in visits:
        route, path = visit.route, visit.path
        plain = route.namespace != "admin" and not path.startswith("/accounts/")
        api = route.namespace == "api" or path.startswith("/api/")
        if api:
            first = {"HTTP_ACCEPT": "application/json"}  # also DRF's default
            variants = [(path, {"HTTP_ACCEPT": "text/html"})]
        else:
            first, variants = {}, []
        if plain and not route.params:
            if not api:
                # What pages answer htmx with on a GET: a fragment, or the stream
                # banner (elsewhere htmx only changes the answer to a POST).
                variants.append(
                    (path, {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "stream-banner"})
                )
            variants += [(f"{path}?{q}", first) for q in FEW_VARIANTS.get(route.key, queries)]
        plans.append(Plan(path, first, variants))
    return plans


def _body(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode("utf-8", errors="replace")


@dataclass
class Walked:
    count: int
    statuses: dict[int, int]
    leaks: list[str]
    errors: list[str]
    seen: set[str]  # every marker seen anywhere


def walk(client, world, reader: str, only=None, admin_every_object=_ours) -> Walked:
    """GET every path (or those whose path starts with one of `only`) as `reader`."""
    visits, unfilled = concrete_paths(FILLS, SKIP, admin_every_object=admin_every_object)
    assert not unfilled, [r.key for r in unfilled]
    if only:
        visits = [v for v in visits if v.path.startswith(only)]
    user = world.people[reader]
    client.force_login(user)
    result = Walked(0, {}, [], [], set())

    def get(path, headers):
        try:
            response = client.get(path, **headers)
        except Exception as exc:  # noqa: BLE001 - every crash is a finding, keep walking
            result.errors.append(f"{path} {headers}: raised {type(exc).__name__}: {exc}")
            return None
        result.count += 1
        result.statuses[response.status_code] = result.statuses.get(response.status_code, 0) + 1
        if response.status_code >= 500:
            result.errors.append(f"{path} {headers}: {response.status_code}")
        head = "\n".join(f"{k}: {v}" for k, v in response.items())
        for where, text in (("body", _body(response)), ("headers", head)):
            result.seen |= world.garden.found_in(text)
            for plant in world.garden.forbidden_for(reader, text):
                result.leaks.append(f"{path} {headers} ({where}): {plant.marker} — {plant.what}")
        # Some pages sign the visitor out (a reset link for another account): back in.
        if not response.wsgi_request.user.is_authenticated:
            client.force_login(user)
        return response

    request_log = logging.getLogger("django.request")
    level = request_log.level
    request_log.setLevel(logging.ERROR)  # thousands of expected 404/405 warnings
    # The test client keeps a copy of every template context it renders; the walk
    # reads only bodies, and without the copies it runs a good deal faster.
    instrumented = Template._render
    Template._render = _plain_render
    try:
        for plan in _plan(world, visits):
            first = get(plan.path, plan.headers)
            if first is None or first.status_code in NOTHING_HERE:
                continue  # no variant of the same request can show more
            for path, headers in plan.variants:
                get(path, headers)
    finally:
        request_log.setLevel(level)
        Template._render = instrumented
    return result


def _plain_render(self, context):
    return self.nodelist.render(context)  # django.template.base.Template._render


def _report(reader, walked):
    shown = "\n  ".join(sorted(set(walked.leaks))[:60])
    return f"{reader} saw {len(walked.leaks)} forbidden marker(s):\n  {shown}"


# --- The walk ---------------------------------------------------------------------------

# Where the recipient reads their own feedback: the positive control walks these.
FEEDBACK_PAGES = ("/feedback/", "/api/v1/feedback")


def test_every_route_is_walked_or_skipped_on_purpose(world):
    """A new page or endpoint with parameters must be filled in FILLS (with at least
    one value from the world) or skipped in SKIP with a reason; stale entries in
    either fail too."""
    visits, unfilled = concrete_paths(FILLS, SKIP, admin_every_object=_ours)
    assert not unfilled, f"routes the walk cannot reach: {[r.key for r in unfilled]}"
    keys = {r.key for r in routes()}
    assert set(FILLS) <= keys, f"fills for routes that no longer exist: {set(FILLS) - keys}"
    assert set(SKIP) <= keys, f"skips for routes that no longer exist: {set(SKIP) - keys}"
    walked = {v.route.key for v in visits}
    assert walked | set(SKIP) == keys, keys - walked - set(SKIP)
    print(f"\n{len(keys)} routes, {len(visits)} paths, {len(SKIP)} skipped")


@pytest.mark.django_db
@pytest.mark.parametrize("reader", READERS)
def test_no_developmental_word_reaches_hr_an_admin_or_the_chain(client, world, reader):
    """Every page and endpoint, as HR, the programme admin (staff: the admin site too)
    and the rep's skip-level manager: no developmental word, no one's private
    reflection, theme or note, and no server error."""
    started = time.monotonic()
    walked = walk(client, world, reader)
    print(
        f"\n{reader}: {walked.count} requests in {time.monotonic() - started:.1f}s, "
        f"statuses {dict(sorted(walked.statuses.items()))}"
    )
    assert not walked.leaks, _report(reader, walked)
    assert not walked.errors, "\n".join(walked.errors)
    assert walked.count > 700
    assert walked.statuses.get(200, 0) > 100
    if reader in ("hr", "head"):
        # The walk reads content: evaluative words reach those allowed to read them.
        assert any(m.startswith("EV") for m in walked.seen), walked.seen


@pytest.mark.django_db
def test_the_admin_site_shows_no_developmental_word_even_to_a_superuser(client, world):
    """The programme admin may not open every admin page (deleting people, say); a
    superuser opens them all — a model registered later, a delete page listing what
    would go with a person — and finds no developmental word either."""
    walked = walk(client, world, "root", only=("/admin/",), admin_every_object=_deletes_of_ours)
    print(f"\nroot: {walked.count} requests, statuses {dict(sorted(walked.statuses.items()))}")
    assert not walked.leaks, _report("root", walked)
    assert not walked.errors, "\n".join(walked.errors)
    assert walked.statuses.get(200, 0) > 100


@pytest.mark.django_db
def test_the_recipient_walking_the_same_pages_sees_their_own_developmental_words(client, world):
    """The positive control: the same walk, as the rep, finds every developmental
    word the rep may read (their own received items, reflections and themes, what
    they wrote, their requests) — so the checks above cannot pass by seeing nothing —
    and nothing the rep may not read."""
    walked = walk(client, world, "rep", only=FEEDBACK_PAGES)
    print(f"\nrep: {walked.count} requests")
    theirs = {
        m for m, p in world.garden.plants.items() if "rep" in p.readers and p.kind in DEVELOPMENTAL
    }
    assert theirs - walked.seen == set(), sorted(theirs - walked.seen)
    assert len(theirs) > 40
    assert not walked.leaks, _report("rep", walked)
    assert not walked.errors, "\n".join(walked.errors)


@pytest.mark.django_db
def test_pair_members_and_admins_walking_the_peer_pages_read_what_they_may(client, world):
    """The positive control for peer pairs: the rep, walking the peer pages and
    endpoints, reads every word of the pairs they are in (so the walks above cannot
    pass by seeing nothing); the programme admin reads the reasons people gave for
    leaving, and neither reads anything else."""
    peer_pages = ("/peers/", "/api/v1/peer-pairs", "/api/v1/pair-habits")
    words = {
        "rep": {"pair note", "pair habit", "pair check-in"},
        "admin": {"pair leave reason", "pair decline reason"},
    }
    for reader, what in words.items():
        walked = walk(client, world, reader, only=peer_pages)
        plants = world.garden.plants.items()
        theirs = {m for m, p in plants if p.what in what and reader in p.readers}
        assert theirs and theirs - walked.seen == set(), sorted(theirs - walked.seen)
        assert not walked.leaks, _report(reader, walked)
        assert not walked.errors, "\n".join(walked.errors)


@pytest.mark.django_db
def test_the_learning_loop_walked_by_those_who_may_read_it(client, world):
    """The positive control for experiments and the library: a teammate reads the
    team's learning and the experiment shared with the pair; the skip-level reads the
    rep's experiment (on the experiment's and the rep's pages) — and neither anything
    else."""
    pages = ("/library/", "/experiments/", "/api/v1/learnings", "/api/v1/experiments", "/people/")
    words = {
        "peer": {"team learning, title", "team learning, body", "rep experiment, result"},
        "head": {"rep experiment, hypothesis", "rep experiment, result", "manager experiment"},
    }
    for reader, what in words.items():
        walked = walk(client, world, reader, only=pages)
        plants = world.garden.plants.items()
        theirs = {m for m, p in plants if p.what in what and reader in p.readers}
        assert theirs and theirs - walked.seen == set(), sorted(theirs - walked.seen)
        assert not walked.leaks, _report(reader, walked)
        assert not walked.errors, "\n".join(walked.errors)


@pytest.mark.django_db
def test_every_notification_of_the_world_was_rendered_so_its_words_were_checked(world):
    """An email that fails to render is never read by the check below: every row of
    the outbox was sent, or skipped on purpose (answered meanwhile)."""
    unsent = list(
        Notification.objects.exclude(
            status__in=[NotificationStatus.SENT, NotificationStatus.SKIPPED]
        ).values_list("pk", "kind", "status", "last_error")
    )
    assert not unsent, unsent


@pytest.mark.django_db
def test_no_email_or_notification_carries_words_to_anyone_not_allowed(client, world):
    """Emails sent by the outbox drain (asked, due, reminders, escalation, digests),
    and everyone's in-app notification list."""
    by_email = {u.email: name for name, u in world.people.items()}
    assert len(mail.outbox) >= 5
    leaks, seen = [], set()
    for message in mail.outbox:
        text = "\n".join([message.subject, message.body, *(c for c, _ in message.alternatives)])
        seen |= world.garden.found_in(text)
        for address in message.to:
            for plant in world.garden.forbidden_for(by_email[address], text):
                leaks.append(f"email {message.subject!r} to {address}: {plant.marker} {plant.what}")
    # The check reads content: a request's topic reaches the people asked.
    assert any(m.startswith("RQ") for m in seen), seen
    for name, person in world.people.items():
        client.force_login(person)
        page = _body(client.get("/me/notifications/"))
        leaks += [
            f"/me/notifications/ as {name}: {p.marker} {p.what}"
            for p in world.garden.forbidden_for(name, page)
        ]
    assert not leaks, "\n".join(leaks)


@pytest.mark.django_db
def test_the_rater_walking_the_session_pages_reads_their_rating_comment(client, world):
    """The positive control for session usefulness: the rep, walking the session pages
    and endpoints, reads the comment they gave (so the walks above cannot pass by
    seeing nothing) — and nothing they may not read."""
    walked = walk(client, world, "rep", only=("/sessions/", "/api/v1/sessions"))
    plants = world.garden.plants.items()
    theirs = {m for m, p in plants if p.what.startswith("rating comment") and "rep" in p.readers}
    assert theirs and theirs - walked.seen == set(), sorted(theirs - walked.seen)
    assert not walked.leaks, _report("rep", walked)
    assert not walked.errors, "\n".join(walked.errors)
