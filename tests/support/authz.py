"""The world, the roles and the walker of the authorization matrix
(tests/test_authorization_matrix.py).

The world is the walks' shared one (tests/support/world.py): one small
organisation with words planted as markers in every private field, each marker knowing
who may read it. Added here: a former rep who has been deactivated while still holding
a signed-in session, an API token and a calendar feed from before, and a few objects of
the other team (so every object route has one the rep's circle may see and one it may
not).

Every request is made inside a savepoint that is rolled back afterwards, so a POST that
passes its checks (marks a session held, accepts a pair…) or a GET that writes (an
audit event, a sign-out) changes nothing for the next request or role."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.template.base import Template
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from cadence.models import CadencePlan, CadencePolicy, CalendarFeed, Closure
from cadence.services_calendar import calendar_feed_create_or_rotate
from coaching.models import AgendaItem, CoachingSession, Commitment
from coaching.services import agenda_item_add, commitment_create
from feedback.models import Feedback, Stream
from feedback.services import feedback_give
from notifications.models import TeamChannel
from people.models import PeopleImport, User
from people.services_credentials import api_token_rotate
from people.services_teams import team_member_add
from scorecards import services as scorecard_services
from tests.support.factories import UserFactory, one_on_one

# The nine roles, in the order the table and reports list them. The names of the
# firewall world's people, so its markers' readers apply as they are.
ROLES = (
    "anonymous",
    "rep",
    "peer",  # a rep on the same team, same manager
    "manager",  # the rep's manager, lead of the rep's team
    "other_manager",  # leads another team
    "head",  # manager of managers: above both managers
    "hr",
    "admin",  # programme admin (staff: the admin site too)
    "gone",  # a former rep of the manager, deactivated, with a session and token from before
)

# Outcomes: a status code as a string, or what a redirect points at.
LOGIN = "login"  # 302 to the sign-in page
ADMIN_LOGIN = "admin-login"  # 302 to the admin site's sign-in
REDIRECT = "redirect"  # 302 anywhere else (a role's home, back to the page after an action)


def outcome_of(response) -> str:
    hx_location = response.get("HX-Redirect") or response.get("HX-Location")
    if 300 <= response.status_code < 400 or hx_location:
        location = response.get("Location", "") or hx_location
        if location.startswith(reverse(settings.LOGIN_URL)):
            return LOGIN
        if location.startswith(reverse("admin:login")):
            return ADMIN_LOGIN
        return REDIRECT
    return str(response.status_code)


@dataclass
class Matrix:
    """The firewall world and what the matrix adds: clients per role and the objects
    each object route is requested with (variant name → primary key or values)."""

    world: object
    gone: User
    gone_token: str
    gone_session: str
    objects: dict[str, dict[str, object]] = field(default_factory=dict)

    @property
    def garden(self):
        return self.world.garden

    def person(self, role: str) -> User | None:
        if role == "gone":
            return self.gone
        return self.world.people.get(role)


def matrix_build(world) -> Matrix:
    p = world.people
    garden = world.garden
    # The former rep: a 1:1 with words in it, developmental feedback, a goal in the
    # team — then deactivated with the flag alone (no service), so whatever they held
    # from before is still there: the request-time checks must refuse it all.
    gone = UserFactory(display_name="Gil Gone", email="gone@example.com", manager=p["manager"])
    world.people["gone"] = gone
    world.names[gone.pk] = "gone"
    team_member_add(team=world.team, person=gone)
    readers = {"gone", "manager", "head"}
    gone_session = one_on_one(p["manager"], gone, start=timezone.now() + timedelta(days=2))
    agenda_item_add(
        session=gone_session,
        actor=gone,
        text=f"{garden.plant('SN', 'agenda item of the departed', readers)} my leaving",
    )
    feedback_give(
        author=p["manager"],
        recipient=gone,
        stream=Stream.DEVELOPMENTAL,
        observation=f"{garden.plant('DV', 'developmental to the departed', {'gone', 'manager'})}",
        impact="they listened",
        suggestion="keep going",
    )
    token = api_token_rotate(person=gone)
    calendar_feed_create_or_rotate(person=gone)
    signed_in = Client()
    signed_in.force_login(gone)
    session_key = signed_in.cookies[settings.SESSION_COOKIE_NAME].value
    User.objects.filter(pk=gone.pk).update(is_active=False)
    gone.refresh_from_db()
    assert Token.objects.filter(user=gone).exists()

    # Objects of the other team, so each object route has one outside the rep's circle.
    other_session = CoachingSession.objects.filter(
        participants__person=p["other_rep"], kind="one_on_one"
    ).first()
    other_agenda = agenda_item_add(
        session=other_session, actor=p["other_rep"], text="Olga's agenda item"
    )
    other_commitment = commitment_create(
        session=other_session,
        actor=p["other_manager"],
        text="Olga's commitment",
        evidence="A recorded call",
        due_on=timezone.localdate() + timedelta(days=7),
    )
    from cadence.services import plan_create

    other_plan = plan_create(
        kind="one_on_one",
        coach=p["other_manager"],
        coachee=p["other_rep"],
        weekday=4,
        local_time=timezone.datetime(2026, 1, 1, 9, 0).time(),
        generate=False,
    )
    other_call = scorecard_services.recorded_call_create(
        actor=p["other_manager"],
        person=p["other_rep"],
        title="Olga's call",
        call_date=timezone.localdate(),
        url="https://calls.example.com/2",
    )
    # A reason for declining a pair is the admins' — and its author's own, in the data
    # they download about themselves.
    for marker, plant in list(garden.plants.items()):
        if plant.what == "pair decline reason":
            garden.plants[marker] = replace(plant, readers=plant.readers | {"other_manager"})
    m = Matrix(world, gone, token, session_key)
    m.objects = _variants(world, other_agenda, other_commitment, other_plan, other_call)
    return m


def _variants(world, other_agenda, other_commitment, other_plan, other_call) -> dict:
    """Per kind of object: the ones each object route is requested with."""
    from coaching.models import Diagnosis, FocusArea, Goal, Prompt
    from feedback.models import FeedbackRequest, InterpretiveTerm, Win
    from learning.models import Experiment, Learning, PlaybookModule
    from peers.models import Habit, PeerPair
    from people.models import Team
    from scorecards.models import RecordedCall, Scorecard, ScoringRound
    from scorecards.models import Template as ScorecardTemplate

    p = world.people

    def session_of(coachee, kind="one_on_one"):
        qs = CoachingSession.objects.filter(participants__person=coachee, kind=kind)
        return qs.order_by("scheduled_start").first().pk

    held = CoachingSession.objects.filter(
        participants__person=p["rep"], kind="one_on_one", status="held"
    ).first()
    rep_call = RecordedCall.objects.get(title="Northwind discovery")
    mine_team, other_team = world.team, Team.objects.get(name="Omar's team")
    rounds = ScoringRound.objects.filter(work_id=rep_call.pk)
    return {
        "session": {
            "rep": held.pk,
            "review": session_of(p["manager"], "manager_review"),
            "other": session_of(p["other_rep"]),
        },
        "agenda": {
            "rep": AgendaItem.objects.filter(session=held).first().pk,
            "other": other_agenda.pk,
        },
        "commitment": {
            "rep": Commitment.objects.filter(created_in=held).first().pk,
            "other": other_commitment.pk,
        },
        "plan": {
            "rep": CadencePlan.objects.get(kind="one_on_one", coachee=p["rep"]).pk,
            "other": other_plan.pk,
        },
        "feedback": {
            "dev": Feedback.objects.filter(
                author=p["manager"], recipient=p["rep"], stream=Stream.DEVELOPMENTAL
            )
            .first()
            .pk,
            "ev": Feedback.objects.filter(
                author=p["manager"], recipient=p["rep"], stream=Stream.EVALUATIVE
            )
            .first()
            .pk,
            "other": Feedback.objects.filter(recipient=p["other_rep"]).first().pk,
        },
        "request": {
            "rep": FeedbackRequest.objects.filter(requester=p["rep"], stream=Stream.DEVELOPMENTAL)
            .order_by("pk")
            .first()
            .pk,
            "anon": FeedbackRequest.objects.filter(requester=p["manager"], anonymous=True)
            .order_by("pk")
            .first()
            .pk,
        },
        "call": {"rep": rep_call.pk, "other": other_call.pk},
        "round": {
            "coach": rounds.filter(context="coach").first().pk,
            "self": rounds.filter(context="self").first().pk,
            "calibration": rounds.filter(context="calibration").first().pk,
        },
        "scorecard": {
            "coach": Scorecard.objects.filter(context="coach", rater=p["manager"]).first().pk,
        },
        "template": {"walk": ScorecardTemplate.objects.get(name="Walk discovery call").pk},
        "team": {"mine": mine_team.pk, "other": other_team.pk},
        "rollout": {"mine": mine_team.rollout.pk},
        "import": {"ready": PeopleImport.objects.get(status="ready").pk},
        "diagnosis": {
            "rep": Diagnosis.objects.get(coachee=p["rep"]).pk,
            "other": Diagnosis.objects.get(coachee=p["other_rep"]).pk,
        },
        "goal": {
            "rep": Goal.objects.filter(owner=p["rep"]).exclude(status="dropped").first().pk,
            "manager": Goal.objects.filter(owner=p["manager"]).first().pk,
        },
        "pair": {
            "mine": PeerPair.objects.filter(created_by=p["manager"]).first().pk,
            "trio": PeerPair.objects.filter(members__person=p["r3"]).first().pk,
        },
        "habit": {"mine": Habit.objects.filter(pair__created_by=p["manager"]).first().pk},
        "experiment": {
            "rep": Experiment.objects.filter(owner=p["rep"]).first().pk,
            "other": Experiment.objects.filter(owner=p["other_rep"]).first().pk,
        },
        "learning": {
            "org": Learning.objects.get(audience="organisation", author=p["rep"]).pk,
            "team": Learning.objects.filter(audience="team").first().pk,
        },
        "person": {"rep": p["rep"].pk, "other_rep": p["other_rep"].pk},
        "manager": {"manager": p["manager"].pk, "other": p["other_manager"].pk},
        "focus": {"any": FocusArea.objects.first().pk},
        "policy": {"any": CadencePolicy.objects.first().pk},
        "channel": {"any": TeamChannel.objects.first().pk},
        "closure": {"any": Closure.objects.first().pk},
        "prompt": {"any": Prompt.objects.first().pk},
        "term": {"any": InterpretiveTerm.objects.first().pk},
        "module": {"any": PlaybookModule.objects.first().pk},
        "win": {"mine": Win.objects.first().pk},
        "feed": {
            "rep": CalendarFeed.objects.get(person=p["rep"]).token,
            "gone": CalendarFeed.objects.get(person=world.people["gone"]).token,
            "unknown": "no-such-token",
        },
    }


# --- Walking ----------------------------------------------------------------------------


@dataclass
class Seen:
    outcome: str
    leaks: list[str]
    error: str | None = None


def _body(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode("utf-8", errors="replace")


class Walker:
    """Requests made as each role. Signed-in roles carry their session cookie (the
    deactivated one the cookie of before); on the API the deactivated role presents
    its old token instead."""

    def __init__(self, matrix: Matrix):
        self.matrix = matrix
        self.clients: dict[str, Client] = {}
        self.markers_checked = 0
        for role in ROLES:
            client = Client()
            if role == "gone":
                client.cookies[settings.SESSION_COOKIE_NAME] = matrix.gone_session
            elif role != "anonymous":
                client.force_login(matrix.person(role))
            self.clients[role] = client
        self.cookies = {role: dict(c.cookies.items()) for role, c in self.clients.items()}

    def request(self, role: str, method: str, path: str, *, api: bool, htmx=False) -> Seen:
        client = self.clients[role]
        client.cookies.clear()
        for name, morsel in self.cookies[role].items():
            client.cookies[name] = morsel.value
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        if api:
            headers["HTTP_ACCEPT"] = "text/html" if path == "/api/docs/" else "application/json"
            if role == "gone":
                headers["HTTP_AUTHORIZATION"] = f"Token {self.matrix.gone_token}"
        call = getattr(client, method.lower())
        kwargs = {"content_type": "application/json", "data": {}} if method != "GET" else {}
        try:
            with transaction.atomic():
                response = call(path, **kwargs, **headers)
                body = _body(response)
                transaction.set_rollback(True)
        except Exception as exc:  # noqa: BLE001 - every crash is a finding
            return Seen("raised", [], f"{type(exc).__name__}: {exc}")
        text = body + "\n" + "\n".join(f"{k}: {v}" for k, v in response.items())
        name = role if role != "anonymous" else ""
        found = self.matrix.garden.found_in(text)
        self.markers_checked += len(found)
        leaks = [f"{p.marker} ({p.what})" for p in self.matrix.garden.forbidden_for(name, text)]
        return Seen(outcome_of(response), leaks)


class quiet:
    """Thousands of expected 404/405 warnings off; the test client's copies of every
    template context off (the walk reads bodies only, and runs much faster); the OpenAPI
    schema built once for the walk, not once per role (it is the same for everyone who
    may read it, and takes seconds)."""

    def __enter__(self):
        from drf_spectacular.generators import SchemaGenerator

        self.log = logging.getLogger("django.request")
        self.level = self.log.level
        self.log.setLevel(logging.CRITICAL)
        self.render = Template._render
        Template._render = lambda template, context: template.nodelist.render(context)
        self.get_schema = SchemaGenerator.get_schema
        built = {}

        def get_schema(generator, request=None, public=False):
            if public not in built:
                built[public] = self.get_schema(generator, request=request, public=public)
            return built[public]

        SchemaGenerator.get_schema = get_schema

    def __exit__(self, *exc):
        from drf_spectacular.generators import SchemaGenerator

        self.log.setLevel(self.level)
        Template._render = self.render
        SchemaGenerator.get_schema = self.get_schema
