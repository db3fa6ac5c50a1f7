"""Experiments: planned by their owner (optionally linked to a session they took part
in, a commitment they may see, a pair they are in, a current focus area), started,
finished with a result and a learning, or dropped; seen by the owner, the owner's
management chain and their current partners in the linked pair — nobody else."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils import timezone

from coaching.services import commitment_create
from core.errors import Forbidden
from learning.models import Experiment, ExperimentStatus
from learning.selectors import access_experiment, by_state, experiments_from_pairs
from learning.services import (
    experiment_drop,
    experiment_finish,
    experiment_start,
    experiment_update,
)
from tests.support.factories import FocusAreaFactory, one_on_one
from tests.support.learning_loop import CHAIN, NOT_IN_CHAIN, make_pair, plan

FIRST = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


@pytest.mark.django_db
def test_an_experiment_goes_from_planned_to_running_to_done_with_times_stamped(org):
    with time_machine.travel(FIRST, tick=False):
        experiment = plan(org.rep, evidence="If two of three calls still wander")
    assert experiment.status == ExperimentStatus.PLANNED and experiment.started_at is None
    with time_machine.travel(FIRST + timedelta(days=1), tick=False):
        experiment = experiment_start(experiment=experiment, actor=org.rep)
    assert experiment.status == ExperimentStatus.RUNNING
    assert experiment.started_at == FIRST + timedelta(days=1)
    with time_machine.travel(FIRST + timedelta(days=6), tick=False):
        experiment = experiment_finish(
            experiment=experiment,
            actor=org.rep,
            result="  Two of three calls stayed on track.  ",
            learning="Say the recommendation before the context.",
        )
    experiment.refresh_from_db()
    assert experiment.status == ExperimentStatus.DONE
    assert experiment.result == "Two of three calls stayed on track."
    assert (experiment.started_at, experiment.finished_at) == (
        FIRST + timedelta(days=1),
        FIRST + timedelta(days=6),
    )


@pytest.mark.django_db
def test_a_planned_experiment_may_finish_straight_away_and_a_done_one_be_corrected(org):
    experiment = plan(org.rep)
    done = experiment_finish(experiment=experiment, actor=org.rep, result="It worked twice")
    assert done.status == ExperimentStatus.DONE and done.started_at == done.finished_at
    finished_at = done.finished_at
    corrected = experiment_finish(experiment=done, actor=org.rep, result="Three times, in fact")
    assert corrected.result == "Three times, in fact" and corrected.finished_at == finished_at


@pytest.mark.django_db
@pytest.mark.parametrize("result", ["", "   "])
def test_finishing_without_a_result_is_refused_and_nothing_changes(org, result):
    experiment = experiment_start(experiment=plan(org.rep), actor=org.rep)
    with pytest.raises(ValidationError) as refused:
        experiment_finish(experiment=experiment, actor=org.rep, result=result, learning="x")
    assert "result" in refused.value.message_dict
    experiment.refresh_from_db()
    assert experiment.status == ExperimentStatus.RUNNING and experiment.learning == ""


@pytest.mark.django_db
def test_the_database_itself_refuses_a_done_experiment_without_a_result(org):
    experiment = plan(org.rep)
    with pytest.raises(IntegrityError), transaction.atomic():
        Experiment.objects.filter(pk=experiment.pk).update(status=ExperimentStatus.DONE)


@pytest.mark.django_db
def test_dropping_and_the_moves_that_are_refused(org):
    running = experiment_start(experiment=plan(org.rep), actor=org.rep)
    with pytest.raises(ValidationError, match="Only a planned experiment starts"):
        experiment_start(experiment=running, actor=org.rep)
    dropped = experiment_drop(experiment=running, actor=org.rep)
    assert dropped.status == ExperimentStatus.DROPPED and dropped.finished_at is not None
    with pytest.raises(ValidationError, match="already dropped"):
        experiment_drop(experiment=dropped, actor=org.rep)
    with pytest.raises(ValidationError, match="was dropped"):
        experiment_finish(experiment=dropped, actor=org.rep, result="x")
    done = experiment_finish(experiment=plan(org.rep), actor=org.rep, result="Yes")
    with pytest.raises(ValidationError, match="already done"):
        experiment_drop(experiment=done, actor=org.rep)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"hypothesis": ""}, "hypothesis"),
        ({"hypothesis": "   "}, "hypothesis"),
        ({"hypothesis": "x" * 301}, "hypothesis"),
        ({"test": ""}, "test"),
        ({"test": "y" * 2_001}, "test"),
        ({"evidence": "z" * 501}, "evidence"),
    ],
)
def test_bad_text_is_refused_with_its_field_and_nothing_saved(org, fields, field):
    with pytest.raises(ValidationError) as refused:
        plan(org.rep, **fields)
    assert field in refused.value.message_dict
    assert not Experiment.objects.exists()


@pytest.mark.django_db
def test_it_links_to_my_session_my_commitment_my_pair_and_a_current_focus_area(org):
    session = one_on_one(org.manager, org.rep)
    commitment = commitment_create(
        session=session,
        actor=org.manager,
        text="Ask two open questions",
        evidence="Two calls",
        due_on=session.scheduled_start.date() + timedelta(days=7),
    )
    pair = make_pair(org.rep, org.peer)
    focus = FocusAreaFactory()
    experiment = plan(org.rep, session=session, commitment=commitment, pair=pair, focus_area=focus)
    assert (experiment.session, experiment.commitment, experiment.pair) == (
        session,
        commitment,
        pair,
    )
    assert experiment.focus_area == focus
    # The manager may link the commitment they wrote down, and the session they ran.
    assert plan(org.manager, commitment=commitment, session=session).commitment == commitment


@pytest.mark.django_db
def test_someone_elses_session_commitment_or_pair_is_refused_and_nothing_saved(org):
    theirs = one_on_one(org.other_manager, org.other_rep)
    commitment = commitment_create(
        session=theirs,
        actor=org.other_manager,
        text="Theirs",
        evidence="Calls",
        due_on=theirs.scheduled_start.date() + timedelta(days=7),
    )
    pair = make_pair(org.peer, org.other_rep)
    today = timezone.localdate()
    ended = FocusAreaFactory(
        starts_on=today - timedelta(days=90), ends_on=today - timedelta(days=60)
    )
    with pytest.raises(ValidationError) as refused:
        plan(org.rep, session=theirs, commitment=commitment, pair=pair, focus_area=ended)
    assert set(refused.value.message_dict) == {"session", "commitment", "pair", "focus_area"}
    assert "session you took part in" in str(refused.value)
    assert not Experiment.objects.exists()


@pytest.mark.django_db
def test_a_pair_i_left_is_refused_but_a_link_made_before_may_stay_on_edit(org):
    pair = make_pair(org.rep, org.peer)
    experiment = plan(org.rep, pair=pair)
    pair.members.filter(person=org.rep).update(left_at=FIRST)
    with pytest.raises(ValidationError, match="peer pair you are in"):
        plan(org.rep, pair=pair)
    kept = experiment_update(
        experiment=experiment, actor=org.rep, hypothesis="Sharper", test="Again", pair=pair
    )
    assert kept.pair == pair and kept.hypothesis == "Sharper"


@pytest.mark.django_db
@pytest.mark.parametrize("who", CHAIN)
def test_the_owner_and_their_chain_see_it(org, who):
    experiment = plan(org.rep)
    assert access_experiment(user=getattr(org, who), pk=experiment.pk) == experiment


@pytest.mark.django_db
@pytest.mark.parametrize("who", NOT_IN_CHAIN)
def test_peers_hr_admins_and_other_teams_get_404(org, who):
    experiment = plan(org.rep)
    with pytest.raises(Http404):
        access_experiment(user=getattr(org, who), pk=experiment.pk)


@pytest.mark.django_db
def test_current_pair_partners_see_it_and_stop_seeing_it_when_they_leave(org):
    pair = make_pair(org.rep, org.other_rep)
    experiment = plan(org.rep, pair=pair)
    unlinked = plan(org.rep, hypothesis="Not shared")
    assert access_experiment(user=org.other_rep, pk=experiment.pk) == experiment
    assert list(experiments_from_pairs(viewer=org.other_rep)) == [experiment]
    with pytest.raises(Http404):
        access_experiment(user=org.other_rep, pk=unlinked.pk)
    pair.members.filter(person=org.other_rep).update(left_at=FIRST)
    with pytest.raises(Http404):
        access_experiment(user=org.other_rep, pk=experiment.pk)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "head"])
def test_the_chain_reads_but_only_the_owner_changes_it(org, who):
    experiment = plan(org.rep)
    reader = getattr(org, who)
    for change in (
        lambda: experiment_start(experiment=experiment, actor=reader),
        lambda: experiment_drop(experiment=experiment, actor=reader),
        lambda: experiment_finish(experiment=experiment, actor=reader, result="x"),
        lambda: experiment_update(experiment=experiment, actor=reader, hypothesis="x", test="y"),
    ):
        with pytest.raises(Forbidden, match="Only the person running"):
            change()
    experiment.refresh_from_db()
    assert experiment.status == ExperimentStatus.PLANNED
    with pytest.raises(Http404):
        experiment_start(experiment=experiment, actor=org.hr)


@pytest.mark.django_db
def test_my_experiments_are_grouped_running_first(org):
    planned = plan(org.rep, hypothesis="Planned")
    running = experiment_start(experiment=plan(org.rep, hypothesis="Running"), actor=org.rep)
    done = experiment_finish(experiment=plan(org.rep), actor=org.rep, result="Yes")
    groups = by_state([planned, running, done])
    assert list(groups) == ["running", "planned", "done", "dropped"]
    assert [groups[s] for s in groups] == [[running], [planned], [done], []]
