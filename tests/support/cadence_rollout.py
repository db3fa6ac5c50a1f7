"""What the install-plan tests build on: Enterprise East (the rep and the peer, led by the
manager) with its rollout, and the real events each checklist item ticks from,
made through the services the pages use."""

import itertools
from datetime import date, time, timedelta

import pytest
from django.utils import timezone

from cadence.rollout import progress_of
from cadence.services import plan_create
from cadence.services_rollout import rollout_start
from coaching.services import (
    manager_review_create,
    role_play_create,
    session_mark_held,
    team_call_review_create,
)
from peers.models import PairMember, PeerPair
from people.services_teams import team_create, team_member_add
from scorecards import services as scorecard_services
from tests.support.factories import FocusAreaFactory, RecordedCallFactory

_names = itertools.count()


@pytest.fixture(name="team")
def team_fixture(org):
    team = team_create(name="Enterprise East", lead=org.manager)
    for person in (org.rep, org.peer):
        team_member_add(team=team, person=person)
    return team


@pytest.fixture(name="rollout")
def rollout_fixture(org, team):
    return rollout_start(team=team, actor=org.manager, starts_on=timezone.localdate())


def status(rollout, key, today: date | None = None):
    """One item of the rollout's checklist, as of `today`."""
    rollout.refresh_from_db()
    found = {s.item.key: s for s in progress_of(rollout, today=today).items}
    return found[key]


def weekly(coach, coachee):
    return plan_create(
        kind="one_on_one",
        coach=coach,
        coachee=coachee,
        weekday=1,
        local_time=time(10, 0),
        generate=False,
    )


def template(org):
    return scorecard_services.template_create(
        actor=org.admin,
        name=f"Rollout call {next(_names)}",
        criteria=[scorecard_services.CriterionSpec("Open questions", "Asks before pitching.")],
    )


def focus_with_criteria(org, *, teams=(), criteria=True, **dates):
    focus = FocusAreaFactory(**dates)
    if criteria:
        focus.criteria.set(template(org).criteria.all())
    focus.teams.set(teams)
    return focus


def past(hours=2):
    return timezone.now() - timedelta(hours=hours)


def call_review(org, team, *, held=True):
    session = team_call_review_create(
        actor=team.lead,
        team=team,
        start=past(),
        presenter=org.rep,
        call_url="https://calls.example.com/rollout",
        call_title="Northwind discovery",
        call_date=timezone.localdate(),
    )
    return session_mark_held(session=session, actor=team.lead) if held else session


def role_play(org, *, coach, participants, team=None, held=True):
    session = role_play_create(
        coach=coach,
        participants=participants,
        focus_area=FocusAreaFactory(),
        start=past(),
        scenario="The buyer says the price is too high.",
        team=team,
    )
    return session_mark_held(session=session, actor=coach) if held else session


def manager_review(org, *, manager, held=True):
    session = manager_review_create(coach=org.head, manager=manager, start=past())
    return session_mark_held(session=session, actor=org.head) if held else session


def _submit(person, scoring):
    scores = [
        scorecard_services.ScoreInput(criterion=c.pk, rating=3)
        for c in scoring.version.criteria.all()
    ]
    scorecard_services.scorecard_save(actor=person, scoring=scoring, scores=scores, submit=True)


def calibration(org, *, submitters, close=True):
    scoring = scorecard_services.calibration_open(
        actor=org.head,
        work=RecordedCallFactory(person=org.rep),
        template=template(org),
        raters=[org.manager, org.other_manager],
        title=f"Calibration {next(_names)}",
    )
    for person in submitters:
        _submit(person, scoring)
    if close:
        scorecard_services.round_close(actor=org.head, scoring=scoring)
    return scoring


def pair(org, *people, started=True):
    formed = PeerPair.objects.create(
        rationale="similar",
        agreement_text="Confidentiality, candour, respect.",
        weekday=2,
        local_time=time(15, 0),
        time_zone="Europe/Berlin",
        created_by=org.admin,
        started_at=timezone.now() - timedelta(days=1) if started else None,
    )
    for person in people:
        PairMember.objects.create(pair=formed, person=person, accepted_at=timezone.now())
    return formed
