"""The world the walks over every route share (the feedback firewall walk, the
authorization matrix, the bad-input walk over every form, the API body limits): one
small organisation with a row of every model reachable by a route, words planted in
it as markers that say who may read them, and the fills that turn each route with
parameters into concrete URLs of that world.

Words are planted as markers: `DV…` in every developmental field (observation,
impact, suggestion) and in the recipient's private reflection and themes; `RQ…` in
the question and topic of developmental requests; `EP…` in the recipient's
reflection and themes on evaluative items; `PN…` in a coach's private note, a
diagnosis's notes, what a peer pair writes (notes, habits, check-ins; a leave
reason is the admins') and a coachee's comment rating a session (its rater's only:
not even the coach reads one rating); `SN…` in shared 1:1 notes, agenda and commitments
(HR and admins see counts only); `EV…` in evaluative words, which HR and the chain
may read — the positive control that the walk reaches content. Each marker knows who
may read it.

Routes come from the resolver (tests/support/urlwalk.py); a new route with parameters
must be filled in FILLS or skipped in SKIP with a reason, or the firewall walk's
`test_every_route_is_walked_or_skipped_on_purpose` fails."""

import re
from dataclasses import dataclass
from datetime import date, timedelta
from datetime import time as clock

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from allauth.account.utils import user_pk_to_url_str
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.socialaccount.models import SocialAccount, SocialApp, SocialToken
from django.utils import timezone
from django_celery_beat.models import (
    ClockedSchedule,
    CrontabSchedule,
    IntervalSchedule,
    PeriodicTask,
    SolarSchedule,
)

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
from cadence.services_calendar import calendar_feed_create_or_rotate
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
from notifications.models import Notification, NotificationKind, TeamChannel
from peers.models import Habit, PeerPair
from people.import_worker import import_run
from people.models import PeopleImport, Team, User
from people.selectors import management_chain
from people.services_credentials import api_token_rotate
from people.services_imports import import_upload
from people.services_teams import team_create, team_member_add
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
        "feedback:feedback_detail",
        "feedback:feedback_acknowledge",
        "feedback:feedback_share",
        "feedback:feedback_unshare",
        "api:feedback-detail",
        "api:feedback-acknowledge",
        "api:feedback-share",
        "api:feedback-unshare",
    ],
    FeedbackRequest: [
        "feedback:feedback_request_detail",
        "feedback:feedback_request_answer",
        "feedback:feedback_request_decline",
        "api:feedback-request-detail",
        "api:feedback-request-answer",
        "api:feedback-request-decline",
    ],
    CoachingSession: [
        "coaching:session_detail",
        "coaching:session_prepare",
        "coaching:session_notes_save",
        "coaching:session_notes_live",
        "coaching:private_note_save",
        "coaching:agenda_add",
        "coaching:commitment_add",
        "coaching:session_held",
        "coaching:session_rating",
        "coaching:session_cancel",
        "coaching:session_reschedule",
        "cadence:session_calendar",
        "coaching:call_review_scoring",
        "api:session-detail",
        "api:session-cancel",
        "api:session-held",
        "api:session-notes",
        "api:session-private-note",
        "api:session-rating",
        "api:session-reschedule",
        "api:session-since-last",
    ],
    AgendaItem: ["coaching:agenda_toggle", "coaching:agenda_delete", "api:agenda-item-detail"],
    Commitment: [
        "coaching:commitment_close",
        "coaching:commitment_reopen",
        "api:commitment-detail",
        "api:commitment-close",
        "api:commitment-reopen",
    ],
    CadencePlan: [
        "cadence:plan_edit",
        "cadence:plan_pause",
        "cadence:plan_end",
        "cadence:plan_restart",
        "cadence:programme_plan",
        "api:plan-detail",
        "api:plan-end",
        "api:plan-restart",
    ],
    CadencePolicy: ["cadence:policy_edit", "api:cadence-policy-detail"],
    TeamChannel: [
        "notifications:channel_change",
        "notifications:channel_switch",
        "notifications:channel_test",
        "notifications:channel_remove",
        "api:team-channel-detail",
        "api:team-channel-test",
    ],
    Closure: ["cadence:closure_remove", "api:closed-day-detail"],
    FocusArea: ["api:focus-area-detail", "coaching:focus_area_edit", "coaching:focus_area_end"],
    RecordedCall: ["scorecards:call_detail", "scorecards:call_score", "api:recorded-call-detail"],
    ScoringRound: [
        "scorecards:round_detail",
        "scorecards:round_scorecard_save",
        "scorecards:round_decline",
        "scorecards:round_close",
        "api:scoring-round-detail",
        "api:scoring-round-scorecard",
        "api:scoring-round-decline",
        "api:scoring-round-close",
    ],
    Scorecard: ["api:scorecard-detail"],
    ScorecardTemplate: [
        "scorecards:template_detail",
        "scorecards:template_edit",
        "scorecards:template_retire",
        "api:scorecard-template-detail",
        "api:scorecard-template-retire",
        "api:scorecard-template-restore",
    ],
    Team: [
        "dashboards:hr_team",
        "api:health-team",
        "coaching:team_skills",
        "cadence:team_rollout",
        "cadence:team_policy_apply",
        "cadence:team_policy_end",
        "api:team-cadence-detail",
        "api:team-cadence-preview",
        "cadence:rollout_tick",
        "cadence:rollout_untick",
        "learning:team_playbooks",
        "api:team-playbook-detail",
        "api:team-detail",
        "api:team-members",
        "people:team_detail",
        "people:team_member_add",
    ],
    Rollout: ["api:rollout-detail", "api:rollout-tick", "api:rollout-untick"],
    PeopleImport: [
        "people:people_import_detail",
        "people:people_import_apply",
        "people:people_import_discard",
        "api:people-import-detail",
        "api:people-import-apply",
        "api:people-import-discard",
    ],
    Diagnosis: ["api:diagnosis-detail"],
    Goal: [
        "coaching:goal_edit",
        "coaching:goal_close",
        "coaching:goal_reopen",
        "api:goal-detail",
        "api:goal-close",
        "api:goal-reopen",
    ],
    Prompt: [
        "api:prompt-detail",
        "coaching:prompt_edit",
        "coaching:prompt_retire",
        "coaching:prompt_restore",
    ],
    PeerPair: [
        "peers:pair_detail",
        "peers:pair_accept",
        "peers:pair_decline",
        "peers:pair_leave",
        "peers:pair_end",
        "peers:pair_agreement",
        "peers:pair_note_add",
        "peers:pair_habit_add",
        "api:peer-pair-detail",
        "api:peer-pair-accept",
        "api:peer-pair-decline",
        "api:peer-pair-leave",
        "api:peer-pair-end",
        "api:peer-pair-notes",
        "api:peer-pair-habits",
    ],
    Habit: [
        "peers:habit_retire",
        "peers:habit_check_in",
        "api:pair-habit-detail",
        "api:pair-habit-retire",
        "api:pair-habit-check-ins",
    ],
    Experiment: [
        "learning:experiment_detail",
        "learning:experiment_start",
        "learning:experiment_finish",
        "learning:experiment_drop",
        "api:experiment-detail",
        "api:experiment-start",
        "api:experiment-finish",
        "api:experiment-drop",
    ],
    Learning: [
        "learning:learning_detail",
        "learning:learning_edit",
        "learning:learning_unpublish",
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
    "coaching:person_detail": _pks(User),
    "coaching:person_goal_add": _pks(User),
    "coaching:person_skills": _pks(User),
    "dashboards:team_manager": _pks(User),
    "api:dashboards-team-manager": lambda: [{"manager_id": f["pk"]} for f in _pks(User)()],
    "coaching:diagnosis_new": _pks(User),
    **{
        key: _pks(User)
        for key in (
            "people:programme_person",
            "people:programme_person_manager",
            "people:programme_person_appointments",
            "people:programme_person_deactivate",
            "people:programme_person_reactivate",
            "people:programme_person_welcome",
            "api:person-detail",
            "api:person-appointments",
            "api:person-deactivate",
            "api:person-reactivate",
            "api:person-welcome",
        )
    },
    # Without ?name=&id= a 400; the search itself is walked in tests/people/test_pickers.py.
    "people:people_pick": lambda: [
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
    "cadence:calendar_feed": _feed_tokens,
    # The world's digests (Mia's and Hana's): counts and names, read by each walker.
    "cadence:digest_detail": lambda: [{"period": "2026-W10"}],
    "dashboards:hr_export": lambda: [{"table": table} for table in ORGANISATION_TABLES],
    "dashboards:hr_team_export": lambda: [
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
    "people:team_member_remove": lambda: [
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


# Routes the walk does not request, each with the reason. Keep this short.
SKIP: dict[str, str] = {}
