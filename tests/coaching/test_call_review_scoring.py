"""Scoring the presented call of a team call review: everyone in the review rates it,
the presenter as the subject and the team lead last; only whoever runs the review
opens it, once per template."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from coaching.services import call_review_scoring_open, session_cancel, team_call_review_create
from core.errors import Forbidden
from people.services_teams import team_create, team_member_add
from scorecards.models import RaterRole, RoundContext
from scorecards.services import template_create
from tests.scorecards.conftest import DISCOVERY, clear_starter_library


@pytest.fixture
def review(org):
    team = team_create(name="Enterprise East", lead=org.manager)
    for person in (org.rep, org.peer):
        team_member_add(team=team, person=person)
    return team_call_review_create(
        actor=org.manager,
        team=team,
        start=timezone.now() + timedelta(days=1),
        presenter=org.rep,
        call_url="https://calls.example.com/recordings/9",
        call_title="Discovery with Northwind",
        call_date=timezone.localdate() - timedelta(days=1),
    )


@pytest.fixture
def template(org):
    clear_starter_library()  # the migration's "Discovery call"
    return template_create(actor=org.admin, name="Discovery call", criteria=DISCOVERY)


@pytest.mark.django_db
def test_everyone_in_the_review_rates_the_call_with_the_lead_last(org, review, template):
    scoring = call_review_scoring_open(session=review, actor=org.manager, template=template)
    assert scoring.context == RoundContext.TEAM_REVIEW and scoring.session_id == review.pk
    assert scoring.work == review.presented_call
    roles = dict(scoring.raters.values_list("person", "role"))
    assert roles == {
        org.rep.pk: RaterRole.SUBJECT,
        org.peer.pk: RaterRole.PARTICIPANT,
        org.manager.pk: RaterRole.MANAGER,
    }
    with pytest.raises(ValidationError, match="already being scored"):
        call_review_scoring_open(session=review, actor=org.peer, template=template)


@pytest.mark.django_db
def test_only_whoever_runs_the_review_opens_it(org, review, template):
    with pytest.raises(Forbidden, match="runs the review"):
        call_review_scoring_open(session=review, actor=org.rep, template=template)
    assert not review.presented_call.rounds.exists()


@pytest.mark.django_db
def test_a_cancelled_review_is_not_scored(org, review, template):
    session_cancel(session=review, actor=org.manager, reason="forecast_call")
    with pytest.raises(ValidationError, match="cancelled"):
        call_review_scoring_open(session=review, actor=org.manager, template=template)
