"""Install-plan items that tick from data tick exactly when the data says so: for
each one, the data one step short leaves it undone, the real thing ticks it, with
the day it happened where the data gives one; and it unticks when the data stops
saying so. The two items the data cannot tell are ticked (and unticked) by the lead."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from cadence.models import RolloutTick
from cadence.rollout import ITEMS, MANUAL
from cadence.services import plan_end
from cadence.services_rollout import rollout_tick, rollout_untick
from coaching.services import session_cancel
from core.errors import Forbidden
from learning.models import PlaybookModule
from people.services_teams import team_create, team_member_add, team_member_remove
from tests.support.cadence_rollout import (
    calibration,
    call_review,
    focus_with_criteria,
    manager_review,
    pair,
    role_play,
    rollout_fixture,  # noqa: F401 - the `rollout` fixture
    status,
    team_fixture,  # noqa: F401 - the `team` fixture
    weekly,
)

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate


def test_the_checklist_has_ten_items_due_at_day_30_60_and_90(rollout):
    assert len(ITEMS) == 10 and set(MANUAL) == {"recordings_on", "scorecard_agreed"}
    assert {item.day for item in ITEMS} == {30, 60, 90}
    start = rollout.starts_on
    assert status(rollout, "first_call_review").due_on == start + timedelta(days=30)
    assert status(rollout, "first_calibration").due_on == start + timedelta(days=60)
    assert status(rollout, "peer_pairs").due_on == start + timedelta(days=90)
    assert not any(status(rollout, item.key).done for item in ITEMS)


# --- Cadence live ---------------------------------------------------------------------------


def test_cadence_is_live_once_every_member_but_the_lead_has_a_weekly_1_1(org, team, rollout):
    team_member_add(team=team, person=org.manager)  # the lead on their own team
    weekly(org.manager, org.rep)
    assert not status(rollout, "cadence_live").done  # the peer has none yet
    weekly(org.manager, org.peer)
    found = status(rollout, "cadence_live")
    assert found.done and found.done_on == TODAY()


def test_cadence_is_not_live_when_a_plan_ends_and_a_leaver_does_not_count(org, team, rollout):
    weekly(org.manager, org.rep)
    ended = weekly(org.manager, org.peer)
    plan_end(plan=ended, actor=org.manager, reason="other", note="Changed role")
    assert not status(rollout, "cadence_live").done
    team_member_remove(team=team, person=org.peer)
    assert status(rollout, "cadence_live").done


def test_a_team_with_nobody_on_it_has_no_cadence_live(org):
    empty = team_create(name="Empty", lead=org.other_manager)
    from cadence.services_rollout import rollout_start

    started = rollout_start(team=empty, actor=org.other_manager, starts_on=TODAY())
    assert not status(started, "cadence_live").done


# --- Focus area -----------------------------------------------------------------------------


def test_a_focus_area_needs_criteria_to_count(org, rollout):
    focus_with_criteria(org, criteria=False)
    assert not status(rollout, "focus_area").done
    focus = focus_with_criteria(org)
    found = status(rollout, "focus_area")
    assert found.done and found.done_on == focus.starts_on


def test_a_focus_area_for_another_team_or_over_already_does_not_count(org, team, rollout):
    other = team_create(name="Omar's team", lead=org.other_manager)
    focus_with_criteria(org, teams=[other])
    yesterday = TODAY() - timedelta(days=1)
    focus_with_criteria(
        org, teams=[team], starts_on=yesterday - timedelta(days=30), ends_on=yesterday
    )
    assert not status(rollout, "focus_area").done
    focus_with_criteria(org, teams=[team])
    assert status(rollout, "focus_area").done


# --- Sessions held --------------------------------------------------------------------------


def test_the_first_team_call_review_ticks_when_it_is_logged_held(org, team, rollout):
    scheduled = call_review(org, team, held=False)
    assert not status(rollout, "first_call_review").done
    session_cancel(session=scheduled, actor=org.manager, reason="forecast_call")
    assert not status(rollout, "first_call_review").done
    held = call_review(org, team)
    found = status(rollout, "first_call_review")
    assert found.done and found.done_on == timezone.localdate(held.held_at)


def test_another_teams_call_review_does_not_count(org, rollout):
    other = team_create(name="Omar's team", lead=org.other_manager)
    team_member_add(team=other, person=org.other_rep)
    from coaching.services import session_mark_held, team_call_review_create

    session = team_call_review_create(
        actor=org.other_manager,
        team=other,
        start=timezone.now() - timedelta(hours=2),
        presenter=org.other_rep,
        call_url="https://calls.example.com/x",
        call_title="Other call",
        call_date=TODAY(),
    )
    session_mark_held(session=session, actor=org.other_manager)
    assert not status(rollout, "first_call_review").done


def test_the_first_role_play_ticks_when_held_for_the_team_or_with_a_member(org, team, rollout):
    role_play(org, coach=org.manager, participants=[org.rep], team=team, held=False)
    assert not status(rollout, "first_role_play").done
    role_play(org, coach=org.other_manager, participants=[org.other_rep])
    assert not status(rollout, "first_role_play").done  # nobody on the team practised
    role_play(org, coach=org.manager, participants=[org.peer])  # planned without a team
    assert status(rollout, "first_role_play").done


def test_a_role_play_held_for_the_team_ticks_it(org, team, rollout):
    held = role_play(org, coach=org.manager, participants=[org.rep], team=team)
    found = status(rollout, "first_role_play")
    assert found.done and found.done_on == timezone.localdate(held.held_at)


def test_the_leads_first_manager_review_ticks_when_held(org, rollout):
    manager_review(org, manager=org.manager, held=False)
    manager_review(org, manager=org.other_manager)  # another lead's
    assert not status(rollout, "first_manager_review").done
    manager_review(org, manager=org.manager)
    found = status(rollout, "first_manager_review")
    assert found.done and found.done_on == TODAY()


# --- Calibration ----------------------------------------------------------------------------


def test_a_calibration_still_open_does_not_count(org, rollout):
    calibration(org, submitters=[org.manager, org.other_manager], close=False)
    assert not status(rollout, "first_calibration").done


def test_a_closed_calibration_the_lead_did_not_score_does_not_count(org, rollout):
    calibration(org, submitters=[org.other_manager])
    assert not status(rollout, "first_calibration").done


def test_a_closed_calibration_the_lead_scored_ticks_it(org, rollout):
    scoring = calibration(org, submitters=[org.manager, org.other_manager])
    found = status(rollout, "first_calibration")
    assert found.done and found.done_on == timezone.localdate(scoring.closed_at)


# --- Playbook -------------------------------------------------------------------------------


def test_a_playbook_picked_ticks_it_and_a_retired_one_does_not(team, rollout):
    module = PlaybookModule.objects.order_by("position").first()
    retired = PlaybookModule.objects.exclude(pk=module.pk).first()
    retired.is_active = False
    retired.save(update_fields=["is_active"])
    retired.teams.add(team)
    assert not status(rollout, "playbook_picked").done
    module.teams.add(team)
    found = status(rollout, "playbook_picked")
    assert found.done and found.done_on is None  # picking keeps no date


# --- Peer pairs -----------------------------------------------------------------------------


def test_a_pair_formed_but_not_started_does_not_count(org, rollout):
    pair(org, org.rep, org.other_rep, started=False)
    assert not status(rollout, "peer_pairs").done


def test_a_started_pair_with_a_member_of_the_team_ticks_it(org, rollout):
    pair(org, org.other_rep, org.admin)  # nobody on the team
    assert not status(rollout, "peer_pairs").done
    formed = pair(org, org.rep, org.other_rep)
    found = status(rollout, "peer_pairs")
    assert found.done and found.done_on == timezone.localdate(formed.started_at)


def test_an_ended_pair_or_one_the_member_left_does_not_count(org, rollout):
    ended = pair(org, org.rep, org.other_rep)
    ended.ended_at = timezone.now()
    ended.save(update_fields=["ended_at"])
    left = pair(org, org.peer, org.other_rep)
    left.members.filter(person=org.peer).update(left_at=timezone.now())
    assert not status(rollout, "peer_pairs").done


# --- Ticked by hand -------------------------------------------------------------------------


@pytest.mark.parametrize("key", MANUAL)
def test_the_lead_ticks_and_unticks_what_the_data_cannot_tell(org, rollout, key):
    rollout_tick(rollout=rollout, actor=org.manager, item=key)
    rollout_tick(rollout=rollout, actor=org.manager, item=key)  # twice: still one tick
    found = status(rollout, key)
    assert found.done and found.done_on == TODAY()
    assert RolloutTick.objects.get().ticked_by == org.manager
    rollout_untick(rollout=rollout, actor=org.manager, item=key)
    assert not status(rollout, key).done


@pytest.mark.parametrize("who", ["head", "admin", "hr", "rep"])
def test_nobody_but_the_lead_ticks(org, rollout, who):
    with pytest.raises(Forbidden, match="Only the team's lead"):
        rollout_tick(rollout=rollout, actor=getattr(org, who), item="recordings_on")
    assert not RolloutTick.objects.exists()


@pytest.mark.parametrize("key", ["first_call_review", "cadence_live", "nonsense", ""])
def test_items_the_data_tells_cannot_be_ticked_by_hand(org, rollout, key):
    with pytest.raises(ValidationError) as refused:
        rollout_tick(rollout=rollout, actor=org.manager, item=key)
    assert "ticked by hand" in refused.value.message_dict["item"][0]
    assert not RolloutTick.objects.exists()
